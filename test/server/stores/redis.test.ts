import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createClient } from 'redis';
import { createLogger } from '../../../server/log.ts';
import { createStore, StoreUnavailableError } from '../../../server/stores/index.ts';
import { coalesceHits } from '../../../server/stores/coalesce-hits.ts';
import { COMMAND_DEADLINE_MS } from '../../../server/stores/redis.ts';
import type { Store } from '../../../server/stores/types.ts';
import { freePort } from '../../../scripts/lib/port.ts';
import { startRedis, type TestRedis } from '../../helpers/redis.ts';
import { storeSuite } from './store-suite.ts';
import { waitUntil } from '../../helpers/wait.ts';

const log = createLogger('silent');
const redis = await startRedis();
const open = (prefix = 'agentes-test') => createStore({ redisUrl: redis.url, keyPrefix: prefix }, { log });

storeSuite('redis store', async () => {
  const store = await open();
  return { store, advance: (ms) => new Promise((r) => setTimeout(r, ms)), close: () => store.close() };
}).run();

redisSpecific(redis).run();

function redisSpecific(server: TestRedis) {
  const test = suite('redis store: keys, scripts and outages');
  let raw: ReturnType<typeof createClient>;
  const connectRaw = async () => {
    raw = createClient({ url: server.url });
    raw.on('error', () => {});
    await raw.connect();
  };
  test.before(connectRaw);
  // Last suite of the file: the private server goes with it.
  test.after(async () => { await raw.close().catch(() => {}); await server.close(); });

  test('keys carry the deployment prefix and a cluster hash tag around the variable part', async () => {
    const store = await open('pfx');
    try {
      await store.hit('rl:anonimo:203.0.113.9', 60);
      await store.set('token:{abc}', 'v', 60);
      const keys = (await raw.keys('pfx:*')).sort();
      assert.equal(keys, ['pfx:{rl:anonimo:203.0.113.9}', 'pfx:{token:{abc}}']);
      const ttl = await raw.pTTL('pfx:{rl:anonimo:203.0.113.9}');
      assert.ok(ttl > 58_000 && ttl <= 60_000, `window expiry set by the first hit: ${ttl}`);
    } finally {
      await store.close();
    }
  });

  test('concurrent hits of one key, coalesced as the server composes it: each count once, fewer commands than hits, one expiry', async () => {
    const store = coalesceHits(await open('burst'));
    try {
      await raw.sendCommand(['CONFIG', 'RESETSTAT']);
      const counts = (await Promise.all(Array.from({ length: 200 }, () => store.hit('k', 60)))).map((w) => w.count);
      assert.equal([...counts].sort((a, b) => a - b), Array.from({ length: 200 }, (_, i) => i + 1), 'counts 1…200, each once');
      assert.is(await raw.get('burst:{k}'), '200');
      const calls = Number(/cmdstat_evalsha:calls=(\d+),/.exec(String(await raw.sendCommand(['INFO', 'commandstats'])))?.[1]);
      assert.is(calls, 1, `hits of one synchronous run go as one increment: ${calls} EVALSHA for 200 hits`);
      const ttl = await raw.pTTL('burst:{k}');
      assert.ok(ttl > 58_000 && ttl <= 60_000, `expiry set once, by the first increment: ${ttl}`);
      const other = await Promise.all([store.hit('k2', 60), store.hit('k3', 60)]);
      assert.equal(other.map((w) => w.count), [1, 1], 'other keys are not held back');
    } finally {
      await store.close();
    }
  });

  test('a hit is one EVALSHA, and a flushed script cache is recovered (NOSCRIPT → EVAL)', async () => {
    const store = await open();
    try {
      await store.hit('evalsha', 60);
      await raw.sendCommand(['CONFIG', 'RESETSTAT']);
      await store.hit('evalsha', 60);
      const stats = String(await raw.sendCommand(['INFO', 'commandstats']));
      assert.match(stats, /cmdstat_evalsha:calls=1,/);
      // (commandstats also lists the INCR/PTTL run inside the script; what matters is what the client sent)
      assert.not.match(stats, /cmdstat_(eval|multi|exec|get|set):/, 'no other command from the client');
      await raw.sendCommand(['SCRIPT', 'FLUSH']);
      assert.is((await store.hit('evalsha', 60)).count, 3);
      assert.is((await store.hit('evalsha', 60)).count, 4, 'loaded again');
    } finally {
      await store.close();
    }
  });

  test('a Redis that stops answering fails each command within about a second (no hang)', async () => {
    const store = await open();
    try {
      await store.hit('pause', 60);
      // Writes (a hit's script) wait until UNPAUSE, which this connection can still send.
      await raw.sendCommand(['CLIENT', 'PAUSE', '600000', 'WRITE']);
      const started = Date.now();
      const err = await Promise.resolve(store.hit('pause', 60)).then(() => null, (e: unknown) => e);
      const waited = Date.now() - started;
      await raw.sendCommand(['CLIENT', 'UNPAUSE']);
      assert.instance(err, StoreUnavailableError);
      // About a second; the slack is for a busy machine, where timers fire late.
      assert.ok(waited >= COMMAND_DEADLINE_MS - 50 && waited < COMMAND_DEADLINE_MS + 4000, `waited ${waited} ms`);
      const again = await waitUntil('a hit once Redis answers', () => Promise.resolve(store.hit('pause', 60)).then((w) => w.count, () => 0));
      assert.ok(again >= 2, 'works again once Redis answers');
    } finally {
      await store.close();
    }
  });

  test('a Redis that is down fails commands at once and is used again when it is back', async () => {
    const store = await open();
    try {
      await server.stop();
      await new Promise((r) => setTimeout(r, 50));
      const started = Date.now();
      const err = await Promise.resolve(store.hit('outage', 60)).then(() => null, (e: unknown) => e);
      assert.instance(err, StoreUnavailableError);
      assert.ok(Date.now() - started < COMMAND_DEADLINE_MS + 2000, 'bounded wait');
      await server.start();
      const count = await waitUntil('a hit after the reconnection', () => Promise.resolve(store.hit('outage', 60)).then((w) => w.count, () => 0));
      assert.is(count, 1, 'reconnected (the data died with the server)');
    } finally {
      await store.close();
      await raw.close().catch(() => {});
      await connectRaw();
    }
  });

  test('an unreachable REDIS_URL fails loudly at start instead of serving without quotas', async () => {
    const port = await freePort();
    const started = Date.now();
    const err = await createStore({ redisUrl: `redis://127.0.0.1:${port}`, keyPrefix: 'x' }, { log }).then(
      (s: Store) => s.close().then(() => null),
      (e: unknown) => e,
    );
    assert.instance(err, StoreUnavailableError);
    // Five tries 200 ms apart, with ten times that left for a busy machine.
    assert.ok(Date.now() - started < 10_000, 'gives up within a few seconds');
  });

  return test;
}
