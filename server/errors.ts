/**
 * The one error family: REST/MCP errors (ApiError, stable `code`s below) and OAuth endpoint
 * errors (OAuthError, RFC 6749 §5.2), each with its status. Handlers throw; `errorOf` is the one
 * mapping of anything else to a status. Each wire format renders them in one module, and no
 * other writes an error body: API JSON (http/error-response.ts; before routing too, through
 * http/client-errors.ts), RFC 6749 JSON (http/oauth-error-response.ts), JSON-RPC
 * (mcp/json-rpc-errors.ts) and tool results (mcp/results.ts).
 */
import { StoreUnavailableError } from './stores/errors.ts';

/** Stable `code` values of REST errors (documented in the README). */
export const API_CODES = {
  missingParam: 'rest_missing_callback_param',
  invalidParam: 'rest_invalid_param',
  pageChanged: 'agentes_page_changed',
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
  misdirected: 'agentes_misdirected_request',
  forbiddenOrigin: 'agentes_forbidden_origin',
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

/**
 * A read_page part asked for with the `version` of a text the page no longer has: its offset
 * counts in that text, so the part would not join what the client already read.
 */
export const pageChanged = () =>
  new ApiError(400, API_CODES.pageChanged, 'La página ha cambiado desde la versión indicada: `offset` ya no corresponde a su texto.',
    'version: vuelva a leer la página desde offset=0 y siga con el `version` de esa respuesta.');

/** `paths`: the operations' paths under the API base, as the hint lists them. */
export const noRoute = (paths: readonly string[]) =>
  new ApiError(404, API_CODES.noRoute, 'No existe esa operación.', `Operaciones: ${paths.join(', ')}. Véase /openapi.json.`);

/** Nothing at this address (outside the API's operations): `message` says what, `hint` where to look. */
export const noResource = (message: string, hint: string) => new ApiError(404, API_CODES.noRoute, message, hint);

/**
 * Every 405 of the API's shape (RFC 9110 §15.5.6: with `Allow`); `says` replaces the generic
 * message and hint where the address is not an API operation (the site, a proxy request).
 */
export const methodNotAllowed = (allow: string, says?: { message: string; hint: string }) =>
  new ApiError(405, API_CODES.methodNotAllowed, says?.message ?? `Método no permitido. Use ${allow}.`, says?.hint ?? `Métodos admitidos: ${allow}`, { Allow: allow });

/** The OAuth endpoints' 405 (their error shape): `use` the methods they answer, `allow` those and OPTIONS. */
export const oauthMethodNotAllowed = (use: string, allow: string) =>
  new OAuthError(405, 'invalid_request', `Method not allowed; use ${use}.`, { Allow: allow });

export const pageNotFound = () =>
  new ApiError(404, API_CODES.pageNotFound, 'No existe ninguna página publicada con esa URL, ruta o slug.', 'Use search_pages para encontrar la URL de una página y pásela a read_page.');

/** Store (Redis) down or too slow: the quota cannot be checked, so nothing is served (503). */
export const unavailable = (retryAfterSeconds = 5) =>
  new ApiError(503, API_CODES.unavailable, 'Servicio no disponible temporalmente.', `Reintente dentro de ${retryAfterSeconds} segundos.`, { 'Retry-After': retryAfterSeconds });

/**
 * What a thrown value answers: itself when it is of the family; a store that cannot answer
 * (StoreUnavailableError) is the client's retryable 503, never a 500, in the API's shape or
 * OAuth's (RFC 6749 §4.1.2.1 `temporarily_unavailable`); null for anything unexpected, which
 * the renderer logs and answers 500.
 */
export function errorOf(err: unknown, shape: 'api' | 'oauth'): ApiError | OAuthError | null {
  if (err instanceof ApiError || err instanceof OAuthError) return err;
  if (!(err instanceof StoreUnavailableError)) return null;
  return shape === 'api'
    ? unavailable()
    : new OAuthError(503, 'temporarily_unavailable', 'The service is temporarily unavailable; retry shortly.', { 'Retry-After': 1 });
}
