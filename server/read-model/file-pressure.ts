/**
 * Reading many files without running out of descriptors: at most FILES_AT_ONCE opened at a time
 * (a build of any size loads within a fixed number of descriptors, beside the connections the
 * server holds), and a load that still meets a shortage (EMFILE, ENFILE: the process or the
 * system is out of descriptors) is retried with a growing pause until it succeeds.
 */

/** Files read at once while a build loads (the search index, llms-full.txt's pages). */
export const FILES_AT_ONCE = 16;
const FIRST_PAUSE_MS = 100;
const LONGEST_PAUSE_MS = 5_000;

/** `fn` over `items`, at most `limit` at a time; results in the items' order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * A gate letting at most `limit` runs go at once; a finishing run hands its slot straight to the
 * next waiter, in arrival order.
 */
export function createLimiter(limit: number): <T>(run: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async (run) => {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      return await run();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

export const isDescriptorShortage = (err: unknown): boolean => {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'EMFILE' || code === 'ENFILE';
};

/**
 * `attempt()` until it does not fail for a descriptor shortage; `onShortage` is told of each
 * failed try with the pause before the next. `stop()` true ends the retries with the last error.
 */
export async function retryOnShortage<T>(attempt: () => Promise<T>, onShortage: (err: unknown, pauseMs: number) => void, stop: () => boolean = () => false): Promise<T> {
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    try {
      return await attempt();
    } catch (err) {
      if (!isDescriptorShortage(err) || stop()) throw err;
      onShortage(err, pause);
      await new Promise((resolve) => setTimeout(resolve, pause).unref());
    }
  }
}
