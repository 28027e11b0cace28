/**
 * `sortUnstable` (Rust's unstable slice sort, as Pagefind's scores need it: postings.test.ts
 * checks the order it leaves equal elements in) sorts: every length through the insertion sort,
 * the existing-run check, the quicksort with its small sorts and partitions, ascending and
 * descending input, many equal keys.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sortUnstable } from '../../../formats/search/rust-sort.ts';

let state = 12345;
const random = (n: number) => { state = (Math.imul(state, 1103515245) + 12345) >>> 0; return state % n; };

test('sorts by key and keeps every element', () => {
  for (const length of [0, 1, 2, 5, 20, 21, 32, 33, 63, 64, 65, 200, 1000, 5000]) {
    for (const keys of [length, 4]) {
      const input = Array.from({ length }, (_, i) => ({ key: random(keys), i }));
      const sorted = sortUnstable([...input], (a, b) => a.key < b.key);
      for (let k = 1; k < sorted.length; k++) assert.ok(sorted[k - 1]!.key <= sorted[k]!.key, `length ${length}: in order at ${k}`);
      assert.equal(sorted.map((e) => e.i).sort((a, b) => a - b), input.map((e) => e.i), `length ${length}: a permutation`);
    }
  }
});

test('sorted and reversed input', () => {
  const up = Array.from({ length: 100 }, (_, i) => i);
  assert.equal(sortUnstable([...up], (a, b) => a < b), up);
  assert.equal(sortUnstable([...up].reverse(), (a, b) => a < b), up);
});

test('leaves equal elements in an order a stable sort would not', () => {
  const input = Array.from({ length: 300 }, (_, i) => ({ key: i % 3, i }));
  const sorted = sortUnstable([...input], (a, b) => a.key < b.key);
  const stable = [...input].sort((a, b) => a.key - b.key);
  assert.ok(sorted.some((e, k) => e.i !== stable[k]!.i));
});

test.run();
