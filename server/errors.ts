/**
 * The one error family. Handlers throw; `sendError` is the only place an error becomes a
 * response. REST errors use the contract's Error shape; OAuth endpoints use RFC 6749 §5.2. A
 * store that cannot answer (StoreUnavailableError) is a 503 with Retry-After here too.
 */
import type { ServerResponse } from 'node:http';
import type { Logger } from './log.ts';
import type { HeaderList } from './http/header-list.ts';
import { StoreUnavailableError } from './stores/errors.ts';

/** Stable `code` values of REST errors (documented in the README). */
export const API_CODES = {
  missingParam: 'rest_missing_callback_param',
  invalidParam: 'rest_invalid_param',
  noRoute: 'rest_no_route',
  methodNotAllowed: 'rest_method_not_allowed',
  pageNotFound: 'agentes_page_not_found',
  notLoggedIn: 'rest_not_logged_in',
  invalidToken: 'agentes_invalid_token',
  insufficientScope: 'agentes_insufficient_scope',
  rateLimited: 'agentes_rate_limited',
  unavailable: 'agentes_unavailable',
  internal: 'agentes_internal_error',
} as const;
/** Stable codes of requests that never reach a route (http/client-errors.ts; the README lists them). */
export const PROTOCOL_CODES = {
  badRequest: 'agentes_bad_request',
  requestTimeout: 'agentes_request_timeout',
  expectationFailed: 'agentes_expectation_failed',
  headersTooLarge: 'agentes_headers_too_large',
} as const;
export type ApiCode = (typeof API_CODES)[keyof typeof API_CODES] | (typeof PROTOCOL_CODES)[keyof typeof PROTOCOL_CODES];

export type Headers = Record<string, string | number>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiCode,
    message: string,
    readonly hint?: string,
    readonly headers: Headers = {},
  ) {
    super(message);
  }
}

export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
    readonly headers: Headers = {},
  ) {
    super(description);
  }
}

export const missingParam = (name: string) =>
  new ApiError(400, API_CODES.missingParam, `Falta el parámetro obligatorio: ${name}.`, name);

export const invalidParam = (name: string, detail: string) =>
  new ApiError(400, API_CODES.invalidParam, `Parámetro no válido: ${name}. ${detail}`, name);

export const noRoute = () =>
  new ApiError(404, API_CODES.noRoute, 'No existe esa operación.', 'Operaciones: search_pages, read_page, get_company_info, quota. Véase /openapi.json.');

export const methodNotAllowed = (allow: string) =>
  new ApiError(405, API_CODES.methodNotAllowed, `Método no permitido. Use ${allow}.`, `Métodos admitidos: ${allow}`, { Allow: allow });

export const pageNotFound = () =>
  new ApiError(404, API_CODES.pageNotFound, 'No existe ninguna página publicada con esa URL, ruta o slug.', 'Use search_pages para encontrar la URL de una página y pásela a read_page.');

/** Store (Redis) down or too slow: the quota cannot be checked, so nothing is served (503). */
export const unavailable = (retryAfterSeconds = 5) =>
  new ApiError(503, API_CODES.unavailable, 'Servicio no disponible temporalmente.', `Reintente dentro de ${retryAfterSeconds} segundos.`, { 'Retry-After': retryAfterSeconds });

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Writes a JSON answer in one `writeHead`: `list` (what the answer already carries: the API's
 * version, CORS and rate-limit headers), then `headers`, then the content headers.
 */
export function sendJson(res: ServerResponse, status: number, body: string | Buffer, headers: Headers = {}, list: HeaderList = []): void {
  for (const name in headers) list.push(name, '' + headers[name]);
  list.push('Content-Type', JSON_CONTENT_TYPE, 'Content-Length', '' + (typeof body === 'string' ? Buffer.byteLength(body) : body.length));
  res.writeHead(status, list);
  res.end(body);
}

const GENERIC_500 = JSON.stringify({
  code: API_CODES.internal,
  message: 'Error interno del servidor.',
  data: { status: 500, hint: 'Inténtelo de nuevo más tarde.' },
});

/** Bodies of ApiErrors thrown more than once (the 429 of a quota window is one shared error). */
const errorBodies = new WeakMap<ApiError, Buffer>();

/** The REST error body of `err`: the one place its JSON is written (kept per error object). */
export function errorBody(err: ApiError): Buffer {
  let body = errorBodies.get(err);
  if (body === undefined) {
    const data: { status: number; hint?: string } = { status: err.status };
    if (err.hint !== undefined) data.hint = err.hint;
    body = Buffer.from(JSON.stringify({ code: err.code, message: err.message, data }));
    errorBodies.set(err, body);
  }
  return body;
}

/**
 * Turns anything thrown into a JSON response. Headers already set on `res`, or collected in
 * `list` (the API's rate-limit headers), are kept.
 */
export function sendError(res: ServerResponse, err: unknown, log: Logger, list: HeaderList = []): void {
  if (res.headersSent) { res.destroy(); return; }
  if (err instanceof StoreUnavailableError) err = unavailable();
  if (err instanceof ApiError) {
    sendJson(res, err.status, errorBody(err), err.headers, list);
    return;
  }
  if (err instanceof OAuthError) {
    list.push('Cache-Control', 'no-store', 'Pragma', 'no-cache');
    sendJson(res, err.status, JSON.stringify({ error: err.error, error_description: err.description }), err.headers, list);
    return;
  }
  log.error('unexpected error', err);
  sendJson(res, 500, GENERIC_500, {}, list);
}
