/** In-process store: one process only. Expiry is checked on read, so no timers keep it alive. */
import type { Clock, Store, WindowCount } from './types.ts';

interface Entry { value: string; expiresAt: number }
interface Window { count: number; endsAt: number }

/** A store in this process: its counter answers at once. */
export type MemoryStore = Omit<Store, 'hit'> & { hit(key: string, windowSeconds: number): WindowCount };

export function createMemoryStore(options: { clock?: Clock } = {}): MemoryStore {
  const now = options.clock ?? Date.now;
  const values = new Map<string, Entry>();
  const windows = new Map<string, Window>();
  let sweepAt = 0;

  // Drops expired entries now and then, so abandoned keys (one per client IP) do not pile up.
  const sweep = (t: number) => {
    if (t < sweepAt) return;
    sweepAt = t + 60_000;
    for (const [k, w] of windows) if (w.endsAt <= t) windows.delete(k);
    for (const [k, e] of values) if (e.expiresAt <= t) values.delete(k);
  };

  const live = (key: string, t: number): Entry | undefined => {
    const e = values.get(key);
    if (e && e.expiresAt <= t) { values.delete(key); return undefined; }
    return e;
  };

  const reset = (endsAt: number, t: number) => Math.max(1, Math.ceil((endsAt - t) / 1000));

  return {
    hit(key, windowSeconds): WindowCount {
      const t = now();
      sweep(t);
      let w = windows.get(key);
      if (!w || w.endsAt <= t) { w = { count: 0, endsAt: t + windowSeconds * 1000 }; windows.set(key, w); }
      w.count += 1;
      return { count: w.count, resetSeconds: reset(w.endsAt, t) };
    },
    async peek(key, windowSeconds) {
      const t = now();
      const w = windows.get(key);
      if (!w || w.endsAt <= t) return { count: 0, resetSeconds: windowSeconds };
      return { count: w.count, resetSeconds: reset(w.endsAt, t) };
    },
    async get(key) { return live(key, now())?.value ?? null; },
    async set(key, value, ttlSeconds) { values.set(key, { value, expiresAt: now() + ttlSeconds * 1000 }); },
    async setIfAbsent(key, value, ttlSeconds) {
      const t = now();
      if (live(key, t)) return false;
      values.set(key, { value, expiresAt: t + ttlSeconds * 1000 });
      return true;
    },
    async touch(key, ttlSeconds) {
      const t = now();
      const e = live(key, t);
      if (!e) return false;
      e.expiresAt = t + ttlSeconds * 1000;
      return true;
    },
    async del(key) { return values.delete(key) || windows.delete(key); },
    async close() { values.clear(); windows.clear(); },
  };
}
