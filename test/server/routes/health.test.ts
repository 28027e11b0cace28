/**
 * GET /healthz and GET /readyz on the whole server: JSON, `Cache-Control: no-store`, outside every
 * quota, answered whatever the Host, and readiness telling the store's state as it is: the memory
 * store, Redis connected, Redis stopped (the per-process fallback active, content still served)
 * and back, and Redis paused (the circuit breaker open) and answering again. A real redis-server
 * started by the test.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import net from 'node:net';
import { once } from 'node:events';
import { createClient } from 'redis';
import { request } from '../../helpers/http.ts';
import { scrape } from '../../helpers/prometheus.ts';
import { startRedis } from '../../helpers/redis.ts';
import { sharedReadModel } from '../../helpers/read-model.ts';
import { startTestServer, withTestServer, type TestServer } from '../../helpers/server.ts';
import type { Readiness } from '../../../server/observability/readiness.ts';

/** Long enough for the store's command deadline (950 ms) to pass. */
const PAUSE_MS = 2500;

const ready = async (api: TestServer) => {
  const res = await request(`${api.origin}/readyz`);
  assert.is(res.headers['cache-control'], 'no-store');
  assert.match(String(res.headers['content-type']), 'application/json');
  return { status: res.status, body: res.json<Readiness>() };
};

/**
 * Polls readiness (after `between`, e.g. a request that makes the store send a command) until
 * `done` holds: the store reconnects on its own within about half a second; bounded at ten seconds.
 */
async function readyWhen(api: TestServer, done: (r: Readiness) => boolean, between?: () => Promise<unknown>): Promise<Readiness> {
  let last: Readiness | undefined;
  for (let i = 0; i < 200; i++) {
    await between?.();
    last = (await ready(api)).body;
    if (done(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`readiness never became as expected: ${JSON.stringify(last)}`);
}

test('healthz and readyz: JSON, no-store, HEAD, 405 for other methods; not counted on any quota; any Host', async () => {
  const fixture = await sharedReadModel();
  await withTestServer({ env: { RATE_LIMIT_ANONYMOUS: '1' } }, async (api) => {
    const alive = await request(`${api.origin}/healthz`);
    assert.is(alive.status, 200);
    assert.equal(alive.json(), { status: 'ok' });
    assert.is(alive.headers['cache-control'], 'no-store');

    const r = await ready(api);
    assert.is(r.status, 200);
    assert.is(r.body.status, 'ready');
    assert.equal(r.body.quota_store, { kind: 'memory' });
    const model = api.model.current().manifest;
    assert.equal(r.body.read_model, { loaded: true, build_id: fixture.buildId, created_at: model.created_at, pages: fixture.pages.length });

    for (let i = 0; i < 5; i++) {
      for (const path of ['/healthz', '/readyz']) {
        const res = await request(`${api.origin}${path}`, { headers: { host: '10.1.2.3:8080' } });
        assert.is(res.status, 200, `${path} under a foreign Host, again and again (the anonymous quota is 1)`);
        assert.is(res.headers['ratelimit-limit'], undefined);
      }
    }
    assert.is((await request(`${api.base}/get_company_info`)).status, 200, 'the probes spent none of the quota');

    const head = await request(`${api.origin}/readyz`, { method: 'HEAD' });
    assert.is(head.status, 200);
    assert.is(head.body.length, 0);
    const post = await request(`${api.origin}/healthz`, { method: 'POST' });
    assert.is(post.status, 405);
    assert.is(post.headers.allow, 'GET, HEAD');
    assert.is(post.headers['cache-control'], 'no-store');
  });
});

test('readyz with Redis: connected and shared; Redis stopped → degraded, fallback active (metrics agree); back → ready', async () => {
  const redis = await startRedis();
  try {
    await withTestServer({ env: { REDIS_URL: redis.url, METRICS_PORT: '0' } }, async (api) => {
      const up = await ready(api);
      assert.is(up.status, 200);
      assert.equal(up.body.quota_store, { kind: 'redis', counting: 'shared', connections: [{ holds: 'all', connected: true, breaker_open: false }] });
      assert.is(up.body.status, 'ready');
      assert.is((await request(`${api.base}/get_company_info`)).status, 200);
      const before = await scrape(api.running.metricsUrl!);
      assert.ok(before.value('agentes_redis_round_trip_seconds_count', { redis: 'all' }) >= 1, 'round trips timed');
      assert.is(before.value('agentes_redis_connected', { redis: 'all' }), 1);
      assert.is(before.value('agentes_quota_fallback_active'), 0);

      await redis.stop();
      // Content keeps answering, counted in this process.
      assert.is((await request(`${api.base}/get_company_info`)).status, 200);
      const down = await readyWhen(api, (r) => r.quota_store.kind === 'redis' && !r.quota_store.connections[0]!.connected);
      assert.equal(down.quota_store, { kind: 'redis', counting: 'local', connections: [{ holds: 'all', connected: false, breaker_open: false }] });
      assert.is(down.status, 'degraded');
      assert.is((await ready(api)).status, 200, 'degraded is still in the pool: every process shares this Redis');
      const during = await scrape(api.running.metricsUrl!);
      assert.is(during.value('agentes_quota_fallback_active'), 1);
      assert.ok(during.value('agentes_quota_fallback_hits_total') >= 1, 'the request during the outage counted in the process');
      assert.is(before.value('agentes_quota_fallback_hits_total'), 0);
      assert.is(during.value('agentes_redis_connected', { redis: 'all' }), 0);

      await redis.start();
      await readyWhen(api, (r) => r.quota_store.kind === 'redis' && r.quota_store.connections[0]!.connected);
      assert.is((await request(`${api.base}/get_company_info`)).status, 200);
      const back = await ready(api);
      assert.equal(back.body.quota_store, { kind: 'redis', counting: 'shared', connections: [{ holds: 'all', connected: true, breaker_open: false }] });
      assert.is(back.body.status, 'ready');
    });
  } finally {
    await redis.close();
  }
});

test('readyz with a Redis that stops answering: the circuit breaker open is told (metrics agree), closed again once Redis answers', async () => {
  const redis = await startRedis();
  const admin = createClient({ url: redis.url });
  admin.on('error', () => {});
  await admin.connect();
  try {
    await withTestServer({ env: { REDIS_URL: redis.url, METRICS_PORT: '0' } }, async (api) => {
      assert.is((await request(`${api.base}/get_company_info`)).status, 200);
      // Every client's commands wait: the store's command misses its deadline and the breaker opens.
      await admin.sendCommand(['CLIENT', 'PAUSE', String(PAUSE_MS), 'ALL']);
      assert.is((await request(`${api.base}/get_company_info`)).status, 200, 'counted in the process meanwhile');
      const hung = await ready(api);
      assert.is(hung.status, 200);
      assert.is(hung.body.status, 'degraded');
      assert.equal(hung.body.quota_store, { kind: 'redis', counting: 'local', connections: [{ holds: 'all', connected: true, breaker_open: true }] });
      assert.is((await scrape(api.running.metricsUrl!)).value('agentes_redis_circuit_breaker_open', { redis: 'all' }), 1);

      // Once the pause is over, the next command probes, answers, and closes the breaker.
      const back = await readyWhen(api, (r) => r.status === 'ready', () => request(`${api.base}/get_company_info`));
      assert.equal(back.quota_store, { kind: 'redis', counting: 'shared', connections: [{ holds: 'all', connected: true, breaker_open: false }] });
      assert.is((await scrape(api.running.metricsUrl!)).value('agentes_redis_circuit_breaker_open', { redis: 'all' }), 0);
    });
  } finally {
    await admin.close().catch(() => {});
    await redis.close();
  }
});

test('readyz while draining (SIGTERM): 503 draining on a connection still open, so a load balancer stops sending', async () => {
  const api = await startTestServer({});
  let closing: Promise<void> | null = null;
  const probe = net.connect(Number(new URL(api.origin).port), '127.0.0.1');
  try {
    await once(probe, 'connect');
    const answer = readAnswer(probe);
    // A request half received: its connection is busy, so draining leaves it open.
    probe.write('GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    // One whole exchange on another connection: the server has read the half request by then (loopback, one loop).
    assert.is((await request(`${api.origin}/healthz`)).status, 200);
    // The default grace: the test helper's close(0) would cut the half request at once.
    closing = api.running.close();
    probe.write('\r\n');
    const raw = await answer;
    assert.match(raw, /^HTTP\/1\.1 503 /);
    assert.match(raw, /\r\nConnection: close\r\n/i);
    assert.match(raw, /\r\nCache-Control: no-store\r\n/i);
    assert.is(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)).status, 'draining');
  } finally {
    probe.destroy();
    await (closing ?? api.close());
  }
});

/** Everything the server sends on `socket` until it closes it. */
function readAnswer(socket: net.Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => { text += chunk; });
    socket.once('end', () => resolve(text));
    socket.once('error', reject);
  });
}

test.run();
