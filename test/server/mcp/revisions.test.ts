/**
 * The revisions /mcp speaks are the ones the README and the server card list (2025-03-26 and
 * later): a bad protocolVersion is a clean -32602 naming them, an older one is answered with the
 * latest, an unknown header revision is a 400, and batches are refused where the revision
 * removed them.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { STREAMABLE_HTTP_VERSIONS } from '../../../server/mcp/identity.ts';
import { withTestServer, type TestServer } from '../../helpers/server.ts';
import { rpc, toolCall } from './harness.ts';

const initialize = (protocolVersion: unknown) => ({
  jsonrpc: '2.0', id: 7, method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'revisions', version: '1' } },
});

const withApi = (fn: (api: TestServer) => Promise<void>) => withTestServer({}, fn);

test('the versions offered are the README\'s: 2025-11-25, 2025-06-18, 2025-03-26', () => {
  assert.equal(STREAMABLE_HTTP_VERSIONS, ['2025-11-25', '2025-06-18', '2025-03-26']);
});

test('initialize: a protocolVersion that is not a string → -32602 naming the versions; 2024-11-05 → the latest', () => withApi(async (api) => {
  const bad = await rpc(api, initialize(5));
  assert.is(bad.status, 200);
  assert.equal(bad.json(), { jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'Invalid params: protocolVersion must be one of 2025-11-25, 2025-06-18, 2025-03-26.' } });
  const old = await rpc(api, initialize('2024-11-05'));
  assert.is(old.json().result.protocolVersion, '2025-11-25');
  for (const v of STREAMABLE_HTTP_VERSIONS) assert.is((await rpc(api, initialize(v))).json().result.protocolVersion, v);
}));

test('a header revision older than Streamable HTTP → 400 naming the versions', () => withApi(async (api) => {
  const res = await rpc(api, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-protocol-version': '2024-11-05' });
  assert.is(res.status, 400);
  assert.match(res.json().error.message, 'supported versions: 2025-11-25, 2025-06-18, 2025-03-26');
}));

test('batches: refused under 2025-06-18 and later, served under 2025-03-26', () => withApi(async (api) => {
  // Its own id: toolCall numbers from 1 in a fresh process, and a batch's ids must differ.
  const batch = [{ jsonrpc: '2.0', id: 'list', method: 'tools/list' }, toolCall('get_company_info', { section: 'contact' })];
  for (const v of ['2025-11-25', '2025-06-18']) {
    const refused = await rpc(api, batch, { 'mcp-protocol-version': v });
    assert.is(refused.status, 400, v);
    assert.is(refused.json().error.code, -32600, v);
  }
  const served = await rpc(api, batch, { 'mcp-protocol-version': '2025-03-26' });
  assert.is(served.status, 200, served.text().slice(0, 200));
  assert.is(served.json().length, 2, served.text().slice(0, 300));
}));

test.run();
