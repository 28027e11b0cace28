/** build-scripts/slices.ts: synchronous work that gives the event loop a turn every few milliseconds. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { inSlices, SLICE_MS } from '../../build-scripts/slices.ts';

function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) { /* the synchronous work of one item */ }
}

test('every item in order, progress after each slice, and the event loop gets turns in between', async () => {
  const seen: number[] = [];
  const progress: [number, number][] = [];
  /** How many items were done each time a timer, due at once, got its turn. */
  const turns: number[] = [];
  const ticker = setInterval(() => turns.push(seen.length), 0);
  try {
    await inSlices(Array.from({ length: 12 }, (_, i) => i * 10), (item, i) => {
      assert.is(item, i * 10);
      seen.push(i);
      busy(SLICE_MS / 3);
    }, (done, total) => progress.push([done, total]));
  } finally {
    clearInterval(ticker);
  }
  assert.equal(seen, [...seen.keys()]);
  assert.is(seen.length, 12);
  assert.equal(progress.at(-1), [12, 12]);
  assert.ok(progress.length >= 3, `12 items of a third of a slice each take several slices (progress ${JSON.stringify(progress)})`);
  assert.ok(turns.some((n) => n > 0 && n < 12), `a timer ran while the items were being done (at ${turns.join(', ')})`);
});

test('no items: nothing called, no progress', async () => {
  let calls = 0;
  await inSlices([], () => { calls++; }, () => { calls++; });
  assert.is(calls, 0);
});

test('an item that throws stops the run with its error', async () => {
  const seen: number[] = [];
  const err = await inSlices([1, 2, 3], (n) => { if (n === 2) throw new Error('dos'); seen.push(n); }, () => {}).then(() => null, (e: unknown) => e);
  assert.instance(err, Error);
  assert.is((err as Error).message, 'dos');
  assert.equal(seen, [1]);
});

test('an aborted signal stops the run before its next slice, with the signal\'s reason', async () => {
  const abort = new AbortController();
  const seen: number[] = [];
  const reason = new Error('another stage failed');
  const run = inSlices(Array.from({ length: 100 }, (_, i) => i), (i) => {
    seen.push(i);
    busy(SLICE_MS / 3);
  }, () => {}, abort.signal);
  setTimeout(() => abort.abort(reason), 0);
  const err = await run.then(() => null, (e: unknown) => e);
  assert.is(err, reason);
  assert.ok(seen.length > 0 && seen.length < 100, `stopped part way (${seen.length} items done)`);
  assert.equal(seen, [...seen.keys()]);
});

test.run();
