/**
 * Bytes kept with a shared value after its maker handed it out: respond.ts keeps a search
 * response's serialized and compressed bodies as long as the response lives, which is as long as
 * the search engine's cache keeps it. The cache names itself the value's holder; whoever keeps
 * bytes with the value tells the holder, which weighs its entry again.
 */
const holders = new WeakMap<object, (bytes: number) => void>();

/** `grew` is told of the bytes kept with `value` from now on. */
export function holdWith(value: object, grew: (bytes: number) => void): void {
  holders.set(value, grew);
}

/** Tells `value`'s holder, if it has one, that `bytes` more are kept with it. */
export function keptWith(value: object, bytes: number): void {
  holders.get(value)?.(bytes);
}
