/**
 * The OAuth conformance suite over a real Redis (private redis-server), plus what only a shared
 * backend shows: tokens, revocations and per-IP limits hold across server instances, and the
 * expiries are Redis TTLs.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createClient } from 'redis';
import { startRedis } from '../../../helpers/redis.ts';
import { createRedisStore } from '../../../../server/stores/redis.ts';
import type { TestServer } from '../../../helpers/server.ts';
import { capturingLogger, expectOAuthError, getToken, identity, introspect, postForm, register, redisStores, startOAuthServer, testClock } from './harness.ts';
import { oauthSuite } from './suite.ts';

const redis = await startRedis();
const stores = redisStores(redis.url);
oauthSuite('redis', stores, { clockDrivesTtl: false });

const shared = suite('oauth (redis store shared by two server instances)');

/** Two servers, each with its own Redis connection, on one key prefix: two processes in production. */
async function withTwoInstances(fn: (a: TestServer, b: TestServer, prefix: string) => Promise<void>): Promise<void> {
  const prefix = `oauth-shared-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const storeA = await createRedisStore({ url: redis.url, keyPrefix: prefix, log: capturingLogger() });
  const storeB = await createRedisStore({ url: redis.url, keyPrefix: prefix, log: capturingLogger() });
  const clock = testClock();
  const a = await startOAuthServer({ store: storeA, clock });
  const b = await startOAuthServer({ store: storeB, clock });
  try {
    await fn(a, b, prefix);
  } finally {
    await Promise.all([a.close(), b.close()]);
    await Promise.all([storeA.close(), storeB.close()]);
  }
}

shared('a token issued by one instance is valid on the other, and a revocation on one holds on both', () => withTwoInstances(async (a, b) => {
  const c = await register(a.origin);
  const t = await getToken(a.origin, c);
  assert.is((await identity(b.origin, t)).status, 200);
  assert.is(((await introspect(b.origin, c, t)) as { active: boolean }).active, true);
  const revoked = await postForm(b.origin, '/oauth/revoke', { token: t }, { id: c.client_id, secret: c.client_secret });
  assert.is(revoked.status, 200);
  assert.is((await identity(a.origin, t)).status, 401);
  assert.equal(await introspect(a.origin, c, t), { active: false });
}));

shared('§1 registration limit is counted across instances (5 per hour per IP)', () => withTwoInstances(async (a, b) => {
  for (let i = 0; i < 5; i++) await register(i % 2 ? a.origin : b.origin);
  const res = await fetch(`${a.origin}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  await expectOAuthError(res, 429, 'rate_limited');
}));

shared('§2 token limit is counted across instances (30 per minute per IP)', () => withTwoInstances(async (a, b) => {
  const c = await register(a.origin);
  const requests = Array.from({ length: 30 }, (_, i) => postForm(i % 2 ? a.origin : b.origin, '/oauth/token', { grant_type: 'client_credentials' }, { id: c.client_id, secret: c.client_secret }));
  for (const res of await Promise.all(requests)) assert.is(res.status, 200);
  await expectOAuthError(await postForm(b.origin, '/oauth/token', { grant_type: 'client_credentials' }, { id: c.client_id, secret: c.client_secret }), 429, 'rate_limited');
}));

shared('expiries are Redis TTLs: token 3600 s, client 180 days renewed by each token request', () => withTwoInstances(async (a, _b, prefix) => {
  const raw = createClient({ url: redis.url });
  await raw.connect();
  try {
    const c = await register(a.origin);
    const clientKey = `${prefix}:{client:${c.client_id}}`;
    const idle = 180 * 24 * 3600;
    const ttl0 = await raw.ttl(clientKey);
    assert.ok(ttl0 > idle - 5 && ttl0 <= idle, `client TTL ${ttl0}`);
    await raw.expire(clientKey, 100);
    const t = await getToken(a.origin, c);
    const ttl1 = await raw.ttl(clientKey);
    assert.ok(ttl1 > idle - 5, `renewed client TTL ${ttl1}`);
    const tokenKeys = await raw.keys(`${prefix}:{token:*`);
    assert.is(tokenKeys.length, 1);
    const ttl = await raw.ttl(tokenKeys[0]!);
    assert.ok(ttl > 3590 && ttl <= 3600, `token TTL ${ttl}`);
    // Nothing in Redis holds the secret or the token in clear.
    for (const key of await raw.keys(`${prefix}:*`)) {
      const type = await raw.type(key);
      const value = type === 'string' ? await raw.get(key) : '';
      assert.not.ok(key.includes(t) || key.includes(c.client_secret) || value?.includes(t) || value?.includes(c.client_secret), key);
    }
    // A client whose record expired (idle) can no longer get tokens.
    await raw.del(clientKey);
    await expectOAuthError(await postForm(a.origin, '/oauth/token', { grant_type: 'client_credentials' }, { id: c.client_id, secret: c.client_secret }), 401, 'invalid_client');
  } finally {
    await raw.close();
  }
}));

shared('Redis outage: OAuth endpoints answer 503 temporarily_unavailable and identity 503, never a 500 or a hang', () => withTwoInstances(async (a) => {
  const c = await register(a.origin);
  const t = await getToken(a.origin, c);
  await redis.stop();
  try {
    const started = Date.now();
    const res = await postForm(a.origin, '/oauth/token', { grant_type: 'client_credentials' }, { id: c.client_id, secret: c.client_secret });
    assert.is(res.headers.get('retry-after'), '1');
    await expectOAuthError(res, 503, 'temporarily_unavailable', 'The service is temporarily unavailable; retry shortly.');
    const reg = await fetch(`${a.origin}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    await expectOAuthError(reg, 503, 'temporarily_unavailable');
    await expectOAuthError(await postForm(a.origin, '/oauth/introspect', { token: t }, { id: c.client_id, secret: c.client_secret }), 503, 'temporarily_unavailable');
    const who = await identity(a.origin, t);
    assert.is(who.status, 503);
    assert.is((await who.json() as { code: string }).code, 'agentes_unavailable');
    assert.ok(Date.now() - started < 5000, 'answers fast');
  } finally {
    await redis.start();
  }
}));

shared.after(() => redis.close());
shared.run();
