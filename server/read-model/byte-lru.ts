/**
 * A least-recently-used map bounded by bytes, not entries: the hot set of page representations,
 * whose sizes differ by a hundred times between a short page and a long one. A Map's insertion
 * order is the recency order; an entry larger than the whole budget is not kept.
 */
export interface ByteLru<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V, bytes: number): void;
  /** Bytes held now. */
  readonly bytes: number;
  readonly size: number;
}

export function createByteLru<K, V>(options: { maxBytes: number }): ByteLru<K, V> {
  const map = new Map<K, { value: V; bytes: number }>();
  let held = 0;
  return {
    get(key) {
      const entry = map.get(key);
      if (entry === undefined) return undefined;
      map.delete(key);
      map.set(key, entry);
      return entry.value;
    },
    set(key, value, bytes) {
      const old = map.get(key);
      if (old !== undefined) { map.delete(key); held -= old.bytes; }
      if (bytes > options.maxBytes) return;
      map.set(key, { value, bytes });
      held += bytes;
      for (const [k, e] of map) {
        if (held <= options.maxBytes) break;
        map.delete(k);
        held -= e.bytes;
      }
    },
    get bytes() { return held; },
    get size() { return map.size; },
  };
}
