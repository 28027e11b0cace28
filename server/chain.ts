/** A value known now, or later. */
export type Maybe<T> = T | Promise<T>;

/**
 * `next(value)` now when `value` is already known, after it resolves when it is a promise.
 *
 * The API's steps (credential, quota) answer at once with the memory store and without a token,
 * and only wait for Redis or a token lookup. Awaiting a plain value still costs a microtask turn
 * and a promise per step, so the hot path chains with this instead of `async`/`await`: an answer
 * that needs no I/O is written within the request's own tick. A synchronous throw in `next`
 * propagates synchronously; the caller handles both (try/catch around a possibly returned promise).
 */
export function chain<T, R>(value: Maybe<T>, next: (value: T) => Maybe<R>): Maybe<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
