import { ownString } from './own-string.ts';

/**
 * A function's results remembered by argument, for strings a hot path sees over and over (a
 * client's address, a query string). Bounded: at `max` entries all are dropped and refilled, so
 * a stream of distinct arguments costs no more memory and little time (no recency bookkeeping
 * on the hit path, which is the one that matters). Keys longer than `maxKeyLength` are passed
 * through: long strings are rarely repeated, and they would hold memory. A key is kept as a copy,
 * and the value made from the copy: a key cut from a longer string (an address from a header)
 * would keep that string alive.
 */
export function memoize<V>(fn: (key: string) => V, max: number, maxKeyLength = 256): (key: string) => V {
  const results = new Map<string, V>();
  return (key) => {
    if (key.length > maxKeyLength) return fn(key);
    let value = results.get(key);
    if (value === undefined) {
      const own = ownString(key);
      value = fn(own);
      if (results.size >= max) results.clear();
      results.set(own, value);
    }
    return value;
  };
}
