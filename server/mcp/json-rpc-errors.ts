/**
 * JSON-RPC errors on /mcp, the one place their bodies are written: callers give the meaning
 * (the request id, the code, the message, the HTTP status) and get the bytes.
 *
 * - HTTP-level failures of the endpoint (405, 401, 403, 413, 429 before any tool ran, 503, 500):
 *   a JSON-RPC error response with `id: null`, the shape the SDK transport itself uses for its
 *   4xx, so a client sees one error shape on /mcp. `error.data` carries what the REST Error
 *   resource carries: the HTTP `status`, the stable `code` and the `hint`.
 * - Refusals of a message before the SDK sees it (revisions.ts) and errors in place of one
 *   answer of a batch: `{jsonrpc, id, error}`.
 * - The answers of the SDK's Streamable HTTP transport (exchange-transport.ts), in that
 *   transport's key order: `{jsonrpc, error, id}`, so they stay the bytes the SDK would send.
 * - Errors thrown from a request handler, which the SDK renders (`rpcError`).
 */
import type { ServerResponse } from 'node:http';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import { ApiError, API_CODES, errorOf, type Headers } from '../errors.ts';
import { sendJson } from '../http/json.ts';
import type { Logger } from '../log.ts';

/** JSON-RPC "server error" range (-32000…-32099): the SDK transport's own HTTP errors use -32000 too. */
export const SERVER_ERROR = -32000;

export type RequestId = string | number | null;

/** The error response to request `id`. */
export const jsonRpcErrorBody = (id: RequestId, code: number, message: string): string =>
  JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });

/** The error response as the SDK's Streamable HTTP transport writes it (`id` last, always null there). */
export const transportErrorBody = (code: number, message: string): string =>
  JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });

/** A message refused before the SDK sees it: its HTTP status and JSON-RPC error. */
export function sendJsonRpcRefusal(res: ServerResponse, refusal: { status: number; id: RequestId; code: number; message: string }): void {
  sendJson(res, refusal.status, jsonRpcErrorBody(refusal.id, refusal.code, refusal.message));
}

/**
 * A JSON-RPC error for the SDK to send: it uses `code` and `message` as they are (a
 * ProtocolError would prefix "MCP error -32602:" to the message, and the SDK client prefixes it
 * again).
 */
export const rpcError = (code: number, message: string): Error => Object.assign(new Error(message), { code });

/** Anything thrown at the HTTP level as the endpoint's answer; headers already on `res` are kept. */
export function sendJsonRpcError(res: ServerResponse, thrown: unknown, log: Logger): void {
  if (res.headersSent) { res.destroy(); return; }
  const err = errorOf(thrown, 'api');
  let status: number;
  let code: number = SERVER_ERROR;
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
