/**
 * Answers at the end of the event loop's I/O phase: calls queued while libuv delivers a poll
 * phase's events (each a request that was read) run together right after it (`setImmediate`, the
 * check phase of the same loop iteration), in arrival order.
 *
 * Why:
 *   - the responses of one turn go out back to back: the first write wakes the peer and the
 *     others find it awake, where a response written inside each socket's read callback wakes it
 *     again every time (a cross-CPU wake-up is an IPI, which costs a VM exit);
 *   - the quota hits of one turn reach the Redis store in one synchronous run, so they go as one
 *     command per subject (stores/coalesce-hits.ts) instead of one command for the first and one
 *     for the rest.
 * An idle server adds no wait: the check phase follows the poll phase that read the request.
 */
export function endOfTurn<A, B, C = void>(handle: (a: A, b: B, c: C) => void): (a: A, b: B, c: C) => void {
  /** Flat triples: a, b, c, a, b, c… (one array, no object per call). */
  let queue: Array<A | B | C> = [];
  const flush = () => {
    const calls = queue;
    queue = [];
    for (let i = 0; i < calls.length; i += 3) handle(calls[i] as A, calls[i + 1] as B, calls[i + 2] as C);
  };
  return (a, b, c) => {
    if (queue.push(a, b, c) === 3) setImmediate(flush);
  };
}
