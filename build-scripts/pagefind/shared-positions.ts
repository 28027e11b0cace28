/**
 * Which word positions of each page more than one index location occupies (two words of a
 * compound, or one word twice): Pagefind counts such a position once, for the location its sort
 * leaves first, so the server scores a page with one from its locations rather than from sums.
 * A bit per position of each page's text, set once seen and again once seen twice. The marks
 * live in memory threads share: parts of the index are scanned apart and their marks joined.
 */
export interface PositionMarks {
  seen: Uint8Array;
  twice: Uint8Array;
}

export class SharedPositions {
  private readonly base: Float64Array;
  readonly marks: PositionMarks;

  /** `lengths`: each page's word count; `marks`, those of an earlier scan (default: none yet). */
  constructor(private readonly lengths: ArrayLike<number>, marks?: PositionMarks) {
    this.base = new Float64Array(lengths.length + 1);
    for (let p = 0; p < lengths.length; p++) this.base[p + 1] = this.base[p]! + lengths[p]!;
    const bytes = Math.ceil(this.base[lengths.length]! / 8);
    const shared = () => new Uint8Array(new SharedArrayBuffer(bytes));
    this.marks = marks ?? { seen: shared(), twice: shared() };
    if (this.marks.seen.length !== bytes || this.marks.twice.length !== bytes) throw new Error('postings: position marks of other pages');
  }

  /**
   * The marks of scans of disjoint parts of the index, as one scan of all of it: a position
   * is seen twice when one part saw it twice or two parts saw it.
   */
  static join(lengths: ArrayLike<number>, parts: readonly PositionMarks[]): SharedPositions {
    const joined = new SharedPositions(lengths);
    const { seen, twice } = joined.marks;
    for (const part of parts) {
      for (let i = 0; i < seen.length; i++) {
        twice[i] = twice[i]! | part.twice[i]! | (seen[i]! & part.seen[i]!);
        seen[i] = seen[i]! | part.seen[i]!;
      }
    }
    return joined;
  }

  mark(page: number, position: number): void {
    if (position >= this.lengths[page]!) return;
    const bit = this.base[page]! + position;
    const i = Math.floor(bit / 8);
    const m = 1 << (bit % 8);
    const { seen, twice } = this.marks;
    if (seen[i]! & m) twice[i] = twice[i]! | m; else seen[i] = seen[i]! | m;
  }

  /** Whether another location has `position` on `page` (always, for a position past the page's text). */
  shared(page: number, position: number): boolean {
    if (position >= this.lengths[page]!) return true;
    const bit = this.base[page]! + position;
    return (this.marks.twice[Math.floor(bit / 8)]! & (1 << (bit % 8))) !== 0;
  }
}
