/** The bare forms a Basque word may be under its case ending (basque-endings.ts). */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { basqueBareForms } from '../../../server/search/basque-endings.ts';

test('a noun under its ending gives its bare form, with and without the article', () => {
  assert.ok(basqueBareForms('sukaldean').includes('sukalde'));
  assert.ok(basqueBareForms('sukaldean').includes('sukaldea'));
  assert.ok(basqueBareForms('hormako').includes('horma'));
  assert.ok(basqueBareForms('komunetik').includes('komun'));
  assert.ok(basqueBareForms('pitzadurak').includes('pitzadura'));
});

test('no bare form shorter than four letters', () => {
  assert.equal(basqueBareForms('etxean').filter((f) => f.length < 4), []);
  assert.equal(basqueBareForms('ura'), []);
});

test.run();
