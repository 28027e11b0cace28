/**
 * Which word positions of each page more than one index location occupies (two words of a
 * compound, or one word twice): Pagefind counts such a position once, for the location its sort
 * leaves first, so the server scores a page with one from its locations rather than from sums.
 * A bit per position of each page's text, set once seen and again once seen twice.
 */
export class SharedPositions {
  private readonly base: Float64Array;
  private readonly seen: Uint8Array;
  private readonly twice: Uint8Array;

  constructor(private readonly lengths: ArrayLike<number>) {
    this.base = new Float64Array(lengths.length + 1);
    for (let p = 0; p < lengths.length; p++) this.base[p + 1] = this.base[p]! + lengths[p]!;
    const bytes = Math.ceil(this.base[lengths.length]! / 8);
    this.seen = new Uint8Array(bytes);
    this.twice = new Uint8Array(bytes);
  }

  mark(page: number, position: number): void {
    if (position >= this.lengths[page]!) return;
    const bit = this.base[page]! + position;
    const i = Math.floor(bit / 8);
    const m = 1 << (bit % 8);
    if (this.seen[i]! & m) this.twice[i] = this.twice[i]! | m; else this.seen[i] = this.seen[i]! | m;
  }

  /** Whether another location has `position` on `page` (always, for a position past the page's text). */
  shared(page: number, position: number): boolean {
    if (position >= this.lengths[page]!) return true;
    const bit = this.base[page]! + position;
    return (this.twice[Math.floor(bit / 8)]! & (1 << (bit % 8))) !== 0;
  }
}
