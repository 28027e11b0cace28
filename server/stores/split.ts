/**
 * Quota counters in one store, clients and tokens in another (REDIS_QUOTA_URL beside REDIS_URL):
 * counters are many, short-lived and cheap to lose, so their Redis may evict under memory
 * pressure; credentials are few and must never be evicted (docs/operations.md, "Redis"). Counters are the
 * windows (`hit`, `peek`); everything kept by key (`get`, `set`, …) is a credential.
 */
import type { AddsHits, Store } from './types.ts';

export function splitStore(counters: Store & AddsHits, credentials: Store): Store & AddsHits {
  return {
    hit: (key, windowSeconds) => counters.hit(key, windowSeconds),
    addHits: (key, n, windowSeconds) => counters.addHits(key, n, windowSeconds),
    peek: (key, windowSeconds) => counters.peek(key, windowSeconds),
    get: (key) => credentials.get(key),
    set: (key, value, ttlSeconds) => credentials.set(key, value, ttlSeconds),
    setIfAbsent: (key, value, ttlSeconds) => credentials.setIfAbsent(key, value, ttlSeconds),
    touch: (key, ttlSeconds) => credentials.touch(key, ttlSeconds),
    del: (key) => credentials.del(key),
    async close() {
      await Promise.all([counters.close(), credentials.close()]);
    },
  };
}
