/**
 * MCP 2026-07-28 at the HTTP level, with raw requests as a stateless client sends them: no
 * `initialize`, server/discover, the version in each request's `_meta`, `resultType` on results,
 * `ttlMs`/`cacheScope` equal to the HTTP caching of the same data, the `Mcp-Method`/`Mcp-Name`
 * headers checked against the body, and the quota counted as for every other revision.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { withTestServer, type TestServer } from '../../helpers/server.ts';
import { sharedReadModel } from '../../helpers/read-model.ts';
import { assertRateLimitHeaders } from '../../helpers/assertions.ts';
import type { RawResponse } from '../../helpers/http.ts';
import { rpc } from './harness.ts';

const fixture = await sharedReadModel();
const REVISION = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': REVISION,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

let ids = 0;
/** A request as a 2026-07-28 client sends it: the envelope in `_meta`, the version and method (and name) in headers. */
function send(api: TestServer, method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<RawResponse> {
  const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
  return rpc(api, { jsonrpc: '2.0', id: ++ids, method, params: { ...params, _meta: ENVELOPE } }, {
    'mcp-protocol-version': REVISION, 'mcp-method': method, ...(name === undefined ? {} : { 'mcp-name': name }), ...headers,
  });
}
const result = (res: RawResponse) => {
  assert.is(res.status, 200, res.text().slice(0, 300));
  const body = res.json();
  assert.ok(body.result, res.text().slice(0, 300));
  return body.result;
};

const withApi = (env: Record<string, string>, fn: (api: TestServer) => Promise<void>) => withTestServer({ fixture, env }, fn);

test('server/discover without initialize: the revision, the capabilities, the instructions; cached as the config documents are (1 h, public)', () => withApi({}, async (api) => {
  const found = result(await send(api, 'server/discover'));
  assert.equal(found.supportedVersions, [REVISION]);
  assert.equal(found.capabilities.tools, { listChanged: false });
  assert.ok(found.capabilities.resources);
  assert.match(found.instructions, 'search_pages');
  assert.is(found.resultType, 'complete');
  assert.is(found.ttlMs, 3_600_000);
  assert.is(found.cacheScope, 'public');
  assert.is(found._meta['io.modelcontextprotocol/serverInfo'].name, 'test.agentes/agentes');
}));

test('lists are cacheable as their HTTP twins: tools and templates 1 h, the page list 5 min, all public; nothing counted', () => withApi({}, async (api) => {
  const tools = result(await send(api, 'tools/list'));
  assert.equal(tools.tools.map((t: { name: string }) => t.name), ['search_pages', 'read_page', 'get_company_info', 'get_quota']);
  assert.equal([tools.resultType, tools.ttlMs, tools.cacheScope], ['complete', 3_600_000, 'public']);
  const templates = result(await send(api, 'resources/templates/list'));
  assert.equal([templates.ttlMs, templates.cacheScope], [3_600_000, 'public']);
  const pages = await send(api, 'resources/list');
  assert.equal([result(pages).ttlMs, result(pages).cacheScope], [300_000, 'public']);
  assert.is(pages.headers['ratelimit-limit'], undefined, 'lists read no page');
}));

test('tools/call: resultType, the REST body, counted with the RateLimit headers of every revision', () => withApi({}, async (api) => {
  const res = await send(api, 'tools/call', { name: 'get_company_info', arguments: { section: 'contact' } });
  const called = result(res);
  assert.is(called.resultType, 'complete');
  assert.is(called.isError, undefined);
  assert.equal(JSON.parse(called.content[0].text), called.structuredContent);
  assert.is(called.ttlMs, undefined, 'a tool result is not cacheable in 2026-07-28');
  assertRateLimitHeaders(res, { policy: 'anonimo', limit: 60, remaining: 59 });
  assert.equal(called._meta['agentes/ratelimit'], { policy: 'anonimo', limit: 60, remaining: 59, reset_seconds: Number(res.headers['ratelimit-reset']) });
}));

test('resources/read: 60 s, public without a token and private with one (Cache-Control of read_page); counted', () => withApi({}, async (api) => {
  const uri = `${api.config.siteUrl}/servicios/fontaneria/`;
  const anonymous = await send(api, 'resources/read', { uri });
  assert.equal([result(anonymous).ttlMs, result(anonymous).cacheScope], [60_000, 'public']);
  assert.is(result(anonymous).contents[0].mimeType, 'text/markdown');
  assertRateLimitHeaders(anonymous, { policy: 'anonimo', limit: 60, remaining: 59 });
  const token = await api.tokens.issue('client-2026', ['content:read']);
  const identified = await send(api, 'resources/read', { uri }, { authorization: `Bearer ${token.access_token}` });
  assert.equal([result(identified).ttlMs, result(identified).cacheScope], [60_000, 'private']);
  assertRateLimitHeaders(identified, { policy: 'identificado', limit: 600, remaining: 599 });
}));

test('used-up window: 429 with Retry-After and a tool error, as under 2025-11-25', () => withApi({ RATE_LIMIT_ANONYMOUS: '1' }, async (api) => {
  assert.is((await send(api, 'tools/call', { name: 'get_company_info', arguments: {} })).status, 200);
  const limited = await send(api, 'tools/call', { name: 'get_company_info', arguments: {} });
  assert.is(limited.status, 429);
  assert.ok(Number(limited.headers['retry-after']) > 0);
  const body = limited.json();
  assert.is(body.result.isError, true);
  assert.match(body.result.content[0].text, /Espere \d+ segundos/);
}));

test('Mcp-Method and Mcp-Name must match the body; the envelope is required; an unknown revision names the supported one', () => withApi({}, async (api) => {
  const call = { name: 'get_company_info', arguments: {} };
  const mismatch = await send(api, 'tools/call', call, { 'mcp-method': 'tools/list' });
  assert.is(mismatch.status, 400, mismatch.text());
  assert.match(mismatch.json().error.message, /Mcp-Method/i);
  const wrongName = await send(api, 'tools/call', call, { 'mcp-name': 'search_pages' });
  assert.is(wrongName.status, 400, wrongName.text());
  assert.match(wrongName.json().error.message, /Mcp-Name/i);
  assert.is(mismatch.headers['ratelimit-limit'], undefined, 'refused before any call');

  const noEnvelope = await rpc(api, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, { 'mcp-protocol-version': REVISION, 'mcp-method': 'tools/list' });
  assert.is(noEnvelope.status, 400, noEnvelope.text());
  assert.is(noEnvelope.json().error.code, -32602);

  const future = await rpc(api, {
    jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
  }, { 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'tools/list' });
  assert.is(future.status, 400, future.text());
  assert.is(future.json().error.code, -32022);
  assert.equal(future.json().error.data, { supported: [REVISION], requested: '2099-01-01' });
}));

test('a 2025 request beside it still needs initialize\'s revision and gets no 2026 fields', () => withApi({}, async (api) => {
  const old = await rpc(api, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const listed = result(old);
  assert.is(listed.resultType, undefined);
  assert.is(listed.ttlMs, undefined);
  assert.is(listed.tools.length, 4);
}));

test.run();
