/**
 * A page's own phrase (server/search/phrase.ts): the query's words close together on one or two
 * pages' text, not merely on the same pages.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { phrasePages, shortestSpan } from '../../../server/search/phrase.ts';
import type { WordHits } from '../../../formats/search/word-hits.ts';

const hits = (docs: number[]): WordHits => ({ docs: Int32Array.from(docs), count: docs.length } as unknown as WordHits);

test('the shortest window holding a position of every list', () => {
  assert.is(shortestSpan([[3, 40], [12, 41]]), 1);
  assert.is(shortestSpan([[5], [9], [7]]), 4);
  assert.is(shortestSpan([[5], []]), Infinity);
});

test('pages where the words are together, only when few pages have them so', () => {
  // Word 0 on pages 1, 2 and 3, word 1 on 2, 3 and 4: pages 2 and 3 hold both.
  const words = [hits([1, 2, 3]), hits([2, 3, 4])];
  const near = new Map([[2, [[10], [12]]], [3, [[10], [90]]]]);
  const positions = (d: number, k: number) => near.get(d)![k]!;
  assert.equal(phrasePages(words, 100, false, positions), [2], 'together on page 2, apart on page 3');
  const both = (d: number, k: number) => [[10], [11]][k]!.map((p) => p + d);
  assert.equal(phrasePages(words, 100, false, both), [2, 3]);
  assert.equal(phrasePages([hits([1, 2, 3]), hits([1, 2, 3])], 100, false, () => [5]), [], 'on three pages: no page\'s own');
});

test('apart in a sentence only with a word few pages have; never of common words alone', () => {
  const words = [hits([2]), hits([2, 3])];
  const positions = (_: number, k: number) => (k === 0 ? [10] : [19]);
  assert.equal(phrasePages(words, 100, false, positions), []);
  assert.equal(phrasePages(words, 100, true, positions), [2]);
  const common = Array.from({ length: 20 }, (_, i) => i);
  assert.equal(phrasePages([hits(common), hits(common)], 100, false, () => [1]), [], 'both on a fifth of the pages');
});

test.run();
