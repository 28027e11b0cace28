import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { coalesceHits, type AddHits } from '../../../server/stores/coalesce-hits.ts';
import type { WindowCount } from '../../../server/stores/types.ts';

/** A counter whose increments finish when the test says so. */
function slowCounter() {
  const totals = new Map<string, number>();
  const calls: Array<{ key: string; n: number; finish: (err?: Error) => void }> = [];
  const addHits: AddHits = (key, n) => new Promise<WindowCount>((resolve, reject) => {
    calls.push({
      key,
      n,
      finish: (err) => {
        if (err) { reject(err); return; }
        const count = (totals.get(key) ?? 0) + n;
        totals.set(key, count);
        resolve({ count, resetSeconds: 42 });
      },
    });
  });
  return { addHits, calls };
}

const tick = () => new Promise((r) => setImmediate(r));

test('a quiet key is sent at once, alone', async () => {
  const { addHits, calls } = slowCounter();
  const hit = coalesceHits(addHits);
  const first = hit('a', 60);
  assert.equal(calls.map((c) => [c.key, c.n]), [['a', 1]], 'no waiting for a timer or a batch');
  calls[0]!.finish();
  assert.equal(await first, { count: 1, resetSeconds: 42 });
});

test('hits arriving while one is in flight go together, each with its own consecutive count', async () => {
  const { addHits, calls } = slowCounter();
  const hit = coalesceHits(addHits);
  const results = [hit('a', 60), hit('a', 60), hit('a', 60), hit('a', 60)];
  assert.equal(calls.map((c) => c.n), [1], 'the three later hits wait for the first');
  calls[0]!.finish();
  await tick();
  assert.equal(calls.map((c) => c.n), [1, 3], 'then go as one increment of 3');
  const late = hit('a', 60);
  calls[1]!.finish();
  await tick();
  calls[2]!.finish();
  assert.equal((await Promise.all([...results, late])).map((w) => w.count), [1, 2, 3, 4, 5]);
  await tick();
  assert.is(calls.length, 3, 'nothing left to send');
  const again = hit('a', 60);
  assert.is(calls.length, 4, 'the key is quiet again: sent at once');
  calls[3]!.finish();
  assert.is((await again).count, 6);
});

test('keys do not wait for each other', async () => {
  const { addHits, calls } = slowCounter();
  const hit = coalesceHits(addHits);
  const a = hit('a', 60);
  const b = hit('b', 60);
  assert.equal(calls.map((c) => c.key), ['a', 'b']);
  calls[1]!.finish();
  assert.is((await b).count, 1);
  calls[0]!.finish();
  assert.is((await a).count, 1);
});

test('a failed increment fails its whole batch; the hits waiting behind it are still sent', async () => {
  const { addHits, calls } = slowCounter();
  const hit = coalesceHits(addHits);
  const first = hit('a', 60).then(() => 'ok', (e: Error) => e.message);
  const waiting = [hit('a', 60), hit('a', 60)];
  calls[0]!.finish(new Error('down'));
  assert.is(await first, 'down');
  await tick();
  assert.equal(calls.map((c) => c.n), [1, 2]);
  calls[1]!.finish(new Error('still down'));
  assert.equal(await Promise.all(waiting.map((p) => p.then(() => 'ok', (e: Error) => e.message))), ['still down', 'still down']);
  const later = hit('a', 60);
  calls[2]!.finish();
  assert.is((await later).count, 1, 'the failed increments counted nothing');
});

test.run();
