/** server/idle-gc.ts: one collection once the server has gone quiet after serving, none otherwise. */
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startScriptNodeOptions } from '../../bench/lib/processes.ts';
import { idleCollector, idleTicks } from '../../server/idle-gc.ts';

test('no request, no collection', () => {
  let runs = 0;
  const t = idleTicks(() => runs++);
  for (let i = 0; i < 5; i++) t.tick();
  assert.is(runs, 0);
});

test('one collection a whole tick after the last request, none while requests come, none again until more', () => {
  let runs = 0;
  const t = idleTicks(() => runs++);
  for (let i = 0; i < 5; i++) {
    t.touch();
    t.touch();
    t.tick();
  }
  assert.is(runs, 0, 'busy: a request in every tick');
  t.tick();
  assert.is(runs, 1, 'quiet for a whole tick');
  t.tick();
  t.tick();
  assert.is(runs, 1, 'and no other while it stays quiet');
  t.touch();
  t.tick();
  assert.is(runs, 1, 'the tick in which a request came');
  t.tick();
  assert.is(runs, 2, 'a new request, a new collection after it');
});

test('the timer: a request, then quiet, then one collection; stop ends it', async () => {
  let runs = 0;
  const c = idleCollector({ gc: () => runs++, intervalMs: 10 });
  try {
    c.touch();
    const deadline = performance.now() + 5_000;
    while (runs === 0 && performance.now() < deadline) await sleep(10);
    assert.is(runs, 1);
  } finally {
    c.stop();
  }
  c.touch();
  await sleep(60);
  assert.is(runs, 1, 'stopped: no collection after it');
});

test('without gc exposed, touching and stopping do nothing', () => {
  const c = idleCollector({ gc: undefined });
  c.touch();
  c.stop();
});

test('npm start runs the server with gc exposed', () => {
  assert.ok(startScriptNodeOptions().includes('--expose-gc'), startScriptNodeOptions().join(' '));
});

test.run();
