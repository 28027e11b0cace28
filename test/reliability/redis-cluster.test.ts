/**
 * Redis Cluster (REDIS_CLUSTER_NODES), on a private three-master cluster (one master with a
 * replica, every node with a password) started once for the file: the store behaves as on one node and warns about a master
 * that may evict; three server processes on it count every limit exactly and share clients and
 * tokens, each key on the master of its hash tag's slot; a CLUSTER FAILOVER under load, then a
 * master killed under load, give nothing but the documented 503s, and exact counting is back
 * within seconds.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createCluster } from 'redis';
import { createLogger, type Logger } from '../../server/log.ts';
import { tokenKey } from '../../server/auth/tokens.ts';
import { createStore, StoreUnavailableError } from '../../server/stores/index.ts';
import { freePort } from '../../scripts/lib/port.ts';
import { startRedis } from '../helpers/redis.ts';
import { startRedisCluster } from '../helpers/redis-cluster.ts';
import { TOPOLOGY_PASSWORD } from '../helpers/redis-topology.ts';
import { storeSuite } from '../server/stores/store-suite.ts';
import { assertExactLimits } from './helpers/limits.ts';
import { assertFailoverUnderLoad, clientWhere } from './helpers/failover.ts';
import { processesOn } from './helpers/topology.ts';

const PREFIX = 'rc';
const redis = await startRedisCluster();
const nodes = redis.nodes.split(',');
const open = (keyPrefix: string, log: Logger = createLogger('silent')) => createStore({ redisUrl: undefined, redisCluster: { nodes }, keyPrefix }, { log });

storeSuite('redis cluster store', async () => {
  const store = await open('suite');
  // The suite holds for any store: this one must be the cluster's.
  await store.set('where', 'cluster', 60);
  assert.is(String(await redis.command(await redis.masterOf('suite:{where}'), ['GET', 'suite:{where}'])), 'cluster', 'the store writes to the cluster');
  return { store, advance: (ms) => new Promise((r) => setTimeout(r, ms)), close: () => store.close() };
}).run();

const checks = suite('redis cluster store: start, masters, REDIS_QUOTA_URL');
checks('an unreachable cluster stops the start, named without its password', async () => {
  const port = await freePort();
  const err = await createStore({ redisUrl: undefined, redisCluster: { nodes: [`redis://:s3cret@127.0.0.1:${port}`] }, keyPrefix: 'x' }, { log: createLogger('silent') })
    .then((store) => store.close().then(() => null), (e: unknown) => e as Error);
  assert.instance(err, StoreUnavailableError);
  assert.is(err!.message, `cannot connect to Redis at cluster redis://***@127.0.0.1:${port}`);
});
checks('REDIS_QUOTA_URL beside a cluster: counters on their own Redis, clients and tokens on the cluster', async () => {
  const counters = await startRedis();
  try {
    const store = await createStore({ redisUrl: undefined, redisCluster: { nodes }, redisQuotaUrl: counters.url, keyPrefix: 'split' }, { log: createLogger('silent') });
    try {
      await store.hit('rl:anonimo:192.0.2.9', 60);
      await store.set('client:c1', 'v', 60);
    } finally {
      await store.close();
    }
    assert.is(String(await redis.command(await redis.masterOf('split:{client:c1}'), ['GET', 'split:{client:c1}'])), 'v');
    assert.is(await redis.command(await redis.masterOf('split:{rl:anonimo:192.0.2.9}'), ['EXISTS', 'split:{rl:anonimo:192.0.2.9}']), 0, 'no counter on the cluster');
  } finally {
    await counters.close();
  }
});
checks('a master whose maxmemory-policy may evict is named at start', async () => {
  const lines: string[] = [];
  const evicting = redis.masters[1]!.port;
  await redis.command(evicting, ['CONFIG', 'SET', 'maxmemory-policy', 'allkeys-lru']);
  try {
    const store = await open('ev', { info: (m) => { lines.push(m); }, error: (m) => { lines.push(m); } });
    await store.close();
  } finally {
    await redis.command(evicting, ['CONFIG', 'SET', 'maxmemory-policy', 'noeviction']);
  }
  const warnings = lines.filter((l) => l.startsWith('redis maxmemory-policy is allkeys-lru'));
  assert.equal(warnings.length, 1, lines.join('\n'));
  assert.ok(warnings[0]!.endsWith(`(on the master at 127.0.0.1:${evicting})`), warnings[0]);
});
checks.run();

const test = processesOn('Redis Cluster, 3 masters, 3 processes', { REDIS_CLUSTER_NODES: redis.nodes, KEY_PREFIX: PREFIX }, redis);

test('every limit is exact across processes; clients, tokens and counters are spread over the masters', async ({ servers }) => {
  const { client, identifiedMs, issued } = await assertExactLimits(servers, (n) => `198.18.0.${n}`);
  // Read back through a Cluster client of its own: each key on the master of its slot.
  const raw = createCluster({ rootNodes: [{ url: nodes[0]! }], defaults: { password: TOPOLOGY_PASSWORD } });
  raw.on('error', () => {});
  await raw.connect();
  const tokenKeys = issued.map((token) => `${PREFIX}:{${tokenKey(token)}}`);
  try {
    assert.is(await raw.get(`${PREFIX}:{rl:identificado:${client.client_id}}`), String(1000 + 30 * 3), 'every identified call counted once');
    assert.is(await raw.get(`${PREFIX}:{rl:anonimo:198.18.0.3}`), '300');
    assert.ok(await raw.get(`${PREFIX}:{client:${client.client_id}}`), 'the client is in the cluster');
    for (const key of tokenKeys) assert.ok(await raw.get(key), `token ${key} in the cluster`);
  } finally {
    await raw.close();
  }
  // Thirty tokens by hash: on one master only with a chance of 3 in 10^14.
  const masters = new Set(await Promise.all(tokenKeys.map((key) => redis.masterOf(key))));
  assert.ok(masters.size > 1, 'the tokens are on more than one master');
  for (const s of servers) {
    assert.ok(s.logs().some((l) => l.msg === 'listening' && l.store === 'redis cluster'), 'each process says it uses the cluster');
    assert.not.ok(s.stderr().includes(TOPOLOGY_PASSWORD), 'no log line prints the password');
  }
  console.log(`  cluster: 1,000 concurrent identified calls over 3 processes in ${identifiedMs.toFixed(0)} ms → 600 × 200, 400 × 429; anonymous 60/300, registrations 5/40, tokens 30/100; tokens on ${masters.size} masters`);
});

/**
 * A failover of the first master's shard under load (`how`), then exact counting within seconds.
 * `net` keeps the addresses of each run apart: 198.`net`.x.y.
 */
function failoverUnderLoad(name: string, how: () => Promise<void>, net: number) {
  test(name, async ({ servers }) => {
    const shard = redis.shard.map((s) => s.port);
    const onShard = async (key: string) => shard.includes(await redis.masterOf(`${PREFIX}:{${key}}`));
    const client = await clientWhere(servers, (id) => onShard(`rl:identificado:${id}`), `198.${net}.1`);
    let n = 0;
    const freshIp = async () => {
      for (;;) {
        const ip = `198.${net}.${2 + (++n >> 8)}.${n & 255}`;
        if (await onShard(`rl:anonimo:${ip}`)) return ip;
      }
    };
    const before = await redis.masterOf(`${PREFIX}:{rl:identificado:${client.client_id}}`);
    const run = await assertFailoverUnderLoad({ servers, client, failover: how, freshIp });
    assert.is.not(await redis.masterOf(`${PREFIX}:{rl:identificado:${client.client_id}}`), before, 'the other node of the shard serves the slot now');
    console.log(`  ${name.split(' under')[0]}: ${run.samples.length} requests, ${JSON.stringify(run.counts)}; failover ${run.failoverMs.toFixed(0)} ms; exact counting ${run.exactAfterMs.toFixed(0)} ms after it`);
  });
}

failoverUnderLoad('CLUSTER FAILOVER under load: content 200, tokens and OAuth 200 or 503 + Retry-After, exact counting again within seconds', () => redis.failover(), 20);
failoverUnderLoad('a master killed under load: the same, once the cluster has promoted its replica', () => redis.killMaster(), 21);

test.run();
