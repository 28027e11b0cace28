import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildExcerpt, EXCERPT_MAX, EXCERPT_MIN, splitWords } from '../../../server/search/excerpt.ts';
import { driveInChild } from '../../helpers/cache-memory.ts';

const text = Array.from({ length: 120 }, (_, i) => `palabra${i}`).join(' ');
const page = splitWords(text);
const at = (word: string) => page.words.indexOf(word);

test('an excerpt surrounds the matches, cut at word boundaries, with ellipses where cut', () => {
  const e = buildExcerpt(page, [[at('palabra60')]]);
  assert.ok(e.includes('palabra60'));
  assert.ok(e.startsWith('… ') && e.endsWith(' …'));
  assert.ok(e.length >= EXCERPT_MIN && e.length <= EXCERPT_MAX, `${e.length}`);
  const inner = e.slice(2, -2);
  assert.ok((' ' + text + ' ').includes(' ' + inner + ' '), 'whole words');
  assert.ok(inner.indexOf('palabra60') > 0 && inner.indexOf('palabra60') < 100, 'a little context before the match');
});

test('the window with the most distinct query words wins', () => {
  const hits = [[at('palabra5'), at('palabra90')], [at('palabra93')]];
  const e = buildExcerpt(page, hits);
  assert.ok(e.includes('palabra90') && e.includes('palabra93'), e);
  assert.not.ok(e.includes('palabra5 '), e);
});

test('no matches in the text (a title match): the opening', () => {
  const e = buildExcerpt(page, []);
  assert.ok(e.startsWith('palabra0 palabra1'));
  assert.ok(e.endsWith(' …'));
  assert.ok(e.length <= EXCERPT_MAX);
});

test('near the end the excerpt reaches back to stay long enough', () => {
  const e = buildExcerpt(page, [[at('palabra119')]]);
  assert.ok(e.endsWith('palabra119'), 'no trailing ellipsis at the end of the text');
  assert.ok(e.length >= EXCERPT_MIN, `${e.length}`);
});

test('short texts come whole, without ellipses; overlong words are cut', () => {
  assert.is(buildExcerpt(splitWords('Fontanería en Madrid.'), [[0]]), 'Fontanería en Madrid.');
  assert.is(buildExcerpt(splitWords(''), []), '');
  const long = buildExcerpt(splitWords(`inicio ${'x'.repeat(400)} fin`), [[1]]);
  assert.ok(long.length <= EXCERPT_MAX, `${long.length}`);
});

test('a kept excerpt does not keep the page text it was cut from', async () => {
  // A child process with `gc`: 100 excerpts kept, each cut from a distinct text of about 1 MB.
  const report = await driveInChild('excerpts', 0, 100);
  const grown = report.after.heapUsed - report.before.heapUsed;
  assert.ok(grown < 16 * 2 ** 20, `the heap grew by ${(grown / 2 ** 20).toFixed(1)} MB for ${report.weight} bytes of excerpts`);
});

test.run();
