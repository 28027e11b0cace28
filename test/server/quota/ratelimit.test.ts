/** Quotas through the HTTP API, run once per store: in-process and Redis. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createLogger } from '../../../server/log.ts';
import { createStore } from '../../../server/stores/index.ts';
import { createMemoryStore } from '../../../server/stores/memory.ts';
import type { Store } from '../../../server/stores/types.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { request } from '../../helpers/http.ts';
import { sharedReadModel } from '../../helpers/read-model.ts';
import { startRedis, type TestRedis } from '../../helpers/redis.ts';
import { assertError, assertRateLimitHeaders } from '../../helpers/assertions.ts';
import { waitUntil } from '../../helpers/wait.ts';

interface Backend {
  /** A fresh, empty store and the clock the server must use with it. */
  open(): Promise<{ store: Store; clock: () => number; advance(ms: number): Promise<void> }>;
}

const memory: Backend = {
  async open() {
    let now = Date.now();
    const clock = () => now;
    return { store: createMemoryStore({ clock }), clock, advance: async (ms) => { now += ms; } };
  },
};

const redis: TestRedis = await startRedis();
const log = createLogger('silent');
let prefixes = 0;
const redisBackend: Backend = {
  async open() {
    const store = await createStore({ redisUrl: redis.url, keyPrefix: `rl-test-${++prefixes}` }, { log });
    return { store, clock: Date.now, advance: (ms) => new Promise((r) => setTimeout(r, ms)) };
  },
};

function rateLimitSuite(name: string, backend: Backend, extra?: (test: ReturnType<typeof suite>) => void) {
  const test = suite(`quotas over HTTP (${name} store)`);

  async function withApi(env: Record<string, string>, fn: (api: TestServer, advance: (ms: number) => Promise<void>) => Promise<void>) {
    const { store, clock, advance } = await backend.open();
    const api = await startTestServer({ fixture: await sharedReadModel(), env, store, clock });
    try { await fn(api, advance); } finally { await api.close(); await store.close(); }
  }

  test('the 61st anonymous request of a window → 429 with Retry-After; every operation shares the window', async () => {
    await withApi({}, async (api) => {
      const ops = ['read_page?url=fontaneria', 'search_pages?query=cerrajer%C3%ADa', 'get_company_info?section=contact'];
      for (let i = 0; i < 60; i++) {
        const res = await request(`${api.base}/${ops[i % 3]}`);
        assert.is(res.status, 200, `request ${i + 1}`);
        assertRateLimitHeaders(res, { policy: 'anonimo', limit: 60, remaining: 59 - i });
      }
      for (const op of ops) {
        const res = await request(`${api.base}/${op}`);
        assertError(res, 429, 'agentes_rate_limited');
        const { t } = assertRateLimitHeaders(res, { policy: 'anonimo', limit: 60, remaining: 0 });
        assert.ok(Number(res.headers['retry-after']) >= t);
      }
    });
  });

  test('a spoofed X-Forwarded-For does not reset the quota', async () => {
    await withApi({ RATE_LIMIT_ANONYMOUS: '3' }, async (api) => {
      for (let i = 0; i < 3; i++) {
        const res = await request(`${api.base}/get_company_info`, { headers: { 'X-Forwarded-For': `198.51.100.${i}` } });
        assert.is(res.status, 200);
      }
      const res = await request(`${api.base}/get_company_info`, { headers: { 'X-Forwarded-For': '203.0.113.99', 'X-Real-IP': '203.0.113.98', Forwarded: 'for=203.0.113.97' } });
      assertError(res, 429, 'agentes_rate_limited');
    });
  });

  test('behind a trusted proxy (TRUST_PROXY) each client has its own window, and forged hops change nothing', async () => {
    await withApi({ RATE_LIMIT_ANONYMOUS: '2', TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' }, async (api) => {
      const as = (xff: string) => request(`${api.base}/get_company_info`, { headers: { 'X-Forwarded-For': xff } });
      assert.is((await as('198.51.100.1')).status, 200);
      assert.is((await as('198.51.100.1, 10.1.1.1')).status, 200);
      assertError(await as('6.6.6.6, 198.51.100.1'), 429, 'agentes_rate_limited');
      const other = await as('198.51.100.2');
      assert.is(other.status, 200, 'another client behind the same proxy');
      assertRateLimitHeaders(other, { policy: 'anonimo', limit: 2, remaining: 1 });
      assert.is((await request(`${api.base}/get_company_info`)).status, 200, 'the proxy itself (no header) is one more client');
    });
  });

  test('the window restarts after RATE_LIMIT_WINDOW seconds', async () => {
    await withApi({ RATE_LIMIT_ANONYMOUS: '2', RATE_LIMIT_WINDOW: '1' }, async (api, advance) => {
      await request(`${api.base}/get_company_info`);
      await request(`${api.base}/get_company_info`);
      const limited = await request(`${api.base}/get_company_info`);
      assertError(limited, 429, 'agentes_rate_limited');
      assertRateLimitHeaders(limited, { policy: 'anonimo', limit: 2, window: 1, remaining: 0 });
      assert.is(limited.headers['retry-after'], '1');
      await advance(1100);
      const again = await request(`${api.base}/get_company_info`);
      assert.is(again.status, 200);
      assertRateLimitHeaders(again, { policy: 'anonimo', limit: 2, window: 1, remaining: 1 });
    });
  });

  test('token holders are counted per client_id, apart from the anonymous window', async () => {
    await withApi({ RATE_LIMIT_IDENTIFIED: '2' }, async (api) => {
      const a1 = await api.tokens.issue('client-a', ['content:read']);
      const a2 = await api.tokens.issue('client-a', ['content:read']);
      const b = await api.tokens.issue('client-b', ['content:read']);
      const as = (token: string) => request(`${api.base}/get_company_info`, { headers: { Authorization: `Bearer ${token}` } });
      assert.is((await as(a1.access_token)).status, 200);
      assert.is((await as(a2.access_token)).status, 200);
      const limited = await as(a1.access_token);
      const body = assertError(limited, 429, 'agentes_rate_limited');
      assertRateLimitHeaders(limited, { policy: 'identificado', limit: 2, remaining: 0 });
      assert.not.match(body.message, 'register', 'already registered');
      assert.is((await as(b.access_token)).status, 200, 'another client');
      assertRateLimitHeaders(await request(`${api.base}/get_company_info`), { policy: 'anonimo', limit: 60, remaining: 59 });
    });
  });

  extra?.(test);
  return test;
}

rateLimitSuite('memory', memory).run();

rateLimitSuite('redis', redisBackend, (test) => {
  test('Redis down: content answers on per-process quotas, a token gets 503 (never anonymous), no hang; back when it returns', async () => {
    const { store } = await redisBackend.open();
    const api = await startTestServer({ fixture: await sharedReadModel(), store });
    try {
      const { access_token } = await api.tokens.issue('client-a', ['content:read']);
      assert.is((await request(`${api.base}/get_company_info`)).status, 200);
      await redis.stop();
      const started = Date.now();
      const res = await request(`${api.base}/read_page?url=fontaneria`);
      // Refused connections fail at once: well under the 10 s a hang would take (request's bound).
      assert.ok(Date.now() - started < 5000, `answered in ${Date.now() - started} ms`);
      assert.is(res.status, 200, 'content keeps answering');
      // The process's own window counted the call made before the outage too: no fresh quota.
      assertRateLimitHeaders(res, { policy: 'anonimo', limit: 60, remaining: 58 });
      const withToken = await request(`${api.base}/read_page?url=fontaneria`, { headers: { Authorization: `Bearer ${access_token}` } });
      assertError(withToken, 503, 'agentes_unavailable');
      assert.ok(Number(withToken.headers['retry-after']) > 0);
      await redis.start();
      await waitUntil('200 once Redis is back', async () => (await request(`${api.base}/get_company_info`)).status === 200);
    } finally {
      await api.close();
      await store.close();
    }
  });
  test.after(() => redis.close());
}).run();
