/**
 * The MCP server card (conformance.md §9) at the contract's address and at `<mcp url>/server-card`:
 * its fields from the live configuration, consistent with what `initialize` says, and the HTTP
 * behaviour of every discovery document (CORS, caching, ETag/304, HEAD, 405).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseConfig } from '../../../server/config.ts';
import { buildServerCard, reverseDnsNamespace, SERVER_VERSION } from '../../../server/mcp/identity.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { request } from '../../helpers/http.ts';
import { sharedReadModel } from '../../helpers/read-model.ts';
import { rpc } from './harness.ts';

const PATHS = {
  '/.well-known/mcp/server-card.json': /^application\/json; charset=utf-8$/,
  '/mcp/server-card': /^application\/mcp-server-card\+json$/,
} as const;

let api: TestServer;
test.before(async () => { api = await startTestServer({ fixture: await sharedReadModel() }); });
test.after(async () => { await api.close(); });

test('the card: schema, reverse-DNS name, version, short description, title, website, the streamable-http remote', async () => {
  const site = api.config.siteUrl;
  const card = (await request(`${api.origin}/.well-known/mcp/server-card.json`)).json();
  assert.equal(Object.keys(card), ['$schema', 'name', 'version', 'description', 'title', 'websiteUrl', 'remotes']);
  assert.is(card.$schema, 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json');
  assert.is(card.name, 'test.agentes/agentes');
  assert.match(card.name, /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/, 'the schema\'s name pattern');
  assert.is(card.version, SERVER_VERSION);
  assert.ok(card.description.length >= 1 && card.description.length <= 100, card.description);
  assert.ok(card.title.length >= 1 && card.title.length <= 100);
  assert.is(card.websiteUrl, `${site}/desarrolladores/`);
  assert.equal(card.remotes, [{ type: 'streamable-http', url: `${site}/mcp`, supportedProtocolVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'] }]);
});

test('every revision the card lists is served: 2025 ones through initialize, 2026-07-28 through server/discover', async () => {
  const card = (await request(`${api.origin}/.well-known/mcp/server-card.json`)).json();
  const [stateless, ...initialized] = card.remotes[0].supportedProtocolVersions as string[];
  for (const v of initialized) {
    const init = await rpc(api, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: v, capabilities: {}, clientInfo: { name: 't', version: '1' } } }, { 'mcp-protocol-version': v });
    assert.is(init.json().result.protocolVersion, v);
  }
  const discover = await rpc(api, {
    jsonrpc: '2.0', id: 2, method: 'server/discover',
    params: { _meta: { 'io.modelcontextprotocol/protocolVersion': stateless, 'io.modelcontextprotocol/clientCapabilities': {} } },
  }, { 'mcp-protocol-version': stateless!, 'mcp-method': 'server/discover' });
  assert.equal(discover.json().result.supportedVersions, [stateless]);
});

test('the card says what initialize says: name, version, title, description', async () => {
  const card = (await request(`${api.origin}/mcp/server-card`)).json();
  const { serverInfo } = (await rpc(api, {
    jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  })).json().result;
  assert.equal([serverInfo.name, serverInfo.version, serverInfo.title, serverInfo.description], [card.name, card.version, card.title, card.description]);
});

test('both addresses: the same bytes, their media types, CORS, a max-age, a strong ETag with 304, HEAD, 405', async () => {
  const bodies: string[] = [];
  for (const [path, type] of Object.entries(PATHS)) {
    const res = await request(api.origin + path, { headers: { origin: 'https://host.example' } });
    assert.is(res.status, 200, path);
    assert.match(String(res.headers['content-type']), type, path);
    assert.is(res.headers['access-control-allow-origin'], '*');
    assert.match(String(res.headers['cache-control']), /^public, max-age=3600$/);
    const etag = String(res.headers.etag);
    assert.match(etag, /^"[A-Za-z0-9_-]+"$/);
    bodies.push(res.text());
    const again = await request(api.origin + path, { headers: { 'if-none-match': etag } });
    assert.is(again.status, 304, path);
    assert.is(again.body.length, 0);
    const head = await request(api.origin + path, { method: 'HEAD' });
    assert.is(head.status, 200);
    assert.is(head.body.length, 0);
    const post = await request(api.origin + path, { method: 'POST' });
    assert.is(post.status, 405);
    assert.match(String(post.headers.allow), /GET/);
    const pre = await request(api.origin + path, { method: 'OPTIONS', headers: { origin: 'https://host.example', 'access-control-request-method': 'GET' } });
    assert.is(pre.status, 204);
  }
  assert.is(bodies[0], bodies[1]);
});

test('built from the live configuration: the site host, reversed, names the server', () => {
  const card = buildServerCard(parseConfig({ SITE_URL: 'https://www.avisohogar.es' }));
  assert.is(card.name, 'es.avisohogar/agentes');
  assert.is(card.remotes[0]!.url, 'https://www.avisohogar.es/mcp');
  assert.is(card.websiteUrl, 'https://www.avisohogar.es/desarrolladores/');
  assert.is(reverseDnsNamespace('https://agentes.avisohogar.es'), 'es.avisohogar.agentes');
  assert.is(reverseDnsNamespace('http://localhost:4321'), 'localhost');
  assert.is(reverseDnsNamespace('http://127.0.0.1:8080'), '127.0.0.1');
});

test('the API catalogue and agents.md point at a card that is served', async () => {
  const { linkset } = (await request(`${api.origin}/.well-known/api-catalog`)).json();
  const mcp = linkset.find((e: { anchor: string }) => e.anchor === `${api.config.siteUrl}/mcp`);
  const href: string = mcp['service-desc'][0].href;
  assert.is(href, `${api.config.siteUrl}/.well-known/mcp/server-card.json`);
  assert.is((await request(api.origin + new URL(href).pathname)).status, 200);
  assert.match((await request(`${api.origin}/agents.md`)).text(), href);
});

test.run();
