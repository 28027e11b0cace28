/** The quota counter that outlives a store outage (withFallback), on a store that can go down. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { withFallback } from '../../../server/stores/fallback.ts';
import { createMemoryStore } from '../../../server/stores/memory.ts';
import { StoreUnavailableError } from '../../../server/stores/errors.ts';
import type { WindowCount } from '../../../server/stores/types.ts';

/** A shared store as the server sees Redis: answers by promise, and fails while `down`. */
function sharedStore(clock: () => number) {
  const backing = createMemoryStore({ clock });
  const state = { down: false, backing };
  const hit = (key: string, windowSeconds: number): Promise<WindowCount> =>
    (state.down ? Promise.reject(new StoreUnavailableError('down')) : Promise.resolve(backing.hit(key, windowSeconds)));
  return { state, primary: { hit } };
}

function setUp() {
  let now = 1_000_000;
  const clock = () => now;
  const { state, primary } = sharedStore(clock);
  const lines: string[] = [];
  let countedLocally = 0;
  const counter = withFallback({
    primary, fallback: createMemoryStore({ clock }), clock,
    log: { info: (m) => { lines.push(`info ${m}`); }, error: (m) => { lines.push(`error ${m}`); } },
    observer: { countedLocally: () => { countedLocally++; } },
  });
  return { counter, state, lines, clock, advance: (ms: number) => { now += ms; }, locally: () => countedLocally };
}

test('a steady store: its counts, nothing local', async () => {
  const { counter, lines, locally } = setUp();
  assert.equal(await counter.hit('k', 60), { count: 1, resetSeconds: 60 });
  assert.equal(await counter.hit('k', 60), { count: 2, resetSeconds: 60 });
  assert.is(counter.local, false);
  assert.equal(lines, []);
  assert.is(locally(), 0);
});

test('store down: the windows go on in the process, said once; back: shared again, a lost count gives way for one window', async () => {
  const { counter, state, lines, advance, locally } = setUp();
  await counter.hit('k', 60);
  state.down = true;
  assert.is((await counter.hit('k', 60)).count, 2, 'the local window has every hit, shared ones included');
  assert.is((await counter.hit('k', 60)).count, 3);
  assert.is(counter.local, true);
  assert.is(locally(), 2);
  assert.equal(lines, ['error quota store unavailable (down): counting quotas in this process until it is back']);

  state.down = false;
  await state.backing.del('k');
  assert.is((await counter.hit('k', 60)).count, 4, 'a shared count Redis lost gives way to the local one');
  assert.is(counter.local, false);
  assert.equal(lines.at(-1), 'info quota store back: quotas are shared again');
  advance(61_000);
  assert.is((await counter.hit('k', 60)).count, 1);
  await state.backing.del('k');
  assert.is((await counter.hit('k', 60)).count, 1, 'a window after the last local hit, the shared count decides');
});

test('a store in the process answers at once, and its count is the count', () => {
  const memory = createMemoryStore();
  const counter = withFallback({ primary: memory, fallback: createMemoryStore(), log: { info() {}, error() {} } });
  assert.equal(counter.hit('k', 60), { count: 1, resetSeconds: 60 });
});

test('a failure that is not an outage is not counted locally', async () => {
  const counter = withFallback({
    primary: { hit: () => Promise.reject(new TypeError('bug')) }, fallback: createMemoryStore(), log: { info() {}, error() {} },
  });
  assert.is(await Promise.resolve(counter.hit('k', 60)).then(() => 'counted', (e: Error) => e.message), 'bug');
  assert.is(counter.local, false);
});

test.run();
