/**
 * One behaviour suite for every Store implementation: the memory and Redis tests both run it,
 * so the two cannot drift apart.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Store } from '../../../server/stores/types.ts';

export interface StoreHarness {
  store: Store;
  /** Lets `ms` of store time pass (a fake clock for memory, real time for Redis). */
  advance(ms: number): Promise<void>;
}

export function storeSuite(name: string, open: () => Promise<StoreHarness & { close(): Promise<void> }>) {
  const test = suite<{ h: StoreHarness & { close(): Promise<void> }; n: number }>(name);
  let counter = 0;
  // Fresh keys per test: the suites share one backend.
  const key = (ctx: { n: number }, k: string) => `t${ctx.n}:${k}`;

  test.before(async (ctx) => { ctx.h = await open(); });
  test.after(async (ctx) => { await ctx.h.close(); });
  test.before.each((ctx) => { ctx.n = ++counter + Math.floor(Math.random() * 1e6) * 1000; });

  test('hit counts within a window and reports the seconds left', async (ctx) => {
    const { store } = ctx.h;
    const k = key(ctx, 'rl');
    const first = await store.hit(k, 60);
    assert.is(first.count, 1);
    assert.ok(first.resetSeconds >= 59 && first.resetSeconds <= 60, `reset ${first.resetSeconds}`);
    assert.is((await store.hit(k, 60)).count, 2);
    assert.is((await store.hit(k, 60)).count, 3);
    assert.is((await store.hit(key(ctx, 'other'), 60)).count, 1, 'keys are independent');
  });

  test('the window opens at the first hit and restarts after it ends', async (ctx) => {
    const { store, advance } = ctx.h;
    const k = key(ctx, 'win');
    await store.hit(k, 1);
    await store.hit(k, 1);
    const w = await store.peek(k, 1);
    assert.is(w.count, 2);
    assert.is(w.resetSeconds, 1);
    await advance(1100);
    assert.equal(await store.peek(k, 1), { count: 0, resetSeconds: 1 });
    assert.is((await store.hit(k, 1)).count, 1, 'a new window starts');
  });

  test('concurrent hits are all counted exactly once', async (ctx) => {
    const { store } = ctx.h;
    const k = key(ctx, 'burst');
    const counts = await Promise.all(Array.from({ length: 200 }, () => store.hit(k, 60)));
    assert.equal(counts.map((c) => c.count).sort((a, b) => a - b), Array.from({ length: 200 }, (_, i) => i + 1));
  });

  test('peek does not count', async (ctx) => {
    const { store } = ctx.h;
    const k = key(ctx, 'peek');
    assert.equal(await store.peek(k, 60), { count: 0, resetSeconds: 60 });
    await store.hit(k, 60);
    await store.peek(k, 60);
    assert.is((await store.peek(k, 60)).count, 1);
  });

  test('get / set / setIfAbsent / touch / del', async (ctx) => {
    const { store } = ctx.h;
    const k = key(ctx, 'kv');
    assert.is(await store.get(k), null);
    await store.set(k, 'uno', 60);
    assert.is(await store.get(k), 'uno');
    assert.is(await store.setIfAbsent(k, 'dos', 60), false);
    assert.is(await store.get(k), 'uno');
    assert.is(await store.setIfAbsent(key(ctx, 'kv2'), 'dos', 60), true);
    assert.is(await store.get(key(ctx, 'kv2')), 'dos');
    assert.is(await store.touch(k, 60), true);
    assert.is(await store.touch(key(ctx, 'absent'), 60), false);
    assert.is(await store.del(k), true);
    assert.is(await store.del(k), false);
    assert.is(await store.get(k), null);
    await store.set(k, 'ñandú {json} "quoted"', 60);
    assert.is(await store.get(k), 'ñandú {json} "quoted"', 'values round-trip unchanged');
  });

  test('values expire after their time to live; touch renews it', async (ctx) => {
    const { store, advance } = ctx.h;
    const a = key(ctx, 'ttl-a');
    const b = key(ctx, 'ttl-b');
    await store.set(a, 'x', 1);
    await store.set(b, 'y', 1);
    await advance(600);
    assert.ok(await store.touch(b, 2));
    await advance(600);
    assert.is(await store.get(a), null, 'expired');
    assert.is(await store.get(b), 'y', 'renewed');
    assert.is(await store.setIfAbsent(a, 'z', 1), true, 'an expired key is absent');
  });

  return test;
}
