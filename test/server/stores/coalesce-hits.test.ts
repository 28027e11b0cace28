import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { coalesceHits } from '../../../server/stores/coalesce-hits.ts';
import { createMemoryStore } from '../../../server/stores/memory.ts';
import type { AddsHits, WindowCount } from '../../../server/stores/types.ts';

type AddHits = AddsHits['addHits'];

/** The `hit` of a store whose `addHits` is `addHits`, wrapped. */
function coalesced(addHits: AddHits): (key: string, windowSeconds: number) => Promise<WindowCount> {
  const store = coalesceHits({ ...createMemoryStore(), addHits });
  return (key, windowSeconds) => store.hit(key, windowSeconds) as Promise<WindowCount>;
}

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

/** Resolves after the microtasks queued so far (and those they queue) have run. */
const microtasks = () => new Promise<void>((r) => queueMicrotask(() => queueMicrotask(r)));

test('a quiet key is sent at the end of the current run, with the hits of that run', async () => {
  const { addHits, calls } = slowCounter();
  const hit = coalesced(addHits);
  const first = [hit('a', 60), hit('a', 60)];
  assert.is(calls.length, 0, 'nothing sent while the run that hit goes on');
  await microtasks();
  assert.equal(calls.map((c) => [c.key, c.n]), [['a', 2]], 'no timer: sent once the run ends, as one increment');
  calls[0]!.finish();
  assert.equal(await Promise.all(first), [{ count: 1, resetSeconds: 42 }, { count: 2, resetSeconds: 42 }]);
});

test('hits arriving while one is in flight go together, each with its own consecutive count', async () => {
  const { addHits, calls } = slowCounter();
  const hit = coalesced(addHits);
  const results = [hit('a', 60)];
  await microtasks();
  results.push(hit('a', 60), hit('a', 60), hit('a', 60));
  await tick();
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
  await microtasks();
  assert.is(calls.length, 4, 'the key is quiet again: sent when the run ends');
  calls[3]!.finish();
  assert.is((await again).count, 6);
});

test('an increment that throws instead of rejecting fails its batch and frees the key', async () => {
  let throws = true;
  const hit = coalesced((_key, n) => {
    if (throws) throw new Error('sync');
    return Promise.resolve({ count: n, resetSeconds: 1 });
  });
  assert.is(await hit('a', 60).then(() => 'ok', (e: Error) => e.message), 'sync');
  throws = false;
  assert.is((await hit('a', 60)).count, 1, 'the next hit is sent');
});

test('keys do not wait for each other', async () => {
  const { addHits, calls } = slowCounter();
  const hit = coalesced(addHits);
  const a = hit('a', 60);
  const b = hit('b', 60);
  await microtasks();
  assert.equal(calls.map((c) => c.key), ['a', 'b']);
  calls[1]!.finish();
  assert.is((await b).count, 1);
  calls[0]!.finish();
  assert.is((await a).count, 1);
});

test('a failed increment fails its whole batch; the hits waiting behind it are still sent', async () => {
  const { addHits, calls } = slowCounter();
  const hit = coalesced(addHits);
  const first = hit('a', 60).then(() => 'ok', (e: Error) => e.message);
  await microtasks();
  const waiting = [hit('a', 60), hit('a', 60)];
  calls[0]!.finish(new Error('down'));
  assert.is(await first, 'down');
  await tick();
  assert.equal(calls.map((c) => c.n), [1, 2]);
  calls[1]!.finish(new Error('still down'));
  assert.equal(await Promise.all(waiting.map((p) => p.then(() => 'ok', (e: Error) => e.message))), ['still down', 'still down']);
  await tick();
  const later = hit('a', 60);
  await microtasks();
  calls[2]!.finish();
  assert.is((await later).count, 1, 'the failed increments counted nothing');
});

test('a store that counts at once (no addHits) is left as it is', () => {
  const memory = createMemoryStore();
  assert.is(coalesceHits(memory), memory);
  assert.equal(memory.hit('a', 60), { count: 1, resetSeconds: 60 });
});

test.run();
