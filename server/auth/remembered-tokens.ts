/**
 * Tokens verified recently, remembered in the process through a store outage. While Redis cannot
 * be asked, a token this process verified in the last REMEMBER_MS (and not expired) is taken as
 * it was then, so a known client keeps its own quota (counted in the process, stores/fallback.ts)
 * instead of a 503; a token it does not know still gets the 503 with Retry-After. Only the
 * token's hash is kept, with its client, scope and expiry; at most MAX_REMEMBERED of them, the
 * least recently used dropped first. A token found invalid or revoked here is forgotten at once;
 * one revoked by another process is taken for at most REMEMBER_MS after this one last verified
 * it, and only while the store is down.
 */
import { StoreUnavailableError } from '../stores/errors.ts';
import type { Clock } from '../stores/types.ts';
import { sha256 } from './secrets.ts';
import type { TokenService } from './tokens.ts';
import type { TokenInfo } from './types.ts';

export const REMEMBER_MS = 10 * 60_000;
export const MAX_REMEMBERED = 10_000;

interface Remembered { info: TokenInfo; until: number }

export function rememberVerifiedTokens(tokens: TokenService, clock: Clock): TokenService {
  const known = new Map<string, Remembered>();
  const remember = (hash: string, info: TokenInfo) => {
    known.delete(hash);
    known.set(hash, { info, until: Math.min(clock() + REMEMBER_MS, info.exp * 1000) });
    if (known.size > MAX_REMEMBERED) known.delete(known.keys().next().value!);
  };
  return {
    ...tokens,
    async verify(token) {
      const hash = sha256(token);
      try {
        const info = await tokens.verify(token);
        if (info) remember(hash, info);
        else known.delete(hash);
        return info;
      } catch (err) {
        const kept = err instanceof StoreUnavailableError ? known.get(hash) : undefined;
        if (kept === undefined || kept.until <= clock()) throw err;
        return kept.info;
      }
    },
    async revoke(token, clientId) {
      await tokens.revoke(token, clientId);
      const kept = known.get(sha256(token));
      if (kept?.info.client_id === clientId) known.delete(sha256(token));
    },
  };
}
