/**
 * The exchange transport answers as the SDK's own Streamable HTTP transport in JSON mode does:
 * the same status, body bytes and media type for the same request, message by message, with a
 * Server of the same kind on each side. The cases are the shapes that take the transport's fast
 * path and the ones that must go through the SDK's schema (ids, `_meta`, batches, refusals).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Server, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { PROTOCOL_VERSIONS } from '../../../server/mcp-versions.ts';
import { ExchangeTransport } from '../../../server/mcp/exchange-transport.ts';

const JSON_AND_SSE = 'application/json, text/event-stream';
const BASE = { accept: JSON_AND_SSE, 'content-type': 'application/json' };

function newServer(): Server {
  const server = new Server({ name: 'differential', version: '1' }, {
    capabilities: { tools: {} },
    supportedProtocolVersions: [...PROTOCOL_VERSIONS],
  });
  server.setRequestHandler('tools/list', () => ({ tools: [] }));
  server.setRequestHandler('tools/call', async (request) => {
    // An answer that comes after a turn of the event loop, as the real tools' do.
    await new Promise((resolve) => setImmediate(resolve));
    return { content: [{ type: 'text', text: `called ${request.params.name}` }] };
  });
  return server;
}

interface Seen { status: number; body: string; type: string | null }

async function bySdk(headers: Record<string, string>, body: string): Promise<Seen> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await newServer().connect(transport);
  const res = await transport.handleRequest(new Request('http://localhost/mcp', { method: 'POST', headers, body }));
  return { status: res.status, body: await res.text(), type: res.headers.get('content-type') };
}

async function byExchange(headers: Record<string, string>, body: string): Promise<Seen> {
  const transport = new ExchangeTransport();
  await newServer().connect(transport);
  let checked: { message: unknown } | { body: Buffer };
  try {
    checked = { message: JSON.parse(body) };
  } catch {
    checked = { body: Buffer.from(body) };
  }
  // A message the Server does not answer would leave the exchange waiting: bounded, so it fails as such.
  let timer: NodeJS.Timeout | undefined;
  const unanswered = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('no answer in 10 s')), 10_000); });
  const answer = await Promise.race([transport.handle(headers, checked), unanswered]).finally(() => clearTimeout(timer));
  return { status: answer.status, body: answer.body ?? '', type: answer.body === null ? null : 'application/json' };
}

const call = (id: unknown, extra: Record<string, unknown> = {}) =>
  ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'read_page', arguments: { url: 'cookies' } }, ...extra });
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } };

const CASES: [string, Record<string, string>, unknown][] = [
  ['a tools/call', BASE, call(1)],
  ['a string id', BASE, call('abc')],
  ['tools/list without params', BASE, { jsonrpc: '2.0', id: 7, method: 'tools/list' }],
  ['an unknown method', BASE, { jsonrpc: '2.0', id: 8, method: 'prompts/list' }],
  ['initialize', BASE, initialize],
  ['initialize with params the schema refuses', BASE, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 5 } }],
  ['a notification', BASE, { jsonrpc: '2.0', method: 'notifications/initialized' }],
  ['a client response', BASE, { jsonrpc: '2.0', id: 4, result: {} }],
  ['a client error response', BASE, { jsonrpc: '2.0', id: 4, error: { code: -1, message: 'no' } }],
  ['a batch: two calls and a notification', BASE, [call(1), { jsonrpc: '2.0', method: 'notifications/initialized' }, call(2)]],
  ['a batch of notifications only', BASE, [{ jsonrpc: '2.0', method: 'notifications/initialized' }]],
  ['an empty batch', BASE, []],
  ['a batch with one id twice', BASE, [call(1), call(1)]],
  ['a batch over the limit', BASE, Array.from({ length: 101 }, (_, i) => call(i))],
  ['a batch with initialize and a call', BASE, [initialize, call(2)]],
  ['_meta with a progress token', BASE, call(3, { params: { name: 'x', _meta: { progressToken: 'p' } } })],
  ['_meta that the schema refuses', BASE, call(3, { params: { name: 'x', _meta: { progressToken: 1.5 } } })],
  ['a fractional id', BASE, call(1.5)],
  ['an id past the safe integers', BASE, call(2 ** 60)],
  ['a null id', BASE, call(null)],
  ['params as an array', BASE, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: [] }],
  ['a key JSON-RPC does not have', BASE, call(1, { extra: true })],
  ['jsonrpc 1.0', BASE, { ...call(1), jsonrpc: '1.0' }],
  ['null', BASE, null],
  ['a number', BASE, 5],
  ['a known protocol version header', { ...BASE, 'mcp-protocol-version': '2025-06-18' }, call(1)],
  ['an unknown protocol version header', { ...BASE, 'mcp-protocol-version': '2030-01-01' }, call(1)],
  ['initialize with an unknown protocol version header', { ...BASE, 'mcp-protocol-version': '2030-01-01' }, initialize],
  ['Accept without SSE', { ...BASE, accept: 'application/json' }, call(1)],
  ['no Accept', { 'content-type': 'application/json' }, call(1)],
  ['Content-Type text/plain', { ...BASE, 'content-type': 'text/plain' }, call(1)],
  ['Content-Type with a charset', { ...BASE, 'content-type': 'application/json; charset=utf-8' }, call(1)],
];

const test = suite('mcp exchange transport = the SDK transport in JSON mode');

for (const [name, headers, message] of CASES) {
  test(name, async () => {
    const body = JSON.stringify(message);
    assert.equal(await byExchange(headers, body), await bySdk(headers, body));
  });
}

test('a body that is not JSON', async () => {
  for (const body of ['{"jsonrpc":"2.0",', '', '[]x']) assert.equal(await byExchange(BASE, body), await bySdk(BASE, body), body);
});

test.run();
