/**
 * What every OAuth endpoint shares: async handlers whose errors reach `sendOAuthError`
 * (http/oauth-error-response.ts), JSON responses that are never cached (RFC 6749 §5.1), CORS,
 * the preflight and 405s, per-IP limits counted in the store, and the refusal of credentials in
 * the URL.
 *
 * Browsers may call every endpoint from any origin (`Access-Control-Allow-Origin: *`, never with
 * credentials mode): no cookie or other ambient credential exists here, each request carries its
 * own client authentication, so CORS would keep from a page only what any other client may do,
 * and MCP clients that run in a page register and get their tokens from it, as the metadata that
 * names these endpoints is already open to them. A secret in a page is its owner's to keep; /auth.md says so.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Polka, Request } from 'polka';
import type { AppDeps } from '../../app.ts';
import { OAuthError, oauthMethodNotAllowed } from '../../errors.ts';
import { sendOAuthError } from '../../http/oauth-error-response.ts';
import { sendJson } from '../../http/json.ts';
import { answerPreflight, CORS_HEADERS, writeCors, type PreflightPolicy } from '../../http/cors.ts';
import type { Store } from '../../stores/types.ts';
import type { AuthenticatedClient, ClientRegistry } from '../../auth/clients.ts';
import { authenticateClient } from '../../auth/client-auth.ts';
import { param, readForm } from '../../http/body.ts';
import type { TokenService } from '../../auth/tokens.ts';
import { LIMITS, type Limit } from '../../auth/oauth-limits.ts';

/** What the endpoints share beyond AppDeps. */
export interface OAuthContext {
  clients: ClientRegistry;
  tokens: TokenService;
  /** Per-IP rate-limit key of the request's client address. */
  addressOf: (req: IncomingMessage) => string;
}

export type Handler = (req: Request, res: ServerResponse) => Promise<void>;
type Middleware = (req: IncomingMessage, res: ServerResponse) => void;

export const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' } as const;

/** Runs `handler`; whatever it throws becomes one response, written by `sendOAuthError`. */
export function oauthHandler(deps: AppDeps, handler: Handler): Middleware {
  return (req, res) => {
    writeCors(res);
    handler(req as Request, res).catch((err: unknown) => sendOAuthError(res, err, deps.log));
  };
}

export function sendOAuthJson(res: ServerResponse, status: number, body: object): void {
  sendJson(res, status, JSON.stringify(body), NO_STORE);
}

/** A browser's client authentication (Basic) and a registration's JSON body. */
const PREFLIGHT_HEADERS = 'Authorization, Content-Type';

/**
 * The answers of `path` to methods other than `use` (its own, `POST` or `GET, POST`): OPTIONS is
 * the CORS preflight (204), anything else 405 in the OAuth error shape, with `Allow` (RFC 9110 §15.5.6).
 */
export function otherMethods(app: Polka, deps: AppDeps, path: string, use: string): void {
  const policy: PreflightPolicy = { methods: `${use}, OPTIONS`, requestHeaders: PREFLIGHT_HEADERS };
  app.options(path, (_req, res) => answerPreflight(res, CORS_HEADERS.slice(), policy));
  app.all(path, (_req, res) => sendOAuthError(res, oauthMethodNotAllowed(use, policy.methods), deps.log));
}

/** Parameters that must never travel in a URL, where proxies and logs keep them. */
const URL_SECRETS = ['client_id', 'client_secret', 'token', 'access_token'];

export function refuseCredentialsInQuery(req: Request): void {
  const found = URL_SECRETS.find((name) => req.query?.[name] !== undefined);
  if (found) throw new OAuthError(400, 'invalid_request', `${found} must be sent in the request body or Authorization header, never in the URL.`);
}

/** Counts one hit of `limit` for `address`; over the limit → 429 `rate_limited` with Retry-After. */
export async function enforceLimit(store: Store, limit: Limit, address: string): Promise<void> {
  const { count, resetSeconds } = await store.hit(`${limit.name}:${address}`, limit.windowSeconds);
  if (count > limit.max) {
    throw new OAuthError(429, 'rate_limited', `Too many requests: at most ${limit.max} ${limit.what} per client address. Retry in ${resetSeconds} s.`, { 'Retry-After': resetSeconds });
  }
}

/**
 * The common front of revocation (RFC 7009 §2.1) and introspection (RFC 7662 §2.1): their shared
 * limit, a form with a required `token`, and the same client authentication as the token
 * endpoint. `token_type_hint` is optional and, with one token type, says nothing: ignored.
 */
export async function readTokenRequest(req: Request, deps: AppDeps, ctx: OAuthContext): Promise<{ token: string; client: AuthenticatedClient }> {
  await enforceLimit(deps.store, LIMITS.manage, ctx.addressOf(req));
  refuseCredentialsInQuery(req);
  const form = await readForm(req);
  const token = param(form, 'token');
  if (token === undefined) throw new OAuthError(400, 'invalid_request', 'Missing required parameter: token.');
  return { token, client: await authenticateClient(req, form, ctx.clients) };
}
