/**
 * A word's token table (postings-format.ts): the tokens of its locations, the ones in most
 * entries first, so a common entry names its tokens in the low bits of a small mask. Counted in
 * the writer's first pass over the index, kept per word until its record is written.
 */
export class TokenTable {
  private readonly entries = new Map<number, number>();
  private readonly seen: number[] = [];

  /** Counts an entry: its locations' `positions` (the first `count`) on a page whose token ids are `tokens`. */
  add(tokens: Uint32Array, positions: Int32Array, count: number): void {
    const seen = this.seen;
    seen.length = 0;
    for (let j = 0; j < count; j++) {
      const token = tokens[positions[j]!] ?? 0;
      if (token !== 0 && !seen.includes(token)) { seen.push(token); this.entries.set(token, (this.entries.get(token) ?? 0) + 1); }
    }
  }

  /** The table of the entries counted since the last call, and a fresh start. */
  take(): Uint32Array {
    const table = Uint32Array.from([...this.entries].sort((a, b) => b[1] - a[1] || a[0] - b[0]), ([token]) => token);
    this.entries.clear();
    return table;
  }
}
