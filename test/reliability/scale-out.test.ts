/**
 * Scale-out: three real server processes (`server/index.ts`) behind a trusted proxy share one
 * private Redis. Every limit holds exactly across them, whichever process answers: 600 of 1,000
 * concurrent calls of one registered client, 60 anonymous calls per IP, 5 registrations per IP
 * and 30 token requests per IP. The keys in Redis carry KEY_PREFIX and a Cluster hash tag
 * around the whole variable part.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createClient } from 'redis';
import { sharedReadModel } from '../helpers/read-model.ts';
import { startRedis } from '../helpers/redis.ts';
import { serverEnv, startServers, stopAll, stubSite, type ServerProcess } from './helpers/cluster.ts';
import { assertExactLimits } from './helpers/limits.ts';

const PREFIX = 'scale';

/** The hash tag Redis Cluster hashes: between the first `{` and the next `}` (cluster spec, "Hash tags"). */
function hashTag(key: string): string | null {
  const open = key.indexOf('{');
  const close = key.indexOf('}', open + 1);
  return open === -1 || close === -1 || close === open + 1 ? null : key.slice(open + 1, close);
}

test('3 processes on one Redis: every limit is exact across processes, keys are prefixed and hash-tagged', async () => {
  const fixture = await sharedReadModel();
  const redis = await startRedis();
  const site = await stubSite();
  let servers: ServerProcess[] = [];
  const raw = createClient({ url: redis.url });
  raw.on('error', () => {});
  try {
    servers = await startServers(3, serverEnv({
      REDIS_URL: redis.url, KEY_PREFIX: PREFIX, TRUST_PROXY: '127.0.0.1', LOG_LEVEL: 'error',
      SITE_URL: fixture.siteUrl, READ_MODEL_DIR: fixture.dir, DIST_DIR: site.distDir,
    }));
    assert.is(new Set(servers.map((s) => s.port)).size, 3, 'three ports');
    const ips = ['192.0.2.1', '192.0.2.2', '203.0.113.60', '203.0.113.70', '203.0.113.80', '203.0.113.90'];
    const { client, identifiedMs } = await assertExactLimits(servers, (n) => ips[n - 1]!);

    // What is in Redis: only prefixed keys, each hash-tagged on its whole variable part.
    await raw.connect();
    const keys: string[] = [];
    for await (const batch of raw.scanIterator({ MATCH: '*', COUNT: 1000 })) keys.push(...(Array.isArray(batch) ? batch : [batch]));
    for (const key of keys) {
      assert.ok(key.startsWith(`${PREFIX}:{`) && key.endsWith('}'), `key ${key} is prefixed and tagged`);
      assert.is(hashTag(key), key.slice(PREFIX.length + 2, -1), `the hash tag of ${key} is its whole variable part`);
    }
    const expected = [
      `${PREFIX}:{rl:identificado:${client.client_id}}`,
      `${PREFIX}:{rl:anonimo:203.0.113.60}`,
      `${PREFIX}:{oauth-register:203.0.113.70}`,
      `${PREFIX}:{oauth-token:203.0.113.80}`,
      `${PREFIX}:{client:${client.client_id}}`,
    ];
    for (const key of expected) assert.ok(keys.includes(key), `${key} in Redis (have ${keys.length} keys)`);
    assert.is(keys.filter((k) => /^scale:\{token:[0-9a-f]{64}\}$/.test(k)).length, 31, 'one key per live token, by hash');
    assert.is(await raw.get(`${PREFIX}:{rl:identificado:${client.client_id}}`), String(1000 + 30 * 3), 'every call (1,000, then each token on each process) counted once');
    assert.is(await raw.get(`${PREFIX}:{rl:anonimo:203.0.113.60}`), '300');

    for (const s of servers) assert.ok(s.alive(), `process ${s.port} still running`);
    const exits = await stopAll(servers);
    for (const e of exits) assert.equal(e, { code: 0, signal: null }, 'each process drains and exits 0');
    console.log(`  scale-out: 1,000 concurrent identified calls over 3 processes in ${identifiedMs.toFixed(0)} ms → 600 × 200, 400 × 429; `
      + 'anonymous 60/300, registrations 5/40, tokens 30/100 admitted');
  } finally {
    await stopAll(servers);
    await raw.close().catch(() => {});
    await redis.close();
    await site.remove();
  }
});

test.run();
