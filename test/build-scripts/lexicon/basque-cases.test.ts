/**
 * The Basque case forms of a place name (build-scripts/lexicon/basque-cases.ts), and the build
 * adding them to served and unserved places but not to demonyms, nor where a form is a word.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { basqueCaseForms } from '../../../build-scripts/lexicon/basque-cases.ts';
import { compileLexicon } from '../../../build-scripts/lexicon/compile.ts';

test('after a vowel: -n, -ko, -ra, -tik and the rest', () => {
  assert.equal(basqueCaseForms('bilbo'), ['bilbon', 'bilboko', 'bilbora', 'bilbotik', 'bilborako', 'bilboraino']);
});

test('after a consonant an e; after l and n -go and -dik; a final r doubles before a vowel', () => {
  assert.ok(basqueCaseForms('gasteiz').includes('gasteizen') && basqueCaseForms('gasteiz').includes('gasteizko'));
  assert.ok(basqueCaseForms('madril').includes('madrilgo') && basqueCaseForms('madril').includes('madrildik'));
  assert.ok(basqueCaseForms('eibar').includes('eibarren') && basqueCaseForms('eibar').includes('eibarko'));
});

test('short names and names of several words have none', () => {
  assert.equal(basqueCaseForms('mad'), []);
  assert.equal(basqueCaseForms('santa cruz'), []);
});

test('the build adds them to the places of the content, served or not, never to demonyms or where a form is a word', () => {
  const lexicon = compileLexicon({ contentDir: 'src/content' });
  const cities = (name: string) => lexicon.places.find(([w]) => w.join(' ') === name)?.[1];
  const unserved = new Set(lexicon.unserved?.map((w) => w.join(' ')));
  assert.equal(cities('barakaldon'), ['bilbao']);
  assert.equal(cities('madrilen'), ['madrid']);
  assert.ok(unserved.has('gasteizko') && unserved.has('londresetik'));
  assert.is(cities('bilbotarran'), undefined, 'a demonym takes no case');
  assert.ok(!unserved.has('roman'), 'an English word');
});

test.run();
