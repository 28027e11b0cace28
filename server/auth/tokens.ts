/**
 * Opaque Bearer tokens over the Store. A token is one key, `token:<sha256 of token>`, with a
 * TTL of its remaining lifetime: lookup is one GET by hash, revocation one DEL, expiry the
 * backend's (no sweeper). The stored `exp` is checked too, so an injected clock is honoured
 * by any backend. With a `memory`, tokens verified recently are recalled while the store is
 * down (remembered-tokens.ts).
 */
import type { Config } from '../config.ts';
import type { Clock, Store } from '../stores/types.ts';
import { SCOPES, type Scope, type TokenInfo, type TokenVerifier } from './types.ts';
import { newAccessToken, sha256 } from './secrets.ts';
import { parseScope, scopeString } from './clients.ts';
import type { TokenMemory } from './remembered-tokens.ts';
import { StoreUnavailableError } from '../stores/errors.ts';

export const TOKEN_TTL_SECONDS = 3600;
/** Issued tokens are 43 characters; anything far longer is garbage and is not looked up. */
const MAX_TOKEN_LENGTH = 512;

export const tokenKey = (token: string) => hashKey(sha256(token));
const hashKey = (hash: string) => `token:${hash}`;

interface StoredToken {
  client_id: string;
  /** Space-separated. */
  scope: string;
  iat: number;
  exp: number;
}

export interface IssuedToken {
  access_token: string;
  info: TokenInfo;
}

/** RFC 7662 §2.2 response. */
export type Introspection =
  | { active: false }
  | { active: true; scope: string; client_id: string; token_type: 'Bearer'; exp: number; iat: number; iss: string; aud: string };

export interface TokenService extends TokenVerifier {
  issue(clientId: string, scope: readonly Scope[]): Promise<IssuedToken>;
  /** Revokes `token` only when it belongs to `clientId`; anything else is a no-op (RFC 7009 §2.2). */
  revoke(token: string, clientId: string): Promise<void>;
  /** Active only for `clientId`'s own live tokens; everything else is `{active: false}`. */
  introspect(token: string, clientId: string): Promise<Introspection>;
}

export interface TokenServiceOptions {
  store: Store;
  config: Pick<Config, 'siteUrl' | 'baseUrl'>;
  clock: Clock;
  memory?: TokenMemory;
  /** Told of each token issued, revoked, and presented but refused (unknown, expired or revoked). */
  observer?: { issued(): void; revoked(): void; refused(): void };
}

export function createTokenService({ store, config, clock, memory, observer }: TokenServiceOptions): TokenService {
  const nowSeconds = () => Math.floor(clock() / 1000);

  const lookup = async (hash: string): Promise<TokenInfo | null> => {
    const raw = await store.get(hashKey(hash));
    if (raw === null) return null;
    const stored = parseStored(raw);
    if (!stored || stored.exp <= nowSeconds()) return null;
    const scope = parseScope(stored.scope);
    if (scope === null) return null;
    return { client_id: stored.client_id, scope, iat: stored.iat, exp: stored.exp };
  };

  const verify = async (token: string): Promise<TokenInfo | null> => {
    if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) { observer?.refused(); return null; }
    const hash = sha256(token);
    let info: TokenInfo | null;
    try {
      info = await lookup(hash);
    } catch (err) {
      const kept = err instanceof StoreUnavailableError ? memory?.recall(hash) : undefined;
      if (kept === undefined) throw err;
      return kept;
    }
    if (info) memory?.keep(hash, info);
    else { memory?.forget(hash); observer?.refused(); }
    return info;
  };

  return {
    verify,

    async issue(clientId, scope) {
      const access_token = newAccessToken();
      const iat = nowSeconds();
      const stored: StoredToken = { client_id: clientId, scope: scopeString(scope), iat, exp: iat + TOKEN_TTL_SECONDS };
      await store.set(tokenKey(access_token), JSON.stringify(stored), TOKEN_TTL_SECONDS);
      observer?.issued();
      return {
        access_token,
        info: { client_id: clientId, scope: SCOPES.filter((s) => scope.includes(s)), iat, exp: stored.exp },
      };
    },

    async revoke(token, clientId) {
      const info = await verify(token);
      if (info && info.client_id === clientId) {
        const hash = sha256(token);
        await store.del(hashKey(hash));
        memory?.forget(hash);
        observer?.revoked();
      }
    },

    async introspect(token, clientId) {
      const info = await verify(token);
      if (!info || info.client_id !== clientId) return { active: false };
      return {
        active: true,
        scope: scopeString(info.scope),
        client_id: info.client_id,
        token_type: 'Bearer',
        exp: info.exp,
        iat: info.iat,
        iss: config.siteUrl,
        aud: config.baseUrl,
      };
    },
  };
}

function parseStored(raw: string): StoredToken | null {
  try {
    const t = JSON.parse(raw) as StoredToken;
    return typeof t.client_id === 'string' && typeof t.scope === 'string' && Number.isInteger(t.exp) && Number.isInteger(t.iat) ? t : null;
  } catch {
    return null;
  }
}
