/** Page sets of one query: galloping over ascending page lists, and marks that need no clearing. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { advance, Marks } from '../../../server/search/page-sets.ts';

/** A fixed pseudo-random sequence, so a failure repeats. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

test('advance finds the first page not below the one asked for, as a scan would', () => {
  const rand = random(11);
  for (let round = 0; round < 200; round++) {
    const size = Math.floor(rand() * 300);
    const docs = Int32Array.from(new Set(Array.from({ length: size }, () => Math.floor(rand() * 1000)))).sort();
    for (let k = 0; k < 50; k++) {
      const from = Math.floor(rand() * (docs.length + 2));
      const d = Math.floor(rand() * 1100) - 50;
      let want = from;
      while (want < docs.length && docs[want]! < d) want++;
      assert.is(advance(docs, from, d), want, `from ${from} to ${d} in ${docs.length} pages`);
    }
  }
  assert.is(advance(new Int32Array(0), 0, 5), 0);
  assert.is(advance(Int32Array.of(1, 2, 3), 3, 0), 3, 'at the end it stays there');
});

test('marks: a page is marked once per round, and a new round starts empty', () => {
  const marks = new Marks(10);
  assert.equal([...marks.marked()], [], 'nothing is marked before the first round');
  marks.next();
  assert.ok(marks.mark(7));
  assert.ok(marks.mark(2));
  assert.not.ok(marks.mark(7), 'a second mark of the same page');
  assert.equal([...marks.marked()], [2, 7]);
  marks.next();
  assert.equal([...marks.marked()], []);
  assert.ok(marks.mark(7));
  assert.equal([...marks.marked()], [7]);
});

test.run();
