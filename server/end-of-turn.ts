/**
 * Answers at the end of the event loop's I/O phase: calls queued while libuv delivers a poll
 * phase's events (each a request that was read) run together right after it (`setImmediate`, the
 * check phase of the same loop iteration), in arrival order.
 *
 * Why, measured on a 2-core VM under wrk (A/B runs in BENCHMARKS.md, third session):
 *   - the responses of one turn go out back to back: the first write wakes the peer and the
 *     others find it awake, where a response written inside each socket's read callback wakes it
 *     again every time (a cross-CPU wake-up is an IPI, which costs a VM exit). read_page with the
 *     memory store went from 0.67–0.87 to 0.85–0.90 of the bare node:http baseline's req/s in
 *     three of four A/B runs (one, on a loaded machine, measured 9 % more CPU per response);
 *   - the quota hits of one turn reach the Redis store in one synchronous run, so they go as one
 *     command per subject (stores/coalesce-hits.ts) instead of one command for the first and one
 *     for the rest.
 * An idle server adds no wait: the check phase follows the poll phase that read the request.
 */
export function endOfTurn<A, B>(handle: (a: A, b: B) => void): (a: A, b: B) => void {
  /** Flat pairs: a, b, a, b… (one array, no object per call). */
  let queue: Array<A | B> = [];
  const flush = () => {
    const calls = queue;
    queue = [];
    for (let i = 0; i < calls.length; i += 2) handle(calls[i] as A, calls[i + 1] as B);
  };
  return (a, b) => {
    if (queue.push(a, b) === 2) setImmediate(flush);
  };
}
