/**
 * Waiting in tests: on the awaited thing itself, polled, bounded far above what it takes on an
 * idle machine, because the machines that run the tests are shared (builds and other suites run
 * beside them). A bound that runs out fails naming what was awaited.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface WaitOptions {
  /** Default 30 s: tens of times what anything awaited in the tests takes when the machine is idle. */
  timeoutMs?: number;
  everyMs?: number;
}

/** The first truthy value of `check`, polled every `everyMs`; throws once `timeoutMs` has passed. */
export async function waitUntil<T>(what: string, check: () => T | Promise<T>, { timeoutMs = 30_000, everyMs = 25 }: WaitOptions = {}): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (performance.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}
