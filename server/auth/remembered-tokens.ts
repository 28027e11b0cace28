/**
 * Tokens verified recently, remembered in the process through a store outage (auth/tokens.ts
 * consults it). While Redis cannot be asked, a token this process verified in the last
 * REMEMBER_MS (and not expired) is taken as it was then, so a known client keeps its own quota
 * (counted in the process, stores/fallback.ts) instead of a 503; a token it does not know still
 * gets the 503 with Retry-After. Only the token's hash is kept, with its client, scope and expiry;
 * at most MAX_REMEMBERED of them, the least recently verified dropped first. A token found invalid
 * or revoked here is forgotten at once; one revoked by another process is taken for at most
 * REMEMBER_MS after this one last verified it, and only while the store is down.
 */
import type { Clock } from '../stores/types.ts';
import type { TokenInfo } from './types.ts';

export const REMEMBER_MS = 10 * 60_000;
export const MAX_REMEMBERED = 10_000;

export interface TokenMemory {
  keep(hash: string, info: TokenInfo): void;
  forget(hash: string): void;
  /** The token as verified last, while that is recent enough; else undefined. */
  recall(hash: string): TokenInfo | undefined;
}

export function createTokenMemory(clock: Clock): TokenMemory {
  const known = new Map<string, { info: TokenInfo; until: number }>();
  return {
    keep(hash, info) {
      known.delete(hash);
      known.set(hash, { info, until: Math.min(clock() + REMEMBER_MS, info.exp * 1000) });
      if (known.size > MAX_REMEMBERED) known.delete(known.keys().next().value!);
    },
    forget: (hash) => { known.delete(hash); },
    recall(hash) {
      const kept = known.get(hash);
      return kept !== undefined && kept.until > clock() ? kept.info : undefined;
    },
  };
}
