/**
 * The storage interface behind quotas, rate limits, OAuth clients and tokens. One in-process
 * implementation (default) and one Redis implementation (REDIS_URL). Keys are given without
 * the deployment prefix; the store adds it.
 */
export interface WindowCount {
  /** Hits in the current window, this one included. */
  count: number;
  /** Seconds until the window ends (≥ 1 while it is open). */
  resetSeconds: number;
}

export interface Store {
  /**
   * Fixed-window counter: atomically adds one hit to `key`. The window opens at the key's first
   * hit and lasts `windowSeconds`; across processes sharing one backend the count is exact.
   * An in-process store answers at once (no promise): the quota step is on every API request,
   * and a promise turn there is measurable (server/chain.ts).
   */
  hit(key: string, windowSeconds: number): WindowCount | Promise<WindowCount>;
  /** The current window of `key` without counting (count 0 and a full window when none is open). */
  peek(key: string, windowSeconds: number): Promise<WindowCount>;
  get(key: string): Promise<string | null>;
  /** Sets `key` with a time to live; the backend expires it (no sweeper). */
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  /** Sets only when absent; true when it was set. */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  /** Renews the time to live of an existing key; false when it does not exist. */
  touch(key: string, ttlSeconds: number): Promise<boolean>;
  del(key: string): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * A store whose counter takes several hits of a key in one atomic step (Redis): what
 * coalesce-hits.ts batches the hits that arrive while one is on its way into.
 */
export interface AddsHits {
  /** Adds `n` hits to `key` atomically; resolves to the window after them (count includes all n). */
  addHits(key: string, n: number, windowSeconds: number): Promise<WindowCount>;
}

/** Injected clock, so expiry is testable without sleeping. Milliseconds since the epoch. */
export type Clock = () => number;
