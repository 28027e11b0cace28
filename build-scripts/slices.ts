/**
 * Synchronous work in slices, for the stages that run on the main thread beside the search
 * (site, the page files): each slice lasts at most SLICE_MS, then the event loop gets a turn, so
 * the workers' replies (search slices, page checks) are never kept waiting longer. Synchronous file
 * calls, because a file written through fs.promises costs about three times the CPU in round
 * trips to libuv's pool.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Longest run of synchronous work before the event loop gets a turn. Short: each build worker
 * holds two tasks at once (a page read is quick), and the next only comes once this thread has
 * taken a reply, so a longer slice leaves the crawl's workers idle.
 */
export const SLICE_MS = 2;

/** Calls `each` on every item in order; `progress` after each slice. Stops, throwing its reason, once `signal` is aborted. */
export async function inSlices<T>(items: readonly T[], each: (item: T, index: number) => void, progress: (done: number, total: number) => void, signal?: AbortSignal): Promise<void> {
  let i = 0;
  while (i < items.length) {
    signal?.throwIfAborted();
    const until = performance.now() + SLICE_MS;
    do {
      each(items[i]!, i);
      i++;
    } while (i < items.length && performance.now() < until);
    progress(i, items.length);
    await nextTurn();
  }
}
