/**
 * The MCP endpoint at the HTTP level, with raw requests: the Streamable HTTP rules (conformance.md
 * §9), the JSON-RPC errors, the shared quota (headers on every tools/call, 429 with a tool error a
 * model can read), bad tokens, and a quota store outage with a real Redis.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createLogger } from '../../../server/log.ts';
import { MCP_BODY_LIMIT } from '../../../server/mcp/endpoint.ts';
import { createStore } from '../../../server/stores/index.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { request, type RawResponse } from '../../helpers/http.ts';
import { sharedReadModel } from '../../helpers/read-model.ts';
import { startRedis } from '../../helpers/redis.ts';
import { assertRateLimitHeaders } from '../../helpers/assertions.ts';
import { connectClient, GENERATIONS, MCP_ACCEPT, rpc, toolCall } from './harness.ts';
import { waitUntil } from '../../helpers/wait.ts';

const fixture = await sharedReadModel();
const MCP_METADATA = `${fixture.siteUrl}/.well-known/oauth-protected-resource/mcp`;
const INITIALIZE = {
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

async function withApi(env: Record<string, string>, fn: (api: TestServer) => Promise<void>) {
  const api = await startTestServer({ fixture, env });
  try {
    await fn(api);
  } finally {
    await api.close();
  }
}

function assertRpcError(res: RawResponse, status: number, code: number, message?: RegExp) {
  assert.is(res.status, status, res.text().slice(0, 300));
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const body = res.json();
  assert.is(body.jsonrpc, '2.0');
  assert.is(body.error.code, code, res.text());
  if (message) assert.match(body.error.message, message);
  return body;
}

/** The last revision with JSON-RPC batches. */
const BATCH_REVISION = { 'mcp-protocol-version': '2025-03-26' };

const test = suite('mcp over HTTP');

test('initialize: 200 JSON, revision 2025-11-25, no session id, not counted; API-Version, CORS, no-store', () => withApi({}, async (api) => {
  const res = await rpc(api, INITIALIZE);
  assert.is(res.status, 200);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const { result } = res.json();
  assert.is(result.protocolVersion, '2025-11-25');
  assert.ok(result.capabilities.tools);
  assert.is(result.serverInfo.name, 'test.agentes/agentes');
  assert.type(result.instructions, 'string');
  assert.is(res.headers['mcp-session-id'], undefined, 'stateless');
  assert.is(res.headers['api-version'], '1');
  assert.is(res.headers['access-control-allow-origin'], '*');
  assert.is(res.headers['cache-control'], 'no-store');
  assert.is(res.headers['ratelimit-limit'], undefined, 'initialize is not counted');
  const older = await rpc(api, { ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion: '2025-06-18' } });
  assert.is(older.json().result.protocolVersion, '2025-06-18', 'an older revision the SDK speaks is negotiated');

  const list = await rpc(api, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
  assert.is(list.json().result.tools.length, 4);
  assert.is(list.headers['ratelimit-limit'], undefined, 'tools/list is not counted');
  const call = await rpc(api, toolCall('get_company_info'));
  assertRateLimitHeaders(call, { policy: 'anonimo', limit: 60, remaining: 59 });
}));

test('Accept must name both JSON and SSE (406); Content-Type must be JSON (415); bad JSON → -32700, JSON that is not JSON-RPC → -32600', () => withApi({}, async (api) => {
  const body = JSON.stringify(toolCall('get_company_info'));
  const url = `${api.origin}/mcp`;
  for (const accept of [undefined, 'application/json', 'text/event-stream', '*/*']) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (accept) headers.accept = accept;
    assertRpcError(await request(url, { method: 'POST', headers, body }), 406, -32000, /Not Acceptable/);
  }
  for (const type of [undefined, 'text/plain', 'application/x-www-form-urlencoded']) {
    const headers: Record<string, string> = { accept: MCP_ACCEPT };
    if (type) headers['content-type'] = type;
    assertRpcError(await request(url, { method: 'POST', headers, body }), 415, -32000, /Unsupported Media Type/);
  }
  const ok = await request(url, { method: 'POST', headers: { accept: MCP_ACCEPT, 'content-type': 'application/json; charset=utf-8' }, body });
  assert.is(ok.status, 200, 'a charset parameter is fine');
  for (const bad of ['{"jsonrpc":"2.0",', '', '[]x']) {
    assertRpcError(await request(url, { method: 'POST', headers: { accept: MCP_ACCEPT, 'content-type': 'application/json' }, body: bad }), 400, -32700);
  }
  // JSON, but not a JSON-RPC message: Invalid Request.
  assertRpcError(await request(url, { method: 'POST', headers: { accept: MCP_ACCEPT, 'content-type': 'application/json' }, body: 'null' }), 400, -32600);
  const notRpc = await request(url, { method: 'POST', headers: { accept: MCP_ACCEPT, 'content-type': 'application/json' }, body: '{"hola":1}' });
  assert.is(notRpc.status, 400);
  assert.is(notRpc.json().id, null);
  const big = await request(url, { method: 'POST', headers: { accept: MCP_ACCEPT, 'content-type': 'application/json' }, body: ' '.repeat(MCP_BODY_LIMIT + 1) });
  assert.is(assertRpcError(big, 413, -32000).error.data.status, 413);
}));

test('unknown tool → -32602, unknown method → -32601, both with the request id', () => withApi({}, async (api) => {
  const unknown = await rpc(api, { ...toolCall('book_service'), id: 'x-7' });
  const body = assertRpcError(unknown, 200, -32602, /^Herramienta desconocida: book_service\./);
  assert.is(body.id, 'x-7');
  assert.is(unknown.headers['ratelimit-limit'], undefined, 'an unknown tool is not counted, as an unknown REST operation is not');
  assertRpcError(await rpc(api, { jsonrpc: '2.0', id: 3, method: 'prompts/list' }), 200, -32601);
  // A malformed tools/call is the client's mistake (-32602), not an internal error (-32603).
  for (const params of [{ name: 'search_pages', arguments: ['fuga'] }, { name: 5 }, {}]) {
    assertRpcError(await rpc(api, { jsonrpc: '2.0', id: 4, method: 'tools/call', params }), 200, -32602, /Invalid tools\/call request/);
  }
}));

test('POST only: GET, DELETE, PUT, HEAD → 405 Allow: POST with a JSON body; OPTIONS → CORS preflight for an allowed origin, 403 for another', () => withApi({ ALLOWED_HOSTS: '127.0.0.1,host.example' }, async (api) => {
  for (const method of ['GET', 'DELETE', 'PUT']) {
    const res = await request(`${api.origin}/mcp`, { method, headers: { accept: MCP_ACCEPT } });
    assert.is(res.status, 405, method);
    assert.is(res.headers.allow, 'POST', method);
    assert.is(res.json().error.data.status, 405);
    assert.is(res.headers['api-version'], '1');
  }
  const head = await request(`${api.origin}/mcp`, { method: 'HEAD' });
  assert.is(head.status, 405);
  assert.is(head.headers.allow, 'POST');
  const pre = await request(`${api.origin}/mcp`, {
    method: 'OPTIONS',
    headers: { origin: 'https://host.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, mcp-protocol-version' },
  });
  assert.is(pre.status, 204);
  assert.is(pre.headers['access-control-allow-origin'], '*');
  assert.is(pre.headers['access-control-allow-methods'], 'POST');
  for (const h of ['Authorization', 'Content-Type', 'Mcp-Protocol-Version']) assert.match(String(pre.headers['access-control-allow-headers']), h);
  assert.match(String(pre.headers['access-control-expose-headers']), /RateLimit-Remaining.*Retry-After.*WWW-Authenticate/);
  const foreign = await request(`${api.origin}/mcp`, {
    method: 'OPTIONS',
    headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
  });
  assert.is(foreign.status, 403);
  assert.is(foreign.json().error.data.code, 'agentes_forbidden_origin');
}));

test('notifications (and client responses) → 202 with no body and no quota', () => withApi({}, async (api) => {
  const res = await rpc(api, { jsonrpc: '2.0', method: 'notifications/initialized' });
  assert.is(res.status, 202);
  assert.is(res.text(), '');
  assert.is(res.headers['ratelimit-limit'], undefined);
  const cancelled = await rpc(api, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
  assert.is(cancelled.status, 202);
}));

test('every tools/call is counted in the caller\'s REST window: IP without a token, client_id with one', () => withApi({}, async (api) => {
  await request(`${api.base}/get_company_info`);
  await request(`${api.base}/read_page?url=fontaneria`);
  assertRateLimitHeaders(await rpc(api, toolCall('read_page', { url: 'fontaneria' })), { policy: 'anonimo', limit: 60, remaining: 57 });
  assertRateLimitHeaders(await rpc(api, toolCall('read_page', { url: 'no-existe' })), { policy: 'anonimo', limit: 60, remaining: 56 });
  assertRateLimitHeaders(await rpc(api, toolCall('search_pages', { query: 'a' })), { policy: 'anonimo', limit: 60, remaining: 55 });
  const rest = await request(`${api.base}/get_company_info`);
  assertRateLimitHeaders(rest, { policy: 'anonimo', limit: 60, remaining: 54 });

  const t = await api.tokens.issue('client-mcp', ['content:read', 'quota:read']);
  const auth = { authorization: `Bearer ${t.access_token}` };
  assertRateLimitHeaders(await rpc(api, toolCall('search_pages', { query: 'fuga' }), auth), { policy: 'identificado', limit: 600, remaining: 599 });
  const quota = await rpc(api, toolCall('get_quota'), auth);
  assertRateLimitHeaders(quota, { policy: 'identificado', limit: 600, remaining: 598 });
  assert.is(quota.json().result.structuredContent.used, 2);
  // A token without content:read reads content on its IP's window, as in REST.
  const quotaOnly = await api.tokens.issue('client-quota', ['quota:read']);
  assertRateLimitHeaders(await rpc(api, toolCall('get_company_info'), { authorization: `Bearer ${quotaOnly.access_token}` }), { policy: 'anonimo', limit: 60, remaining: 53 });

  // Two calls in one batch (revision 2025-03-26 clients) count twice.
  // Batches belong to 2025-03-26 (later revisions removed them: revisions.test.ts).
  const batch = await rpc(api, [toolCall('get_company_info'), toolCall('search_pages', { query: 'cerrajero' })], BATCH_REVISION);
  assert.is(batch.json().length, 2);
  assertRateLimitHeaders(batch, { policy: 'anonimo', limit: 60, remaining: 51 });
}));

test('quota exhausted by tool calls: 429 + Retry-After, and a tool error the model can read; the SDK client sees it', () => withApi({ RATE_LIMIT_ANONYMOUS: '3' }, async (api) => {
  for (let i = 0; i < 2; i++) assert.is((await rpc(api, toolCall('get_company_info'))).status, 200);
  const last = await rpc(api, toolCall('search_pages', { query: 'fuga' }));
  assert.is(last.status, 200);
  const notice = last.json().result.content[1].text;
  assert.match(notice, /^Aviso de cuota: quedan 0 de 3 llamadas en esta ventana; se reinicia en \d+ s\. Con un token gratuito/);

  const message = toolCall('read_page', { url: 'fontaneria' });
  const limited = await rpc(api, message);
  assert.is(limited.status, 429);
  const { t } = assertRateLimitHeaders(limited, { policy: 'anonimo', limit: 3, remaining: 0 });
  const retryAfter = Number(limited.headers['retry-after']);
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= t, `Retry-After ${retryAfter} ≥ t ${t}`);
  const body = limited.json();
  assert.is(body.id, message.id);
  assert.is(body.result.isError, true, 'a JSON-RPC result, not a transport error: hosts show it to the model');
  const text: string = body.result.content[0].text;
  assert.match(text, `Espere ${retryAfter} segundos`);
  assert.match(text, `POST ${api.config.siteUrl}/oauth/register`);
  assert.match(text, 'eleva la cuota a 600 peticiones por minuto');

  // Nothing that reads the site is counted, so a host can still connect and list the tools.
  assert.is((await rpc(api, INITIALIZE)).status, 200);
  assert.is((await rpc(api, { jsonrpc: '2.0', id: 9, method: 'tools/list' })).status, 200);

  // Both SDK generations turn a non-2xx into an error whose message carries the body.
  for (const gen of GENERATIONS) {
    const { client } = await connectClient(api, { sdk: gen.sdk });
    try {
      await client.callTool({ name: 'get_company_info' });
      assert.unreachable('429');
    } catch (err) {
      // 1.x: StreamableHTTPError with the status as its code; 2.x: SdkHttpError with it in data.
      const status = gen.sdk === 1 ? (assert.instance(err, StreamableHTTPError), (err as StreamableHTTPError).code) : (err as { data: { status: number } }).data.status;
      assert.is(status, 429, gen.name);
      assert.match(String((err as Error).message), /Cuota agotada: 3 peticiones por minuto por IP sin token\. Espere \d+ segundos?\./);
    } finally {
      await client.close();
    }
  }

  const token = await api.tokens.issue('client-propio', ['content:read']);
  assert.is((await rpc(api, toolCall('get_company_info'), { authorization: `Bearer ${token.access_token}` })).status, 200, 'a token holder has its own window');
}));

test('a batch past the quota: every call answered, the ones over it as tool errors, the HTTP status 429', () => withApi({ RATE_LIMIT_IDENTIFIED: '1' }, async (api) => {
  const token = await api.tokens.issue('client-lote', ['content:read']);
  const res = await rpc(api, [toolCall('get_company_info'), toolCall('get_company_info')], { ...BATCH_REVISION, authorization: `Bearer ${token.access_token}` });
  assert.is(res.status, 429);
  const [first, second] = res.json();
  assert.ok(first.result.structuredContent.brand);
  assert.is(second.result.isError, true);
  assert.match(second.result.content[0].text, /^Cuota agotada: 1 peticiones por minuto para este client_id\./);
}));

test('a bad token → 401 naming the MCP resource metadata, counted on the IP; no token is anonymous', () => withApi({ RATE_LIMIT_ANONYMOUS: '3' }, async (api) => {
  for (const authorization of ['Bearer caducado', 'Basic dTpw', 'Bearer ']) {
    const res = await rpc(api, INITIALIZE, { authorization });
    assert.is(res.status, 401, authorization);
    assert.match(String(res.headers['www-authenticate']), new RegExp(`^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="${MCP_METADATA}"$`));
    const body = assertRpcError(res, 401, -32000);
    assert.is(body.error.data.code, 'agentes_invalid_token');
    assert.is(body.error.data.status, 401);
  }
  // Guessing tokens is throttled like anything else: the three 401s used the IP's window.
  const fourth = await rpc(api, toolCall('get_company_info'), { authorization: 'Bearer otro' });
  assert.is(fourth.status, 429);
  assert.ok(Number(fourth.headers['retry-after']) > 0);
  assert.is(fourth.json().error.data.code, 'agentes_rate_limited');
}));

test('the quota store down (real Redis stopped): tool calls go on, counted per process; a token → 503 (never anonymous); back when it returns', async () => {
  const redis = await startRedis();
  const store = await createStore({ redisUrl: redis.url, keyPrefix: 'mcp-outage' }, { log: createLogger('silent') });
  const api = await startTestServer({ fixture, store });
  try {
    const { access_token } = await api.tokens.issue('client-a', ['content:read']);
    assertRateLimitHeaders(await rpc(api, toolCall('get_company_info')), { policy: 'anonimo', limit: 60, remaining: 59 });
    await redis.stop();
    const started = Date.now();
    const res = await rpc(api, toolCall('get_company_info'));
    // Refused connections fail at once: well under the 10 s a hang would take (request's bound).
    assert.ok(Date.now() - started < 5000, `answered in ${Date.now() - started} ms`);
    assert.is(res.status, 200, 'content keeps answering');
    assertRateLimitHeaders(res, { policy: 'anonimo', limit: 60 });
    const withToken = await rpc(api, toolCall('get_company_info'), { authorization: `Bearer ${access_token}` });
    const body = assertRpcError(withToken, 503, -32000);
    assert.is(body.error.data.code, 'agentes_unavailable');
    assert.ok(Number(withToken.headers['retry-after']) > 0);
    assert.is((await rpc(api, INITIALIZE)).status, 200, 'initialize needs no store');
    await redis.start();
    // The restarted Redis kept nothing (no persistence in tests): a token issued now must work.
    await waitUntil('tokens served again once Redis is back', async () => {
      const fresh = await api.tokens.issue('client-b', ['content:read']).catch(() => null);
      return fresh !== null && (await rpc(api, toolCall('get_company_info'), { authorization: `Bearer ${fresh.access_token}` })).status === 200;
    });
  } finally {
    await api.close();
    await store.close();
    await redis.close();
  }
});

test.run();
