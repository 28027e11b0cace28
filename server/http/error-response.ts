/**
 * The API's error answer (contract.md, "Error"): `{code, message, data: {status, hint}}`, for the
 * REST API and every route outside OAuth and MCP. The one place that JSON is written.
 */
import type { ServerResponse } from 'node:http';
import { API_CODES, ApiError, errorOf } from '../errors.ts';
import type { Logger } from '../log.ts';
import type { HeaderList } from './header-list.ts';
import { sendJson } from './json.ts';
import { ownBytes } from '../own-bytes.ts';

const GENERIC_500 = JSON.stringify({
  code: API_CODES.internal,
  message: 'Error interno del servidor.',
  data: { status: 500, hint: 'Inténtelo de nuevo más tarde.' },
});

/**
 * Bodies of ApiErrors thrown more than once (the 429 of a quota window is one shared error), each
 * owning its bytes: a view into Buffer's pool would keep the whole pool alive with it.
 */
const errorBodies = new WeakMap<ApiError, Buffer>();

/** The error body of `err` (kept per error object). */
export function errorBody(err: ApiError): Buffer {
  let body = errorBodies.get(err);
  if (body === undefined) {
    const data: { status: number; hint?: string } = { status: err.status };
    if (err.hint !== undefined) data.hint = err.hint;
    body = ownBytes(Buffer.from(JSON.stringify({ code: err.code, message: err.message, data })));
    errorBodies.set(err, body);
  }
  return body;
}

/**
 * Turns anything thrown into the error answer. Headers already set on `res`, or collected in
 * `list` (the API's rate-limit headers), are kept.
 */
export function sendError(res: ServerResponse, thrown: unknown, log: Logger, list: HeaderList = []): void {
  if (res.headersSent) { res.destroy(); return; }
  const err = errorOf(thrown, 'api');
  if (err instanceof ApiError) {
    sendJson(res, err.status, errorBody(err), err.headers, list);
    return;
  }
  log.error('unexpected error', thrown);
  sendJson(res, 500, GENERIC_500, {}, list);
}
