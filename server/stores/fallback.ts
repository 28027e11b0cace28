/**
 * Quota counting that outlives a store outage. Content is public and read-only, so when the
 * shared store (Redis) cannot answer, the content operations keep answering and each process
 * counts the same limits in its own memory: a degraded but bounded service instead of a 503 for
 * everyone. While the store is down a client can get up to N × its quota from N processes; when
 * the store is back its shared counters (which may have died with Redis) take over again.
 *
 * A store that flaps (a Redis filling up under `noeviction`, a failover, a flaky link) must not
 * hand out a fresh quota at every switch. So the process keeps its own windows for its whole life
 * and counts every hit in them, shared or not: going local finds this process's windows complete,
 * and for one window after the last local hit a shared count lower than the local one (a counter
 * Redis lost or could not write) gives way to the local one. No client gets more than its limit
 * per window from one process, however often the store comes and goes; with a steady store the
 * shared count alone decides, as before.
 *
 * One log line when counting goes local (with the reason, no stack: an outage is expected), one
 * when it is shared again. Every hit still asks the store first: the Redis store fails at once
 * while it knows it is down (disconnected, or its circuit breaker open after a failure), so only
 * its probes pay the wait bound.
 *
 * Only quota counting falls back: the wrapper is a counter (`hit`), composed once where the server
 * starts (main.ts) and handed to the quota steps of REST and MCP, which so share its windows.
 * Token checks and the OAuth endpoints use the store itself: they need its data and answer 503
 * while it is down (errors.ts `errorOf`).
 */
import type { Logger } from '../log.ts';
import { StoreUnavailableError } from './errors.ts';
import type { MemoryStore } from './memory.ts';
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

export interface FallbackOptions {
  /** The shared store. */
  primary: Pick<Store, 'hit'>;
  /** This process's windows (an empty memory store of its own), kept for the server's whole life. */
  fallback: MemoryStore;
  log: Logger;
  /** Clock of the local windows (the store keeps the time of the shared ones). */
  clock?: Clock;
  /** Told of each hit counted in this process because the store was unavailable. */
  observer?: { countedLocally(): void } | undefined;
}

export function withFallback(options: FallbackOptions): QuotaCounter {
  const { primary: store, fallback: windows, log } = options;
  const now = options.clock ?? Date.now;
  let local = false;
  /** Until then (ms) a shared count lower than the local one gives way: one window after the last local hit. */
  let distrustUntil = 0;

  const counted = (shared: WindowCount, mine: WindowCount): WindowCount => {
    if (local) {
      local = false;
      log.info('quota store back: quotas are shared again');
    }
    return mine.count > shared.count && now() < distrustUntil ? mine : shared;
  };
  const countLocally = (err: unknown, mine: WindowCount, windowSeconds: number): WindowCount => {
    if (!(err instanceof StoreUnavailableError)) throw err;
    options.observer?.countedLocally();
    distrustUntil = Math.max(distrustUntil, now() + windowSeconds * 1000);
    if (!local) {
      local = true;
      log.error(`quota store unavailable (${err.message}): counting quotas in this process until it is back`);
    }
    return mine;
  };

  return {
    get local() { return local; },
    hit(key, windowSeconds) {
      let shared: WindowCount | Promise<WindowCount>;
      try {
        shared = store.hit(key, windowSeconds);
      } catch (err) {
        return countLocally(err, windows.hit(key, windowSeconds), windowSeconds);
      }
      // A store in this process (the memory store) is its own count: nothing to keep beside it.
      if (!(shared instanceof Promise)) return shared;
      const mine = windows.hit(key, windowSeconds);
      return shared.then((c) => counted(c, mine), (err: unknown) => countLocally(err, mine, windowSeconds));
    },
  };
}
