/**
 * The Prometheus metrics (server/observability/) on the whole server: a real server on an
 * ephemeral port with METRICS_PORT=0, scraped with real HTTP requests on its own listener, the
 * exposition parsed. Counters move as REST and MCP requests are made (the MCP ones by the official
 * SDK client), quota refusals are counted by policy, OAuth and read-model events are counted,
 * and label values stay bounded whatever paths, tools and queries clients send.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { basic, form, json, qs, request } from '../../helpers/http.ts';
import { parseExposition, scrape } from '../../helpers/prometheus.ts';
import { createReadModel } from '../../helpers/read-model.ts';
import { startTestServer, withTestServer, type TestServer } from '../../helpers/server.ts';
import { connectClient, rpc, toolCall } from '../mcp/harness.ts';

const METRICS = { METRICS_PORT: '0' };
const metricsOf = (api: TestServer) => api.running.metricsUrl!;
const requests = (labels: Record<string, string>) => ['agentes_requests_total', labels] as const;

test('without METRICS_PORT there is no metrics listener; with it, the listener is its own port on loopback and the public port does not serve metrics', async () => {
  await withTestServer({}, async (api) => {
    assert.is(api.running.metricsUrl, null);
  });
  await withTestServer({ env: METRICS }, async (api) => {
    const metricsUrl = new URL(metricsOf(api));
    assert.is(metricsUrl.hostname, '127.0.0.1', 'loopback unless METRICS_HOST says otherwise');
    assert.is.not(metricsUrl.port, new URL(api.origin).port);
    const onPublic = await request(`${api.origin}/metrics`);
    assert.is(onPublic.status, 404);
    assert.not.match(onPublic.text(), /agentes_requests_total/);
    const other = await request(`${metricsOf(api)}/`);
    assert.is(other.status, 404);
    const s = await scrape(metricsOf(api));
    assert.is(s.types.get('agentes_requests_total'), 'counter');
    assert.is(s.types.get('agentes_request_duration_seconds'), 'histogram');
    assert.is(s.types.get('process_cpu_user_seconds_total'), 'counter', 'the process metrics of prom-client');
    for (const [name, type] of s.types) {
      if (type === 'counter') assert.ok(name.endsWith('_total'), `${name}: a counter ends in _total`);
    }
  });
});

test('REST requests move the request counter and the latency histogram by operation and status; a scrape is not counted', async () => {
  await withTestServer({ env: METRICS }, async (api) => {
    const before = await scrape(metricsOf(api));
    for (let i = 0; i < 3; i++) assert.is((await request(`${api.base}/read_page${qs({ url: 'fontaneria' })}`)).status, 200);
    assert.is((await request(`${api.base}/read_page`)).status, 400);
    assert.is((await request(`${api.base}/get_company_info?section=contact`)).status, 200);
    const after = await scrape(metricsOf(api));
    const moved = (labels: Record<string, string>) => after.value(...requests(labels)) - before.value(...requests(labels));
    assert.is(moved({ transport: 'rest', operation: 'read_page', status: '200' }), 3);
    assert.is(moved({ transport: 'rest', operation: 'read_page', status: '400' }), 1);
    assert.is(moved({ transport: 'rest', operation: 'get_company_info', status: '200' }), 1);
    const count = after.value('agentes_request_duration_seconds_count', { transport: 'rest', operation: 'read_page' });
    assert.is(count, 4);
    assert.is(after.value('agentes_request_duration_seconds_bucket', { transport: 'rest', operation: 'read_page', le: '+Inf' }), 4);
    assert.ok(after.value('agentes_request_duration_seconds_sum', { transport: 'rest', operation: 'read_page' }) > 0);
    assert.equal(after.of('agentes_requests_total').filter((s) => s.labels.operation === 'metrics'), [], 'scrapes are not requests of the API');
  });
});

test('MCP requests (official SDK client) are counted under transport mcp, tool calls by tool', async () => {
  await withTestServer({ env: METRICS }, async (api) => {
    const before = await scrape(metricsOf(api));
    const { client } = await connectClient(api);
    try {
      await client.listTools();
      const result = await client.callTool({ name: 'read_page', arguments: { url: 'fontaneria' } });
      assert.not.ok(result.isError);
      await client.callTool({ name: 'get_company_info', arguments: { section: 'contact' } });
    } finally {
      await client.close();
    }
    const after = await scrape(metricsOf(api));
    const moved = (labels: Record<string, string>) => after.value(...requests(labels)) - before.value(...requests(labels));
    assert.is(moved({ transport: 'mcp', operation: 'read_page', status: '200' }), 1);
    assert.is(moved({ transport: 'mcp', operation: 'get_company_info', status: '200' }), 1);
    assert.is(moved({ transport: 'mcp', operation: 'tools/list', status: '200' }), 1);
    assert.is(moved({ transport: 'mcp', operation: 'initialize', status: '200' }), 1);
    assert.is(moved({ transport: 'rest', operation: 'read_page', status: '200' }), 0);
    assert.is(after.value('agentes_request_duration_seconds_count', { transport: 'mcp', operation: 'read_page' }), 1);
  });
});

test('quota refusals are counted by policy, on REST and MCP; the 429s under their operation', async () => {
  await withTestServer({ env: { ...METRICS, RATE_LIMIT_ANONYMOUS: '2' } }, async (api) => {
    const before = await scrape(metricsOf(api));
    assert.is(before.value('agentes_quota_refusals_total', { policy: 'anonimo' }), 0, 'shown at 0 from the start');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await request(`${api.base}/get_company_info`)).status);
    assert.equal(statuses, [200, 200, 429, 429]);
    const overMcp = await rpc(api, toolCall('get_company_info', {}));
    assert.is(overMcp.status, 429);
    const after = await scrape(metricsOf(api));
    assert.is(after.value('agentes_quota_refusals_total', { policy: 'anonimo' }), 3);
    assert.is(after.value('agentes_quota_refusals_total', { policy: 'identificado' }), 0);
    assert.is(after.value(...requests({ transport: 'rest', operation: 'get_company_info', status: '429' })), 2);
    assert.is(after.value(...requests({ transport: 'mcp', operation: 'get_company_info', status: '429' })), 1);
  });
});

test('OAuth: registrations, tokens issued, refused and revoked', async () => {
  await withTestServer({ env: METRICS }, async (api) => {
    const registered = await request(`${api.origin}/oauth/register`, { method: 'POST', ...json({ client_name: 'metrics', contacts: ['m@example.com'] }) });
    assert.is(registered.status, 201);
    const { client_id, client_secret } = registered.json<{ client_id: string; client_secret: string }>();
    const issued = await request(`${api.origin}/oauth/token`, { method: 'POST', ...form({ grant_type: 'client_credentials' }, { authorization: basic(client_id, client_secret) }) });
    assert.is(issued.status, 200);
    const token = issued.json<{ access_token: string }>().access_token;
    const wrongSecret = await request(`${api.origin}/oauth/token`, { method: 'POST', ...form({ grant_type: 'client_credentials' }, { authorization: basic(client_id, 'nope') }) });
    assert.is(wrongSecret.status, 401);
    assert.is((await request(`${api.base}/get_company_info`, { headers: { authorization: 'Bearer not-a-token' } })).status, 401);
    const revoked = await request(`${api.origin}/oauth/revoke`, { method: 'POST', ...form({ token }, { authorization: basic(client_id, client_secret) }) });
    assert.is(revoked.status, 200);
    assert.is((await request(`${api.base}/get_company_info`, { headers: { authorization: `Bearer ${token}` } })).status, 401);

    const s = await scrape(metricsOf(api));
    assert.is(s.value('agentes_oauth_registrations_total'), 1);
    assert.is(s.value('agentes_oauth_tokens_issued_total'), 1);
    assert.is(s.value('agentes_oauth_tokens_revoked_total'), 1);
    assert.is(s.value('agentes_oauth_tokens_refused_total'), 2, 'the made-up token and the revoked one');
    assert.is(s.value(...requests({ transport: 'web', operation: 'oauth_token', status: '401' })), 1);
  });
});

test('read model: build id, pages and age; swaps and failed loads counted', async () => {
  const fixture = await createReadModel();
  try {
    await withTestServer({ fixture, env: METRICS }, async (api) => {
      const first = await scrape(metricsOf(api));
      assert.equal(first.of('agentes_read_model_info').map((s) => [s.labels.build_id, s.value]), [[fixture.buildId, 1]]);
      assert.is(first.value('agentes_read_model_pages'), fixture.pages.length);
      const age = first.value('agentes_read_model_age_seconds');
      assert.ok(age >= 0 && age < 3600, `age ${age}`);
      assert.is(first.value('agentes_read_model_swaps_total'), 0);

      await createReadModel({ dir: fixture.dir, buildId: 'second' });
      assert.is(await api.running.reloadModel(), true);
      await createReadModel({ dir: fixture.dir, buildId: 'third', editPages: (pages) => pages.map((p, i) => (i === 0 ? { ...p, city: 'paris' as never } : p)) });
      assert.ok(await api.running.reloadModel().then(() => false, () => true), 'the broken build is refused');

      const after = await scrape(metricsOf(api));
      assert.equal(after.of('agentes_read_model_info').map((s) => [s.labels.build_id, s.value]), [['second', 1]], 'only the build served');
      assert.is(after.value('agentes_read_model_swaps_total'), 1);
      assert.is(after.value('agentes_read_model_load_failures_total'), 1);
    });
  } finally {
    await fixture.remove();
  }
});

test('search_pages calls that find nothing are counted, over REST and MCP', async () => {
  await withTestServer({ env: METRICS }, async (api) => {
    const found = await request(`${api.base}/search_pages${qs({ query: 'fontanería' })}`);
    assert.ok(found.json<{ total: number }>().total > 0);
    const none = await request(`${api.base}/search_pages${qs({ query: 'qwxzk vbnmq' })}`);
    assert.is(none.json<{ total: number }>().total, 0);
    const overMcp = await rpc(api, toolCall('search_pages', { query: 'qwxzk vbnmq' }));
    assert.is(overMcp.status, 200);
    const s = await scrape(metricsOf(api));
    assert.is(s.value('agentes_search_no_results_total'), 2);
  });
});

test('label values stay bounded: unknown paths, operations, tools and methods add no label values', async () => {
  await withTestServer({ env: METRICS }, async (api) => {
    const warm = [`${api.base}/nope`, `${api.origin}/nope`, `${api.origin}/.well-known/nope`];
    for (const url of warm) await request(url);
    await rpc(api, toolCall('nope', {}));
    await rpc(api, { jsonrpc: '2.0', id: 1, method: 'nope/nope', params: {} });
    const labelSets = (s: ReturnType<typeof parseExposition>) =>
      new Set(s.of('agentes_requests_total').map((x) => `${x.labels.transport} ${x.labels.operation} ${x.labels.status}`));
    const before = labelSets(await scrape(metricsOf(api)));
    for (let i = 0; i < 20; i++) {
      const r = Math.random().toString(36).slice(2);
      await request(`${api.base}/op-${r}`);
      await request(`${api.base}/op-${r}/?query=${r}`);
      await request(`${api.origin}/page-${r}/`);
      await request(`${api.origin}/.well-known/${r}`);
      await rpc(api, toolCall(`tool-${r}`, { query: r }));
      await rpc(api, { jsonrpc: '2.0', id: i + 2, method: `method/${r}`, params: {} });
    }
    const s = await scrape(metricsOf(api));
    const after = labelSets(s);
    assert.equal([...after].filter((x) => !before.has(x)), [], 'no new label set');
    for (const sample of s.samples) {
      for (const value of Object.values(sample.labels)) assert.not.match(value, /op-|page-|tool-|method\//, `${sample.name}: ${value}`);
    }
  });
});

test.run();
