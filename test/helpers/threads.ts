/**
 * Thread counts of this process (Linux, /proc/self/status), for tests that check a pool's or a
 * build's worker threads end.
 *
 * `Worker.terminate()` resolves once the worker's JavaScript has stopped; the OS thread exits a
 * moment later (seen in CI: one thread still counted right after `close()`). So a test waits,
 * bounded, for the count to come back down instead of reading it once.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export function threads(): number {
  return Number(/^Threads:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);
}

/**
 * The thread count once it is `expected` or fewer, or the count when `timeoutMs` runs out (a
 * bound far above the moment a thread takes to exit, which a busy machine stretches).
 */
export async function threadsSettled(expected: number, timeoutMs = 30_000): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  let n = threads();
  while (n > expected && performance.now() < deadline) {
    await sleep(10);
    n = threads();
  }
  return n;
}
