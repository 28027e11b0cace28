/**
 * A least-recently-used map bounded by the total weight of its entries: by default each weighs
 * one (a bound on entries); the read model's hot set weighs each by its bytes, since a long
 * page's representations are a hundred times a short one's. A Map's insertion order is the
 * recency order; an entry heavier than the whole bound is not kept. An entry that grows after it
 * was set (encodings made when first asked for, responses kept with it) is weighed again
 * (`reweigh`), so the bound holds for what entries hold, not what they held when set.
 *
 * A hit moves its entry to the newest end only when more than a quarter of the entries were
 * moved or added after it: the hot entries of a busy map then cost one lookup per hit, not a
 * delete and a re-insert, and no entry in the newest quarter is ever the next one evicted.
 */
export class Lru<K, V> {
  private readonly map = new Map<K, { value: V; weight: number; stamp: number }>();
  private held = 0;
  /** Counts moves to the newest end; an entry's stamp is the count when it got there. */
  private clock = 0;

  constructor(private readonly max: number) {}

  get(key: K): V | undefined {
    const entry = this.map.get(key);
    if (entry === undefined) return undefined;
    if (this.clock - entry.stamp > this.map.size >> 2) {
      this.map.delete(key);
      entry.stamp = ++this.clock;
      this.map.set(key, entry);
    }
    return entry.value;
  }

  set(key: K, value: V, weight = 1): void {
    const old = this.map.get(key);
    if (old !== undefined) { this.map.delete(key); this.held -= old.weight; }
    if (weight > this.max) return;
    this.map.set(key, { value, weight, stamp: ++this.clock });
    this.held += weight;
    this.evict();
  }

  /** Weighs `key`'s entry again, if it still holds `value`, and evicts the oldest to keep within the bound. */
  reweigh(key: K, value: V, weight: number): void {
    const entry = this.map.get(key);
    if (entry === undefined || entry.value !== value) return;
    this.held += weight - entry.weight;
    entry.weight = weight;
    if (weight > this.max) {
      this.map.delete(key);
      this.held -= weight;
    }
    this.evict();
  }

  private evict(): void {
    for (const [k, e] of this.map) {
      if (this.held <= this.max) break;
      this.map.delete(k);
      this.held -= e.weight;
    }
  }

  /** The total weight held now. */
  get weight(): number {
    return this.held;
  }

  get size(): number {
    return this.map.size;
  }

  clear(): void {
    this.map.clear();
    this.held = 0;
  }
}
