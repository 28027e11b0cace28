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
import { basic, form, json, request, statusCounts, type RawResponse } from '../helpers/http.ts';

const PREFIX = 'scale';
const API = '/wp-json/agentes/v1';

/** `n` requests at once, spread round-robin over the processes. */
function burst(servers: readonly ServerProcess[], n: number, make: (i: number) => { path: string; method?: string; headers?: Record<string, string>; body?: string }): Promise<RawResponse[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => {
    const r = make(i);
    return request(servers[i % servers.length]!.url + r.path, { method: r.method, headers: r.headers, body: r.body, timeoutMs: 30_000 });
  }));
}

const ascending = (n: number) => Array.from({ length: n }, (_, i) => i);
const remainingOf = (replies: RawResponse[]) => replies.map((r) => Number(r.headers['ratelimit-remaining'])).sort((a, b) => a - b);

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
    const from = (ip: string) => ({ 'X-Forwarded-For': ip });

    // A registered client, and its token (from addresses no burst below uses).
    const reg = await request(servers[0]!.url + '/oauth/register', { method: 'POST', ...json({ client_name: 'scale-out' }, from('192.0.2.1')) });
    assert.is(reg.status, 201, reg.text());
    const client = reg.json<{ client_id: string; client_secret: string }>();
    const tok = await request(servers[1]!.url + '/oauth/token', { method: 'POST', ...form({ grant_type: 'client_credentials' }, { Authorization: basic(client.client_id, client.client_secret), ...from('192.0.2.2') }) });
    assert.is(tok.status, 200, tok.text());
    const { access_token } = tok.json<{ access_token: string }>();

    // 1,000 concurrent calls of one client (from 1,000 addresses: the quota is per client_id).
    const t0 = performance.now();
    const identified = await burst(servers, 1000, (i) => ({
      path: `${API}/${['read_page?url=fontaneria', 'search_pages?query=fontaneria', 'get_company_info?section=contact'][i % 3]}`,
      headers: { Authorization: `Bearer ${access_token}`, ...from(`10.1.${i >> 8}.${i & 255}`) },
    }));
    const identifiedMs = performance.now() - t0;
    assert.equal(statusCounts(identified), { 200: 600, 429: 400 });
    for (const r of identified) {
      assert.is(r.headers['ratelimit-policy'], '"identificado";q=600;w=60');
      if (r.status === 429) {
        assert.is(r.json().code, 'agentes_rate_limited');
        assert.ok(Number(r.headers['retry-after']) >= 1);
      }
    }
    assert.equal(remainingOf(identified.filter((r) => r.status === 200)), ascending(600), 'each admitted call saw its own count');
    // Which process admits which calls is a race, and not a fair one by design: each process sends
    // the hits of one loop turn as one increment, so a process can take the whole quota in a few
    // increments before another's first arrives. What holds whichever process answers is above.

    // Anonymous: 60 per IP per window.
    const anonymous = await burst(servers, 300, () => ({ path: `${API}/read_page?url=fontaneria`, headers: from('203.0.113.60') }));
    assert.equal(statusCounts(anonymous), { 200: 60, 429: 240 });
    assert.equal(remainingOf(anonymous.filter((r) => r.status === 200)), ascending(60));
    for (const r of anonymous) assert.is(r.headers['ratelimit-policy'], '"anonimo";q=60;w=60');

    // Registration: 5 per hour per IP.
    const registrations = await burst(servers, 40, (i) => ({
      path: '/oauth/register', method: 'POST',
      ...json({ client_name: `burst ${i}` }, from('203.0.113.70')),
    }));
    assert.equal(statusCounts(registrations), { 201: 5, 429: 35 });
    for (const r of registrations.filter((x) => x.status === 429)) {
      assert.equal(Object.keys(r.json()).sort(), ['error', 'error_description']);
      assert.is(r.json().error, 'rate_limited');
      assert.ok(Number(r.headers['retry-after']) > 60, 'a registration window is an hour');
    }

    // Token endpoint: 30 per minute per IP, valid credentials.
    const tokens = await burst(servers, 100, () => ({
      path: '/oauth/token', method: 'POST',
      ...form({ grant_type: 'client_credentials' }, { Authorization: basic(client.client_id, client.client_secret), ...from('203.0.113.80') }),
    }));
    assert.equal(statusCounts(tokens), { 200: 30, 429: 70 });
    const issued = tokens.filter((r) => r.status === 200).map((r) => r.json<{ access_token: string }>().access_token);
    assert.is(new Set(issued).size, 30, 'thirty distinct tokens');
    for (const r of tokens.filter((x) => x.status === 429)) assert.is(r.json().error, 'rate_limited');

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
    assert.is(await raw.get(`${PREFIX}:{rl:identificado:${client.client_id}}`), '1000', 'every call was counted once');
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
