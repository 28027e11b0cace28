/**
 * Quota counting that outlives a store outage. Content is public and read-only, so when the
 * shared store (Redis) cannot answer, the content operations keep answering and each process
 * counts the same limits in its own memory: a degraded but bounded service instead of a 503 for
 * everyone. While the store is down a client can get up to N × its quota from N processes; each
 * outage starts from empty local windows, and when the store is back its shared counters (which
 * may have died with Redis) take over again.
 *
 * One log line when counting goes local, one when it is shared again. Every hit still asks the
 * store first: the Redis store fails at once while it knows it is down (disconnected, or its
 * circuit breaker open after a failure), so only its probes pay the wait bound.
 *
 * Only quota counting falls back. Token checks and the OAuth endpoints need the store's data
 * and answer 503 while it is down (errors.ts `errorOf`).
 */
import type { Logger } from '../log.ts';
import { StoreUnavailableError } from './errors.ts';
import { createMemoryStore } from './memory.ts';
import type { Clock, Store, WindowCount } from './types.ts';

export interface QuotaCounter {
  /**
   * Counts one hit of `key` in the shared store, or in this process while the store is
   * unavailable. At once when the store answers at once (memory store).
   */
  hit(key: string, windowSeconds: number): WindowCount | Promise<WindowCount>;
  /** Whether hits are being counted in this process only. */
  readonly local: boolean;
}

export interface QuotaCounterDeps {
  store: Store;
  log: Logger;
  /** Clock of the local windows (the store keeps the time of the shared ones). */
  clock?: Clock;
}

const counters = new WeakMap<Store, QuotaCounter>();

/**
 * The counter of `deps.store`: one per store, so every caller in the process (REST API, MCP)
 * shares the same local windows during an outage, as they share the store's otherwise.
 */
export function quotaCounterOf(deps: QuotaCounterDeps): QuotaCounter {
  let counter = counters.get(deps.store);
  if (counter === undefined) {
    counter = createQuotaCounter(deps);
    counters.set(deps.store, counter);
  }
  return counter;
}

export function createQuotaCounter(deps: QuotaCounterDeps): QuotaCounter {
  const { store, log } = deps;
  const newWindows = () => createMemoryStore(deps.clock ? { clock: deps.clock } : {});
  let windows = newWindows();
  let local = false;

  const counted = (shared: WindowCount): WindowCount => {
    if (local) {
      local = false;
      log.info('quota store back: quotas are shared again');
    }
    return shared;
  };
  const countLocally = (err: unknown, key: string, windowSeconds: number): WindowCount | Promise<WindowCount> => {
    if (!(err instanceof StoreUnavailableError)) throw err;
    if (!local) {
      local = true;
      windows = newWindows();
      log.error('quota store unavailable: counting quotas in this process until it is back', err);
    }
    return windows.hit(key, windowSeconds);
  };

  return {
    get local() { return local; },
    hit(key, windowSeconds) {
      let shared: WindowCount | Promise<WindowCount>;
      try {
        shared = store.hit(key, windowSeconds);
      } catch (err) {
        return countLocally(err, key, windowSeconds);
      }
      return shared instanceof Promise
        ? shared.then(counted, (err: unknown) => countLocally(err, key, windowSeconds))
        : counted(shared);
    },
  };
}
