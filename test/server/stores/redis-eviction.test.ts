/**
 * Redis that may evict (docs/operations.md, "Redis"): the store reads `maxmemory-policy` at start and after a
 * reconnection and warns when registered clients and tokens can be evicted; with REDIS_QUOTA_URL
 * the counters live on their own Redis, so a flood of addresses that fills it evicts counters
 * only, never a client or a token. Real redis-servers started by the test.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createClient } from 'redis';
import type { Logger } from '../../../server/log.ts';
import { createStore } from '../../../server/stores/index.ts';
import type { Store } from '../../../server/stores/types.ts';
import { startRedis } from '../../helpers/redis.ts';
import { waitUntil } from '../../helpers/wait.ts';

function capturingLog(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (m) => { lines.push(`info ${m}`); }, error: (m, cause) => { lines.push(`error ${m}${cause ? ' (with cause)' : ''}`); } };
}
const EVICTION_WARNING = /^error redis maxmemory-policy is allkeys-lru: registered clients and tokens can be evicted/;

async function raw(url: string) {
  const client = createClient({ url });
  client.on('error', () => {});
  await client.connect();
  return client;
}

test('a policy that can evict is reported at start and after a reconnection, without a stack; noeviction is quiet', async () => {
  const redis = await startRedis();
  const admin = await raw(redis.url);
  const stores: Store[] = [];
  try {
    const quiet = capturingLog();
    const store = await createStore({ redisUrl: redis.url, keyPrefix: 'ev' }, { log: quiet });
    stores.push(store);
    assert.not.ok(quiet.lines.some((l) => /maxmemory-policy/.test(l)), quiet.lines.join('\n'));

    await admin.configSet('maxmemory-policy', 'allkeys-lru');
    const warned = capturingLog();
    const second = await createStore({ redisUrl: redis.url, keyPrefix: 'ev' }, { log: warned });
    stores.push(second);
    assert.equal(warned.lines.filter((l) => EVICTION_WARNING.test(l)).length, 1, warned.lines.join('\n'));
    assert.not.ok(warned.lines.some((l) => l.includes('(with cause)')));

    // The first store reconnects after its connection is dropped, and checks again.
    await admin.sendCommand(['CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes']);
    await waitUntil(`the warning after the reconnection (${quiet.lines.join(' / ')})`, () => quiet.lines.some((l) => EVICTION_WARNING.test(l)));
  } finally {
    for (const s of stores) await s.close().catch(() => {});
    await admin.close().catch(() => {});
    await redis.close();
  }
});

test('REDIS_QUOTA_URL: 20,000 addresses fill the counters\' Redis (allkeys-lru, 2 MB); clients and tokens on REDIS_URL stay', async () => {
  const credentials = await startRedis();
  const counters = await startRedis();
  const adminCounters = await raw(counters.url);
  const adminCredentials = await raw(credentials.url);
  let store: Store | undefined;
  try {
    await adminCounters.configSet({ 'maxmemory-policy': 'allkeys-lru', maxmemory: '2mb' });
    const log = capturingLog();
    const split = await createStore({ redisUrl: credentials.url, redisQuotaUrl: counters.url, keyPrefix: 'split' }, { log });
    store = split;
    assert.not.ok(log.lines.some((l) => /maxmemory-policy/.test(l)), 'counters may be evicted: no warning for their Redis');
    await split.set('client:c1', '{"name":"agente"}', 86_400);
    await split.set('token:t1', '{"client_id":"c1"}', 3_600);
    for (let i = 0; i < 20_000; i += 500) {
      await Promise.all(Array.from({ length: 500 }, (_, j) => split.hit(`rl:anonimo:10.${(i + j) >> 16}.${((i + j) >> 8) & 255}.${(i + j) & 255}`, 60)));
    }
    const evicted = Number(/evicted_keys:(\d+)/.exec(await adminCounters.info('stats'))![1]);
    assert.ok(evicted > 0, 'the counters\' Redis did evict');
    assert.is(await split.get('client:c1'), '{"name":"agente"}');
    assert.is(await split.get('token:t1'), '{"client_id":"c1"}');
    assert.is(Number(/evicted_keys:(\d+)/.exec(await adminCredentials.info('stats'))![1]), 0);
    assert.equal((await adminCredentials.keys('split:*')).sort(), ['split:{client:c1}', 'split:{token:t1}']);
  } finally {
    await store?.close().catch(() => {});
    await adminCounters.close().catch(() => {});
    await adminCredentials.close().catch(() => {});
    await counters.close();
    await credentials.close();
  }
});

test('REDIS_QUOTA_URL needs REDIS_URL, and is checked like it without printing its password', async () => {
  const { parseConfig } = await import('../../../server/config.ts');
  assert.throws(() => parseConfig({ REDIS_QUOTA_URL: 'redis://127.0.0.1:6390' }), /REDIS_QUOTA_URL needs REDIS_URL/);
  assert.throws(() => parseConfig({ REDIS_URL: 'redis://127.0.0.1:6390', REDIS_QUOTA_URL: 'http://:pw@x' }), (e: Error) => /REDIS_QUOTA_URL must be/.test(e.message) && !e.message.includes('pw'));
  assert.is(parseConfig({ REDIS_URL: 'redis://127.0.0.1:6390', REDIS_QUOTA_URL: 'redis://127.0.0.1:6391' }).redisQuotaUrl, 'redis://127.0.0.1:6391');
});

test.run();
