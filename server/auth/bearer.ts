/**
 * The Authorization header of API requests (RFC 6750 §2.1; conformance.md §3).
 *
 * - No header (or an empty one): no credential; content operations answer anonymously.
 * - `Bearer <token>` (scheme case-insensitive): checked with `TokenVerifier.verify`. Unknown,
 *   revoked or expired → 401 `error="invalid_token"`; a bad token is never treated as anonymous.
 * - Anything else — another scheme (Basic…), `Bearer` without a token, a token outside the
 *   b64token syntax — is also 401 `invalid_token`: this API accepts only Bearer tokens, and
 *   silently ignoring a credential the client meant to use would hide its mistake.
 * Every challenge carries `resource_metadata` (RFC 9728 §5.1) written with quotes, which is how
 * the MCP SDK client reads it.
 *
 * Which quota a valid token gets is the operation's access (operations/operation.ts): on content
 * operations only `content:read` raises it to the client's `identificado` window; a valid token
 * without that scope (e.g. only `quota:read`) reads content on the anonymous window of its IP,
 * since content needs no credential and the token grants nothing more there.
 */
import type { IncomingMessage } from 'node:http';
import type { TokenInfo, TokenVerifier } from './types.ts';
import { ApiError, API_CODES } from '../errors.ts';
import { StoreUnavailableError } from '../stores/errors.ts';
import { API_BASE, AUTH_MD_PATH, protectedResourcePath, REGISTER_PATH, TOKEN_PATH } from '../paths.ts';

export type Credential =
  | { kind: 'none' }
  | { kind: 'token'; token: TokenInfo }
  /** A refused credential (401), or a store that could not check it (its 503: errors.ts `errorOf`). */
  | { kind: 'invalid'; error: ApiError | StoreUnavailableError };

const NONE: Credential = { kind: 'none' };
/** RFC 6750 §2.1 b64token, with optional surrounding spaces. */
const BEARER = /^[Bb][Ee][Aa][Rr][Ee][Rr] +([A-Za-z0-9\-._~+/]+=*) *$/;
/** Far longer than any token this service issues; not worth a store lookup. */
const MAX_TOKEN_LENGTH = 512;

/** `{site_url}/.well-known/oauth-protected-resource/wp-json/agentes/v1` (RFC 9728 §3.1 path insertion). */
export const resourceMetadataUrl = (siteUrl: string) => siteUrl + protectedResourcePath(API_BASE);

export interface BearerChallenges {
  /** 401 for a request without a token where one is required (get_quota, /agent/identity). */
  notLoggedIn(): ApiError;
  /** 401 for a token that is malformed, unknown, revoked or expired. */
  invalidToken(description: string): ApiError;
  /** 403 for a valid token without `scope`. */
  insufficientScope(scope: string): ApiError;
}

/** `metadataUrl`: the protected resource's metadata (the content API's unless another resource, MCP, is named). */
export function bearerChallenges(siteUrl: string, metadataUrl = resourceMetadataUrl(siteUrl)): BearerChallenges {
  const rm = `resource_metadata="${metadataUrl}"`;
  const authHint = `Obtenga un token: POST ${siteUrl}${REGISTER_PATH} y POST ${siteUrl}${TOKEN_PATH} (véase ${siteUrl}${AUTH_MD_PATH}).`;
  return {
    notLoggedIn: () => new ApiError(401, API_CODES.notLoggedIn, 'Esta operación requiere un token Bearer.', authHint, {
      'WWW-Authenticate': `Bearer ${rm}`,
    }),
    invalidToken: (description) => new ApiError(401, API_CODES.invalidToken, `Token no válido: ${description}`,
      `Pida un token nuevo (POST ${siteUrl}${TOKEN_PATH}) o repita la petición sin cabecera Authorization.`, {
        // error_description must not contain '"' or '\' (RFC 6750 §3); the descriptions below are fixed ASCII.
        'WWW-Authenticate': `Bearer error="invalid_token", error_description="${description}", ${rm}`,
      }),
    insufficientScope: (scope) => new ApiError(403, API_CODES.insufficientScope, `El token no tiene el alcance ${scope}.`,
      `Pida un token con scope=${scope} en POST ${siteUrl}${TOKEN_PATH}.`, {
        'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}", ${rm}`,
      }),
  };
}

/**
 * Reads the credential of `req`. Every credential that is not accepted comes back as
 * `{kind: 'invalid'}`, so the quota step can still run and put the rate-limit headers on the
 * answer: a client mistake is a 401, and a token that cannot be checked because the store is
 * down is a 503 with Retry-After — never served as anonymous. Only a token lookup waits: without
 * a well-formed token the answer is immediate (no promise, see chain.ts).
 */
export function readCredential(req: IncomingMessage, tokens: TokenVerifier, challenges: BearerChallenges): Credential | Promise<Credential> {
  const header = req.headers.authorization;
  if (header === undefined || header === '') return NONE;
  const m = BEARER.exec(header);
  if (!m) {
    const scheme = header.trimStart().split(' ', 1)[0]!.toLowerCase();
    const description = scheme === 'bearer' ? 'The Bearer credential is malformed' : 'Only Bearer tokens are accepted';
    return { kind: 'invalid', error: challenges.invalidToken(description) };
  }
  const token = m[1]!;
  if (token.length > MAX_TOKEN_LENGTH) return invalidOrExpired(challenges);
  return tokens.verify(token).then(
    (info): Credential => (info ? { kind: 'token', token: info } : invalidOrExpired(challenges)),
    (err: unknown): Credential => {
      if (err instanceof StoreUnavailableError) return { kind: 'invalid', error: err };
      throw err;
    },
  );
}

const invalidOrExpired = (challenges: BearerChallenges): Credential =>
  ({ kind: 'invalid', error: challenges.invalidToken('The access token is invalid, expired or revoked') });
