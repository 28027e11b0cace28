/**
 * The entries of one page list of a Pagefind index chunk (`[[page delta, locations, meta
 * locations], …]`), read one at a time into arrays reused between entries: a large site's index
 * holds tens of millions of them.
 */
import type { CborReader } from './cbor.ts';

/** A location's weight before any weight marker (Pagefind's decoder starts there). */
const DEFAULT_WEIGHT = 25;
const MAX_WEIGHT = 255;

export class PageEntries {
  /** The current entry's page number, its locations (weight, position, in Pagefind's order) and meta field ids (ascending). */
  page = 0;
  delta = 0;
  count = 0;
  weights = new Int32Array(256);
  positions = new Int32Array(256);
  fields: number[] = [];
  private left = 0;
  private r!: CborReader;

  /** Starts the page list at `r`; returns its entry count. */
  start(r: CborReader): number {
    this.r = r;
    this.left = r.array();
    this.page = 0;
    return this.left;
  }

  next(): void {
    if (this.left-- <= 0) throw new Error('postings: read past a page list');
    const r = this.r;
    const parts = r.array();
    if (parts !== 2 && parts !== 3) throw new Error(`postings: a page entry of ${parts} fields`);
    this.delta = r.uint();
    this.page += this.delta;
    // Locations: a negative number sets the weight of those after it, whose positions restart
    // from zero; the others are deltas from the previous position.
    const n = r.array();
    if (n > this.weights.length) { this.weights = new Int32Array(2 * n); this.positions = new Int32Array(2 * n); }
    let weight = DEFAULT_WEIGHT;
    let last = 0;
    let count = 0;
    for (let j = 0; j < n; j++) {
      const x = r.int();
      if (x < 0) { weight = Math.min(MAX_WEIGHT, -(x + 1)); last = 0; } else { last += x; this.weights[count] = weight; this.positions[count++] = last; }
    }
    this.count = count;
    // Meta locations: a negative number names the field (-(id + 1)) of the positions after it.
    this.fields.length = 0;
    if (parts === 3) {
      const m = r.array();
      let field = 0;
      for (let j = 0; j < m; j++) {
        const x = r.int();
        if (x < 0) field = -(x + 1); else if (!this.fields.includes(field)) this.fields.push(field);
      }
      this.fields.sort((a, b) => a - b);
    }
  }
}
