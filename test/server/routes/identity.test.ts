/**
 * /agent/identity: admitted and counted like an API operation that requires a token. An invalid
 * token is counted on its IP's anonymous window, as on the REST API and MCP (401 with the
 * window's headers, then 429); a valid token's calls count on its client's window (rate-limit
 * headers, 429 with Retry-After when used up), at no more store commands than an API call; its
 * CORS preflight is the API's.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createClient } from 'redis';
import { clientKey } from '../../../server/auth/clients.ts';
import { IdentitySchema, QuotaSchema } from '../../../formats/schemas/resources.ts';
import { assertRateLimitHeaders } from '../../helpers/assertions.ts';
import { request } from '../../helpers/http.ts';
import { startRedis } from '../../helpers/redis.ts';
import { startTestServer, withTestServer, type TestServer } from '../../helpers/server.ts';

const identity = (api: TestServer, token: string) => request(`${api.origin}/agent/identity`, { headers: { Authorization: `Bearer ${token}` } });

test('invalid tokens on /agent/identity: 401 counted on the IP\'s window, then 429; the window is the REST API\'s', async () => {
  const api = await startTestServer({ env: { RATE_LIMIT_ANONYMOUS: '3' } });
  try {
    const guess = (i: number) => identity(api, `guess-${i}`);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await guess(i));
    assert.equal(answers.map((a) => a.status), [401, 401, 401, 429]);
    assert.equal(answers.map((a) => a.headers['ratelimit-remaining']), ['2', '1', '0', '0']);
    assert.is(answers[0]!.json().code, 'agentes_invalid_token');
    assert.match(String(answers[0]!.headers['www-authenticate']), /^Bearer error="invalid_token"/);
    assert.is(answers[3]!.json().code, 'agentes_rate_limited');
    assert.ok(Number(answers[3]!.headers['retry-after']) >= 1);
    assert.is((await request(`${api.base}/get_company_info`)).status, 429, 'the same window as the API');

    const { access_token } = await api.tokens.issue('client-identity', ['content:read']);
    const me = await identity(api, access_token);
    assert.is(me.status, 200, 'a valid token is not held back by its IP\'s window');
    assertRateLimitHeaders(me, { policy: 'identificado', limit: 600, remaining: 599 });
    assert.is(me.json().client_id, 'client-identity');
  } finally {
    await api.close();
  }
});

test('a valid token\'s calls count on its client\'s window, shared with the API: headers, quota, then 429 with Retry-After', async () => {
  const api = await startTestServer({ env: { RATE_LIMIT_IDENTIFIED: '3' } });
  try {
    const { access_token } = await api.tokens.issue('client-counted', ['quota:read']);
    for (let used = 1; used <= 2; used++) {
      const res = await identity(api, access_token);
      assert.is(res.status, 200);
      assertRateLimitHeaders(res, { policy: 'identificado', limit: 3, remaining: 3 - used });
      assert.equal({ ...res.json().quota, reset_seconds: 0 }, {
        client_id: 'client-counted', scope: 'quota:read', policy: 'identificado', limit: 3, window_seconds: 60,
        used, remaining: 3 - used, reset_seconds: 0,
      });
    }
    const quota = await request(`${api.base}/quota`, { headers: { Authorization: `Bearer ${access_token}` } });
    assert.is(quota.json().used, 3, 'the API\'s get_quota counts in the same window');
    const spent = await identity(api, access_token);
    assert.is(spent.status, 429);
    assert.is(spent.json().code, 'agentes_rate_limited');
    assertRateLimitHeaders(spent, { policy: 'identificado', limit: 3, remaining: 0 });
    assert.ok(Number(spent.headers['retry-after']) >= 1);
    assert.is(spent.headers['cache-control'], 'no-store');

    const none = await request(`${api.origin}/agent/identity`);
    assert.is(none.status, 401, 'no token: 401, on the anonymous window');
    assertRateLimitHeaders(none, { policy: 'anonimo', limit: 60, remaining: 59 });
  } finally {
    await api.close();
  }
});

test('CORS: the preflight is the API\'s and every answer is readable cross-origin', async () => {
  const api = await startTestServer();
  try {
    const pre = await request(`${api.origin}/agent/identity`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://agente.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' },
    });
    assert.is(pre.status, 204);
    assert.is(pre.headers['access-control-allow-origin'], '*');
    assert.is(pre.headers['access-control-allow-methods'], 'GET, HEAD, OPTIONS');
    assert.match(String(pre.headers['access-control-allow-headers']).toLowerCase(), 'authorization');
    assert.is(pre.headers.ratelimit, undefined, 'preflights are not counted');
    const { access_token } = await api.tokens.issue('client-cors', ['content:read']);
    for (const res of [await identity(api, access_token), await request(`${api.origin}/agent/identity`), await request(`${api.origin}/agent/identity`, { method: 'POST' })]) {
      assert.is(res.headers['access-control-allow-origin'], '*', `${res.status}`);
      assert.match(String(res.headers['access-control-expose-headers']), /RateLimit-Remaining/);
    }
  } finally {
    await api.close();
  }
});

test('the body is the operation\'s schema exactly: the registered name when there is one, no field beside the schema\'s', async () => {
  const api = await startTestServer();
  try {
    await api.store.set(clientKey('client-named'), JSON.stringify({ client_id: 'client-named', client_name: 'Agente de prueba' }), 3600);
    const named = await identity(api, (await api.tokens.issue('client-named', ['content:read', 'quota:read'])).access_token);
    const unnamed = await identity(api, (await api.tokens.issue('client-unnamed', ['content:read'])).access_token);
    const strict = IdentitySchema.strict().extend({ quota: QuotaSchema.strict() });
    const body = strict.parse(named.json());
    assert.is(body.client_name, 'Agente de prueba');
    assert.is(body.scope, 'content:read quota:read');
    assert.is(body.quota.used, 1);
    assert.equal(Object.keys(strict.parse(unnamed.json())), ['client_id', 'scope', 'token_expires_at', 'quota'], 'no client_name when none was registered');
  } finally {
    await api.close();
  }
});

/** How many commands Redis ran, those inside scripts included, while `send` was called `n` times in turn. */
async function commandsWhile(redisUrl: string, n: number, send: () => Promise<unknown>): Promise<number> {
  const admin = createClient({ url: redisUrl });
  await admin.connect();
  try {
    await admin.sendCommand(['CONFIG', 'RESETSTAT']);
    for (let i = 0; i < n; i++) await send();
    let total = 0;
    for (const [, name, calls] of String(await admin.sendCommand(['INFO', 'commandstats'])).matchAll(/cmdstat_([a-z|]+):calls=(\d+)/g)) {
      if (name !== 'info' && !name!.startsWith('config')) total += Number(calls);
    }
    return total;
  } finally {
    await admin.close();
  }
}

test('in Redis a call costs no more commands than an API call with the same token', async () => {
  const redis = await startRedis();
  try {
    await withTestServer({ env: { REDIS_URL: redis.url, RATE_LIMIT_IDENTIFIED: '100000' } }, async (api) => {
      const { access_token } = await api.tokens.issue('client-cost', ['content:read']);
      const me = async () => assert.is((await identity(api, access_token)).status, 200);
      const company = async () => assert.is((await request(`${api.base}/get_company_info?section=contact`, { headers: { Authorization: `Bearer ${access_token}` } })).status, 200);
      // The window opened and the client's name read before counting.
      await me();
      await company();
      const n = 50;
      const perIdentity = await commandsWhile(redis.url, n, me);
      const perApiCall = await commandsWhile(redis.url, n, company);
      assert.ok(perIdentity <= perApiCall, `${perIdentity} commands for ${n} identity calls, ${perApiCall} for ${n} API calls`);
    });
  } finally {
    await redis.close();
  }
});

test.run();
