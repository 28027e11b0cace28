/** The JSON-RPC renderer of /mcp: the exact bytes of each shape it writes. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { methodNotAllowed, OAuthError, unavailable } from '../../../server/errors.ts';
import {
  jsonRpcErrorBody, rpcError, sendJsonRpcError, sendJsonRpcRefusal, SERVER_ERROR, transportErrorBody,
} from '../../../server/mcp/json-rpc-errors.ts';
import { StoreUnavailableError } from '../../../server/stores/errors.ts';
import { answer, jsonHeaders, rendered } from '../../helpers/rendered.ts';

const quiet = () => {
  const logged: unknown[] = [];
  return { logged, log: { info() {}, error: (_m: string, cause?: unknown) => { logged.push(cause); } } };
};

test('bodies: an error to a request keeps `id` before `error`; the SDK transport\'s has `id` last', () => {
  assert.is(jsonRpcErrorBody(7, -32602, 'Mal.'), '{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Mal."}}');
  assert.is(jsonRpcErrorBody(null, SERVER_ERROR, 'x'), '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"x"}}');
  assert.is(transportErrorBody(-32700, 'Parse error: Invalid JSON'), '{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error: Invalid JSON"},"id":null}');
});

test('an error for the SDK to render carries its code and the message as given', () => {
  const err = rpcError(-32602, 'Herramienta desconocida: x.') as Error & { code: number };
  assert.is(err.code, -32602);
  assert.is(err.message, 'Herramienta desconocida: x.');
});

test('a refusal before the SDK: its status, its id, JSON content headers', async () => {
  const body = '{"jsonrpc":"2.0","id":"a","error":{"code":-32600,"message":"Invalid Request: no."}}';
  const got = await rendered((res) => sendJsonRpcRefusal(res, { status: 400, id: 'a', code: -32600, message: 'Invalid Request: no.' }));
  assert.is(got, answer('400 Bad Request', jsonHeaders(body), body));
});

test('an API error at the HTTP level: its status and headers, `data` with the status, the code and the hint', async () => {
  const { log } = quiet();
  const body = '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Método no permitido. Use POST.","data":{"status":405,"code":"rest_method_not_allowed","hint":"Métodos admitidos: POST"}}}';
  const got = await rendered((res) => sendJsonRpcError(res, methodNotAllowed('POST'), log));
  assert.is(got, answer('405 Method Not Allowed', ['Allow: POST', ...jsonHeaders(body)], body));
});

test('an OAuth error (a body too large) and a store outage keep their status and headers', async () => {
  const { log } = quiet();
  const big = '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Too large.","data":{"status":413,"code":"invalid_request"}}}';
  assert.is(await rendered((res) => sendJsonRpcError(res, new OAuthError(413, 'invalid_request', 'Too large.'), log)),
    answer('413 Payload Too Large', jsonHeaders(big), big));
  const down = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: unavailable().message, data: { status: 503, code: 'agentes_unavailable', hint: unavailable().hint } } });
  assert.is(await rendered((res) => sendJsonRpcError(res, new StoreUnavailableError('down'), log)),
    answer('503 Service Unavailable', ['Retry-After: 5', ...jsonHeaders(down)], down));
});

test('anything else: logged, and a -32603 with the API\'s internal code', async () => {
  const { log, logged } = quiet();
  const thrown = new Error('bug');
  const body = '{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Error interno del servidor.","data":{"status":500,"code":"agentes_internal_error","hint":"Inténtelo de nuevo más tarde."}}}';
  assert.is(await rendered((res) => sendJsonRpcError(res, thrown, log)), answer('500 Internal Server Error', jsonHeaders(body), body));
  assert.equal(logged, [thrown]);
});

test.run();
