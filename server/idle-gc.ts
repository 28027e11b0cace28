/**
 * One full garbage collection once the server has gone quiet after serving.
 *
 * Why: V8 collects its old generation when it grows past a limit set from what survived the last
 * collection, and its memory reducer, which collects when a program goes quiet, is re-armed only
 * by such a collection. Garbage that a burst of requests promoted below that limit therefore
 * stays resident for as long as the server stays idle. Measured on the sample site
 * (BENCHMARKS.md note 7): after REST and MCP load the heap held 118 MB, 37 MB of it live, for
 * 233 MB of RSS, with no collection in 15 s of idleness; the benchmark's settled RSS after its
 * load ranged 154–207 MB from run to run, depending on where the load left that cycle.
 *
 * Needs `gc` (`node --expose-gc`, as `npm start` runs the server); without it, nothing is done.
 * On the hot path it costs one boolean store per request.
 */

export interface IdleCollector {
  /** A request arrived. */
  touch(): void;
  stop(): void;
}

/** Ticks between checks: a collection runs one to two ticks after the last request. */
export const IDLE_GC_MS = 5_000;

/** The decision alone, one `tick` per interval (what the timer below calls). */
export function idleTicks(gc: () => unknown): { touch(): void; tick(): void } {
  /** A request arrived since the last tick. */
  let active = false;
  /** Requests were served since the last collection. */
  let served = false;
  return {
    touch() { active = true; },
    tick() {
      if (active) {
        active = false;
        served = true;
      } else if (served) {
        served = false;
        gc();
      }
    },
  };
}

export function idleCollector({ gc, intervalMs = IDLE_GC_MS }: { gc: (() => unknown) | undefined; intervalMs?: number }): IdleCollector {
  if (typeof gc !== 'function') return { touch() {}, stop() {} };
  const ticks = idleTicks(gc);
  const timer = setInterval(ticks.tick, intervalMs);
  timer.unref();
  return { touch: ticks.touch, stop: () => clearInterval(timer) };
}
