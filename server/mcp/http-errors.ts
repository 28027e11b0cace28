/**
 * HTTP-level failures of the MCP endpoint (405, 401, 413, 429 before any tool ran, 503, 500) as
 * one JSON body: a JSON-RPC error response with `id: null`, the shape the SDK transport itself
 * uses for its 4xx (406, 415, -32700), so a client sees one error shape on /mcp. `error.data`
 * carries what the REST Error resource carries: the HTTP `status`, the stable `code` and the `hint`.
 */
import type { ServerResponse } from 'node:http';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import { ApiError, API_CODES, errorOf, type Headers } from '../errors.ts';
import { sendJson } from '../http/json.ts';
import type { Logger } from '../log.ts';

/** JSON-RPC "server error" range (-32000…-32099): the transport's own HTTP errors use -32000 too. */
const HTTP_ERROR = -32000;

export function sendJsonRpcError(res: ServerResponse, thrown: unknown, log: Logger): void {
  if (res.headersSent) { res.destroy(); return; }
  const err = errorOf(thrown, 'api');
  let status: number;
  let code: number = HTTP_ERROR;
  let data: { status: number; code: string; hint?: string };
  let message: string;
  let headers: Headers = {};
  if (err instanceof ApiError) {
    ({ status, message, headers } = err);
    data = { status, code: err.code, ...(err.hint === undefined ? {} : { hint: err.hint }) };
  } else if (err !== null) {
    // Body reading (http/body.ts): too large, cut short.
    ({ status, headers } = err);
    message = err.description;
    data = { status, code: err.error };
  } else {
    log.error('mcp: unexpected error', thrown);
    status = 500;
    code = ProtocolErrorCode.InternalError;
    message = 'Error interno del servidor.';
    data = { status, code: API_CODES.internal, hint: 'Inténtelo de nuevo más tarde.' };
  }
  sendJson(res, status, JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message, data } }), headers);
}
