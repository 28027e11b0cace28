/**
 * Redis Sentinel (REDIS_SENTINELS, REDIS_SENTINEL_NAME, REDIS_PASSWORD), on a private master and
 * its replica (with a password) and one sentinel started once for the file: the store behaves as
 * on one node; three server processes on it count every limit exactly and share clients and
 * tokens; a SENTINEL FAILOVER under load gives
 * nothing but the documented 503s, every process follows the new master (the old one stays up
 * and writable: test/helpers/redis-sentinel.ts), and exact counting is back within seconds.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createClient } from 'redis';
import { createLogger } from '../../server/log.ts';
import { createStore, StoreUnavailableError } from '../../server/stores/index.ts';
import { freePort } from '../../scripts/lib/port.ts';
import { startRedisSentinel, type TestRedisSentinel } from '../helpers/redis-sentinel.ts';
import { TOPOLOGY_PASSWORD } from '../helpers/redis-topology.ts';
import { storeSuite } from '../server/stores/store-suite.ts';
import { assertExactLimits, registeredClient } from './helpers/limits.ts';
import { assertFailoverUnderLoad } from './helpers/failover.ts';
import { processesOn } from './helpers/topology.ts';

const PREFIX = 'rs';
const redis = await startRedisSentinel();
const env = { REDIS_SENTINELS: redis.sentinels, REDIS_SENTINEL_NAME: redis.name, REDIS_PASSWORD: TOPOLOGY_PASSWORD };

/** A key as the master the sentinel names now has it. */
async function onMaster(topology: TestRedisSentinel, key: string): Promise<string | null> {
  const raw = createClient({ url: `redis://127.0.0.1:${await topology.masterPort()}`, password: TOPOLOGY_PASSWORD });
  raw.on('error', () => {});
  await raw.connect();
  try {
    return await raw.get(key);
  } finally {
    await raw.close();
  }
}

storeSuite('redis sentinel store', async () => {
  const sentinel = { name: redis.name, sentinels: [`redis://${redis.sentinels}`], username: undefined, password: TOPOLOGY_PASSWORD };
  const store = await createStore({ redisUrl: undefined, redisSentinel: sentinel, keyPrefix: 'suite' }, { log: createLogger('silent') });
  // The suite holds for any store: this one must be the master's.
  await store.set('where', 'master', 60);
  assert.is(await onMaster(redis, 'suite:{where}'), 'master', 'the store writes to the master');
  return { store, advance: (ms) => new Promise((r) => setTimeout(r, ms)), close: () => store.close() };
}).run();

const start = suite('redis sentinel store: start');
start('unreachable sentinels stop the start within seconds, named without their password', async () => {
  const port = await freePort();
  const sentinel = { name: redis.name, sentinels: [`redis://:s3cret@127.0.0.1:${port}`], username: undefined, password: 's3cret' };
  const err = await createStore({ redisUrl: undefined, redisSentinel: sentinel, keyPrefix: 'x' }, { log: createLogger('silent') })
    .then((store) => store.close().then(() => null), (e: unknown) => e as Error);
  assert.instance(err, StoreUnavailableError);
  assert.is(err!.message, `cannot connect to Redis at sentinel master ${redis.name} via redis://***@127.0.0.1:${port}`);
});
start.run();

const test = processesOn('Redis Sentinel, master + replica + sentinel, 3 processes', { ...env, KEY_PREFIX: PREFIX }, redis);

test('every limit is exact across processes; clients and tokens are shared, on the master', async ({ servers }) => {
  const { client, identifiedMs } = await assertExactLimits(servers, (n) => `198.19.0.${n}`);
  assert.is(await onMaster(redis, `${PREFIX}:{rl:identificado:${client.client_id}}`), String(1000 + 30 * 3), 'every identified call counted once');
  assert.is(await onMaster(redis, `${PREFIX}:{rl:anonimo:198.19.0.3}`), '300');
  for (const s of servers) {
    assert.ok(s.logs().some((l) => l.msg === 'listening' && l.store === 'redis sentinel'), 'each process says it uses Sentinel');
    assert.not.ok(s.stderr().includes(TOPOLOGY_PASSWORD), 'no log line prints the password');
  }
  console.log(`  sentinel: 1,000 concurrent identified calls over 3 processes in ${identifiedMs.toFixed(0)} ms → 600 × 200, 400 × 429; anonymous 60/300, registrations 5/40, tokens 30/100`);
});

test('SENTINEL FAILOVER under load: content 200, tokens and OAuth 200 or 503 + Retry-After, exact counting again within seconds', async ({ servers }) => {
  const before = await redis.masterPort();
  const client = await registeredClient(servers, 'failover', ['198.19.1.1', '198.19.1.2']);
  let n = 0;
  const run = await assertFailoverUnderLoad({
    servers, client, failover: () => redis.failover(), freshIp: async () => `198.19.${2 + (++n >> 8)}.${n & 255}`,
    countedOnNewMaster: async (ip) => await redis.masterPort() !== before && await onMaster(redis, `${PREFIX}:{rl:anonimo:${ip}}`) === '90',
  });
  assert.is.not(await redis.masterPort(), before, 'the other node is the master now');
  assert.ok(await onMaster(redis, `${PREFIX}:{client:${client.client_id}}`), 'the client registered before the failover is on the new master');
  // The old master still takes writes: the exact count must be the new master's, from every process.
  assert.is(await onMaster(redis, `${PREFIX}:{rl:anonimo:${run.exactIp}}`), '90', 'counted on the new master');
  console.log(`  sentinel failover: ${run.samples.length} requests, ${JSON.stringify(run.counts)}; failover ${run.failoverMs.toFixed(0)} ms; exact counting ${run.exactAfterMs.toFixed(0)} ms after it`);
});

test.run();
