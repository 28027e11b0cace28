/**
 * Sets of page numbers for one query: marks by page number that need no clearing between
 * rounds, and the galloping step of joining ascending page lists.
 */

/** Marks by page number: a page is marked in the current round when it holds the round's number (no clearing between rounds). */
export class Marks {
  private readonly marks: Uint32Array;
  private round = 1;
  constructor(size: number) {
    this.marks = new Uint32Array(size);
  }

  /** Starts a round: no page is marked. */
  next(): void {
    if (++this.round === 2 ** 32) { this.marks.fill(0); this.round = 1; }
  }

  /** The pages marked in this round, ascending. */
  marked(): Int32Array {
    const { marks, round } = this;
    let n = 0;
    for (let d = 0; d < marks.length; d++) if (marks[d] === round) n++;
    const out = new Int32Array(n);
    for (let d = 0, k = 0; k < n; d++) if (marks[d] === round) out[k++] = d;
    return out;
  }

  /** Marks page `d`; whether it was not marked yet. */
  mark(d: number): boolean {
    if (this.marks[d] === this.round) return false;
    this.marks[d] = this.round;
    return true;
  }

  /** Marks every page of `list` (those `within` has marked, when given). */
  markAll(list: Int32Array, within?: Marks): void {
    const { marks, round } = this;
    if (within === undefined) {
      for (let i = 0; i < list.length; i++) marks[list[i]!] = round;
      return;
    }
    for (let i = 0; i < list.length; i++) if (within.has(list[i]!)) marks[list[i]!] = round;
  }

  /** Whether page `d` is marked in this round. */
  has(d: number): boolean {
    return this.marks[d] === this.round;
  }
}

/** Index of the first of `docs[from..]` not below `d` (ascending): galloping, so a long skip costs its logarithm. */
export function advance(docs: Int32Array, from: number, d: number): number {
  if (from >= docs.length || docs[from]! >= d) return from;
  let lo = from;
  let step = 1;
  while (lo + step < docs.length && docs[lo + step]! < d) { lo += step; step *= 2; }
  let hi = Math.min(lo + step, docs.length);
  // docs[lo] < d, and docs[hi] >= d or hi is the end.
  while (lo + 1 < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid]! < d) lo = mid; else hi = mid;
  }
  return hi;
}
