/**
 * The revisions /mcp speaks are the ones the README and the server card list (2026-07-28, and
 * 2025-03-26 to 2025-11-25 with initialize): a bad protocolVersion is a clean -32602 naming them, an older one is answered with the
 * latest, an unknown header revision is a 400, and batches are refused where the revision
 * removed them.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isLegacyRequest } from '@modelcontextprotocol/server';
import { INITIALIZE_VERSIONS, PROTOCOL_VERSIONS } from '../../../server/mcp-versions.ts';
import { surelyInitialized, surelyStateless } from '../../../server/mcp/revisions.ts';
import { withTestServer, type TestServer } from '../../helpers/server.ts';
import { rpc, toolCall } from './harness.ts';

const initialize = (protocolVersion: unknown) => ({
  jsonrpc: '2.0', id: 7, method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'revisions', version: '1' } },
});

const withApi = (fn: (api: TestServer) => Promise<void>) => withTestServer({}, fn);

test('the versions offered are the README\'s: 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26', () => {
  assert.equal(PROTOCOL_VERSIONS, ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26']);
  assert.equal(INITIALIZE_VERSIONS, ['2025-11-25', '2025-06-18', '2025-03-26']);
});

test('initialize: a protocolVersion that is not a string → -32602 naming the versions; 2024-11-05 or 2026-07-28 → the latest with initialize', () => withApi(async (api) => {
  const bad = await rpc(api, initialize(5));
  assert.is(bad.status, 200);
  assert.equal(bad.json(), { jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'Invalid params: protocolVersion must be one of 2025-11-25, 2025-06-18, 2025-03-26; 2026-07-28 has no initialize (server/discover, and the version in each request\'s _meta).' } });
  for (const older of ['2024-11-05', '2026-07-28']) assert.is((await rpc(api, initialize(older))).json().result.protocolVersion, '2025-11-25', older);
  for (const v of INITIALIZE_VERSIONS) assert.is((await rpc(api, initialize(v))).json().result.protocolVersion, v);
}));

test('a header revision older than Streamable HTTP → 400 naming the versions', () => withApi(async (api) => {
  const res = await rpc(api, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-protocol-version': '2024-11-05' });
  assert.is(res.status, 400);
  assert.match(res.json().error.message, 'supported versions: 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26');
}));

test('batches: refused under 2025-06-18 and later, served under 2025-03-26', () => withApi(async (api) => {
  // Its own id: toolCall numbers from 1 in a fresh process, and a batch's ids must differ.
  const batch = [{ jsonrpc: '2.0', id: 'list', method: 'tools/list' }, toolCall('get_company_info', { section: 'contact' })];
  for (const v of ['2026-07-28', '2025-11-25', '2025-06-18']) {
    const refused = await rpc(api, batch, { 'mcp-protocol-version': v });
    assert.is(refused.status, 400, v);
    assert.is(refused.json().error.code, -32600, v);
  }
  const served = await rpc(api, batch, { 'mcp-protocol-version': '2025-03-26' });
  assert.is(served.status, 200, served.text().slice(0, 200));
  assert.is(served.json().length, 2, served.text().slice(0, 300));
}));

test('the shortcuts past the SDK\'s routing never disagree with it: what they call 2025 or 2026-07-28, isLegacyRequest does too', async () => {
  const claim = { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } };
  const bodies: unknown[] = [
    { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'x', arguments: {} } },
    { jsonrpc: '2.0', id: 1, method: 'tools/list', params: claim },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', ...claim } },
    { jsonrpc: '2.0', id: 1, method: 'server/discover', params: claim },
    { jsonrpc: '2.0', id: 1, method: 'server/discover' },
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'a', version: '1' } } },
    { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } },
    { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { other: 1 } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 1, result: {} },
    { jsonrpc: '2.0', id: null, method: 'tools/list' },
    { jsonrpc: '2.0', id: 1, method: 'tools/list', params: 5 },
    { jsonrpc: '2.0', id: 1, method: 'tools/list', params: [] },
    { jsonrpc: '1.0', id: 1, method: 'tools/list' },
    [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }],
    [{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: claim }],
    null, 5, 'x', { hola: 1 }, [],
  ];
  let shortcuts = 0;
  for (const header of [undefined, '2025-11-25', '2025-03-26', '2026-07-28']) {
    for (const body of bodies) {
      if (!surelyInitialized(body, header)) continue;
      shortcuts++;
      const request = new Request('http://x/mcp', { method: 'POST', headers: { 'content-type': 'application/json', ...(header ? { 'mcp-protocol-version': header } : {}) } });
      assert.ok(await isLegacyRequest(request, body), `${header} ${JSON.stringify(body)}`);
    }
  }
  assert.ok(shortcuts >= 15, `the shortcut is taken for plain 2025 messages (${shortcuts})`);
  let modern = 0;
  const claimed: unknown[] = [
    ...bodies,
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', ...claim } },
    { jsonrpc: '2.0', method: 'notifications/initialized', params: claim },
    { jsonrpc: '2.0', id: 1, method: 'tools/list', params: claim, extra: true },
    { jsonrpc: '2.0', id: 1.5, method: 'tools/list', params: claim },
    { jsonrpc: '1.0', id: 1, method: 'tools/list', params: claim },
    { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': 5 } } },
    { id: 1, method: 'tools/list', params: claim },
  ];
  for (const header of [undefined, '2025-11-25', '2026-07-28']) {
    for (const body of claimed) {
      if (!surelyStateless(body)) continue;
      modern++;
      const request = new Request('http://x/mcp', { method: 'POST', headers: { 'content-type': 'application/json', ...(header ? { 'mcp-protocol-version': header } : {}) } });
      assert.not.ok(await isLegacyRequest(request, body), `${header} ${JSON.stringify(body)}`);
    }
  }
  assert.ok(modern >= 24, `the shortcut is taken for messages that claim a revision (${modern})`);
});

test.run();
