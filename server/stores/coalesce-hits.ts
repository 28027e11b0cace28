/**
 * Request coalescing for a shared counter, as a wrapper around a store that can add several hits
 * at once (AddsHits: the Redis store). Under load, many requests of one subject (an agent, an IP)
 * arrive while that subject's previous increment is still on its way to Redis; sending one
 * command each costs every request a command's encoding, reply parsing and promise chain. So per
 * key at most one increment is in flight: the hits that arrive meanwhile wait for it and then go
 * together as one atomic `+n`, and each gets the count it would have had alone (the batch's total
 * minus the hits after it). The first hit of a quiet key waits only for the end of the
 * synchronous run it came in (a microtask), so that the hits of the same run go with it: the API
 * handles a loop turn's requests in one run (end-of-turn.ts). An idle server adds no latency; a
 * busy one adds at most one round trip.
 *
 * Exactness across processes is unchanged: every increment is atomic in Redis, and within a batch
 * the counts are consecutive, as if its hits had been sent back to back.
 */
import type { AddsHits, Store, WindowCount } from './types.ts';

interface Waiter { resolve: (w: WindowCount) => void; reject: (err: unknown) => void }

interface KeyState {
  windowSeconds: number;
  /** Hits not sent yet: they go when the increment in flight (or the current run) ends. */
  waiting: Waiter[];
}

/**
 * `store` with its hits coalesced; a store without `addHits` (memory.ts) is returned as it is:
 * it counts at once, so no hit is ever in flight to join.
 */
export function coalesceHits(store: Store & Partial<AddsHits>): Store {
  if (store.addHits === undefined) return store;
  const addHits = store.addHits.bind(store);
  /** Keys with an increment in flight or about to be sent. */
  const busy = new Map<string, KeyState>();

  const send = (key: string, state: KeyState, batch: Waiter[]) => {
    let sent: Promise<WindowCount>;
    // A synchronous throw must fail the batch, not leave the key busy for good.
    try { sent = addHits(key, batch.length, state.windowSeconds); } catch (err) { sent = Promise.reject(err); }
    sent.then(
      ({ count, resetSeconds }) => {
        const first = count - batch.length;
        for (let i = 0; i < batch.length; i++) batch[i]!.resolve({ count: first + i + 1, resetSeconds });
        next(key, state);
      },
      (err: unknown) => {
        for (const w of batch) w.reject(err);
        next(key, state);
      },
    );
  };

  const next = (key: string, state: KeyState) => {
    if (state.waiting.length === 0) { busy.delete(key); return; }
    const batch = state.waiting;
    state.waiting = [];
    send(key, state, batch);
  };

  const hit = (key: string, windowSeconds: number) => new Promise<WindowCount>((resolve, reject) => {
    const state = busy.get(key);
    if (state !== undefined) { state.waiting.push({ resolve, reject }); return; }
    const fresh: KeyState = { windowSeconds, waiting: [{ resolve, reject }] };
    busy.set(key, fresh);
    queueMicrotask(() => next(key, fresh));
  });
  return { ...store, hit };
}
