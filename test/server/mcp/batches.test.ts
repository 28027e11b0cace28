/**
 * What no MCP message escapes: the messages that are not operation calls (initialize, ping,
 * tools/list, the resource lists, notifications), batched or not, counted on a window of their
 * own (twice the caller's quota, per IP or client_id, in the shared store); a batch's size, its
 * answers' bytes and its ids bounded before or while it runs.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createLogger } from '../../../server/log.ts';
import { MCP_BATCH_LIMIT, MCP_BATCH_REPLY_LIMIT } from '../../../server/mcp/limits.ts';
import { createStore } from '../../../server/stores/index.ts';
import { assertRateLimitHeaders } from '../../helpers/assertions.ts';
import { request, type RawResponse } from '../../helpers/http.ts';
import { sharedReadModel } from '../../helpers/read-model.ts';
import { startRedis } from '../../helpers/redis.ts';
import { startTestServer, withTestServer, type TestServer } from '../../helpers/server.ts';
import { MCP_ACCEPT, rpc, toolCall } from './harness.ts';

const fixture = await sharedReadModel();
/** The last revision with JSON-RPC batches. */
const BATCH_REVISION = { 'mcp-protocol-version': '2025-03-26' };

const listing = (method: string, n: number, from = 1) =>
  Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: `${method}-${from + i}`, method }));

/** A POST without the MCP-Protocol-Version header, as a 2025-03-26 client may send. */
const bare = (api: TestServer, message: unknown): Promise<RawResponse> => request(`${api.origin}/mcp`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: MCP_ACCEPT },
  body: JSON.stringify(message),
});

/** The 429 of a used-up message window: before anything ran, its own policy in the headers. */
function assertMessagesRefused(res: RawResponse, policy: string, limit: number) {
  assert.is(res.status, 429, res.text().slice(0, 300));
  assertRateLimitHeaders(res, { policy, limit, remaining: 0 });
  assert.ok(Number(res.headers['retry-after']) >= 1, 'Retry-After');
  const body = res.json();
  assert.is(body.id, null);
  assert.is(body.error.code, -32000);
  assert.is(body.error.data.code, 'agentes_rate_limited');
  assert.match(body.error.message, `Cuota agotada: ${limit} mensajes MCP que no son tools/call ni resources/read`);
}

const test = suite('mcp batches and the message window');

test('messages that are not tool calls count on their own window, each message of a batch once: past it 429 before anything runs; tool calls go on', () =>
  withTestServer({ fixture, env: { RATE_LIMIT_ANONYMOUS: '10' } }, async (api) => {
    // Twice the tool quota: 20 messages, here one batch of resources/list and one of tools/list.
    const lists = await rpc(api, listing('resources/list', 10), BATCH_REVISION);
    assert.is(lists.status, 200);
    assert.is(lists.json().length, 10);
    const tools = await bare(api, listing('tools/list', 10));
    assert.is(tools.status, 200, 'no MCP-Protocol-Version header: batches allowed, counted the same');
    assert.is(tools.json().length, 10);

    assertMessagesRefused(await rpc(api, listing('resources/list', 1, 11), BATCH_REVISION), 'mcp-anonimo', 20);
    assertMessagesRefused(await bare(api, listing('tools/list', 5, 11)), 'mcp-anonimo', 20);
    assertMessagesRefused(await rpc(api, { jsonrpc: '2.0', id: 1, method: 'ping' }), 'mcp-anonimo', 20);
    assertMessagesRefused(await rpc(api, { jsonrpc: '2.0', method: 'notifications/initialized' }), 'mcp-anonimo', 20);

    // The tool window is untouched by all of that.
    const call = await rpc(api, toolCall('get_company_info', { section: 'contact' }));
    assert.is(call.status, 200);
    assertRateLimitHeaders(call, { policy: 'anonimo', limit: 10, remaining: 9 });
    // A token holder has a window of its own.
    const { access_token } = await api.tokens.issue('client-listas', ['content:read']);
    assert.is((await rpc(api, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { authorization: `Bearer ${access_token}` })).status, 200);
  }));

test(`a batch of more than ${MCP_BATCH_LIMIT} messages → 400 -32600 and none of it runs`, () =>
  withTestServer({ fixture, env: { RATE_LIMIT_ANONYMOUS: '100' } }, async (api) => {
    const calls = Array.from({ length: MCP_BATCH_LIMIT + 1 }, () => toolCall('get_company_info', { section: 'contact' }));
    const res = await rpc(api, calls, BATCH_REVISION);
    assert.is(res.status, 400, res.text().slice(0, 200));
    assert.equal(res.json(), { jsonrpc: '2.0', id: null, error: { code: -32600, message: `Invalid Request: a batch carries at most ${MCP_BATCH_LIMIT} messages; send the rest in further requests.` } });
    assert.is((await rpc(api, listing('resources/list', 100), BATCH_REVISION)).status, 400);
    // Nothing ran: the first tool call of the window is the next one.
    assertRateLimitHeaders(await rpc(api, toolCall('get_company_info')), { policy: 'anonimo', limit: 100, remaining: 99 });
    const most = await rpc(api, calls.slice(1), BATCH_REVISION);
    assert.is(most.status, 200);
    assert.is(most.json().length, MCP_BATCH_LIMIT);
  }));

test('a batch with one id twice → 400 -32600 before anything runs, counted as one message', () =>
  withTestServer({ fixture, env: { RATE_LIMIT_ANONYMOUS: '3' } }, async (api) => {
    const first = toolCall('get_company_info', { section: 'contact' });
    for (const batch of [
      [first, { ...toolCall('search_pages', { query: 'fuga' }), id: first.id }],
      [{ jsonrpc: '2.0', id: 'x', method: 'tools/list' }, { jsonrpc: '2.0', id: 'x', method: 'resources/list' }],
    ]) {
      const res = await rpc(api, batch, BATCH_REVISION);
      assert.is(res.status, 400, res.text().slice(0, 300));
      assert.equal(res.json(), { jsonrpc: '2.0', id: null, error: { code: -32600, message: `Invalid Request: the id ${JSON.stringify(batch[0]!.id)} appears twice in the batch; give each request its own id.` } });
    }
    // No tool ran: the tool window is whole.
    assertRateLimitHeaders(await rpc(api, toolCall('get_company_info')), { policy: 'anonimo', limit: 3, remaining: 2 });
    // Each refused batch was one message of the 6: four more fit. 1 and "1" are different ids; notifications have none.
    const distinct = await rpc(api, [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { jsonrpc: '2.0', id: '1', method: 'tools/list' },
      { jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', method: 'notifications/initialized' },
    ], BATCH_REVISION);
    assert.is(distinct.status, 200, distinct.text().slice(0, 300));
    assert.equal(distinct.json().map((r: { id: unknown }) => r.id), [1, '1']);
    assertMessagesRefused(await rpc(api, { jsonrpc: '2.0', id: 2, method: 'ping' }), 'mcp-anonimo', 6);
  }));

test(`a batch's answers stop at ${MCP_BATCH_REPLY_LIMIT} bytes: each answer past it is an error asking for that request alone`, () =>
  withTestServer({ fixture, env: { RATE_LIMIT_ANONYMOUS: '100', READ_PAGE_MAX_CHARS: '100000' } }, async (api) => {
    const reads = Array.from({ length: MCP_BATCH_LIMIT }, () => toolCall('read_page', { url: fixture.longPage.url }));
    const res = await rpc(api, reads, BATCH_REVISION);
    assert.is(res.status, 200);
    assert.ok(res.body.length <= MCP_BATCH_REPLY_LIMIT + MCP_BATCH_LIMIT * 200, `${res.body.length} bytes`);
    const answers: { id: number; result?: { structuredContent: { markdown: string } }; error?: { code: number; message: string } }[] = res.json();
    assert.equal(answers.map((a) => a.id), reads.map((r) => r.id), 'every request answered, in order');
    const served = answers.filter((a) => a.result !== undefined);
    assert.ok(served.length >= 1 && served.length < MCP_BATCH_LIMIT, `${served.length} served`);
    for (const a of served) assert.is(a.result!.structuredContent.markdown.length, fixture.longPage.markdown.length);
    for (const a of answers.slice(served.length)) {
      assert.equal(a.error, { code: -32000, message: `Server error: the batch's answers pass ${MCP_BATCH_REPLY_LIMIT} bytes; send this request alone.` });
    }
  }));

test('the message window is shared by the processes of one Redis', async () => {
  const redis = await startRedis();
  const store = await createStore({ redisUrl: redis.url, keyPrefix: 'mcp-messages' }, { log: createLogger('silent') });
  const env = { RATE_LIMIT_ANONYMOUS: '5' };
  const a = await startTestServer({ fixture, store, env });
  const b = await startTestServer({ fixture, store, env });
  try {
    assert.is((await rpc(a, listing('resources/list', 6), BATCH_REVISION)).status, 200);
    assert.is((await rpc(b, listing('tools/list', 4), BATCH_REVISION)).status, 200);
    assertMessagesRefused(await rpc(a, { jsonrpc: '2.0', id: 1, method: 'tools/list' }), 'mcp-anonimo', 10);
    assertMessagesRefused(await rpc(b, { jsonrpc: '2.0', id: 1, method: 'tools/list' }), 'mcp-anonimo', 10);
    assert.is((await rpc(b, toolCall('get_company_info'))).status, 200, 'tool calls on their own window');
  } finally {
    await a.close();
    await b.close();
    await store.close();
    await redis.close();
  }
});

test.run();
