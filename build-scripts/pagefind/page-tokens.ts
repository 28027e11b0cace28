/**
 * The words of each indexed text (`text.split(' ')`, what Pagefind's positions count) as ids,
 * by Pagefind page number, so the server knows the word at a matched position without reading
 * the page's text (postings-writer.ts). Ids count from 1 in the order words first appear, page
 * after page.
 */

/**
 * Ids per slab: pages are views of a few large arrays, not an array each. A large site's ids
 * take hundreds of megabytes; as slabs (each past glibc's largest mmap threshold) they go back to
 * the system once the postings are written, where 100,000 small arrays would stay in the
 * allocator's heap through the rest of the build.
 */
const SLAB = 16 << 20;

export class PageTokens {
  /** Word → id. */
  readonly ids = new Map<string, number>();
  /** Per page, its words' ids. */
  readonly pages: Uint32Array[] = [];
  private slab = new Uint32Array(0);
  private used = 0;

  /** Adds the next page's indexed text. */
  add(text: string): void {
    const words = text.split(' ');
    if (this.used + words.length > this.slab.length) {
      this.slab = new Uint32Array(Math.max(SLAB, words.length));
      this.used = 0;
    }
    const out = this.slab.subarray(this.used, this.used + words.length);
    this.used += words.length;
    const ids = this.ids;
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      let t = ids.get(w);
      if (t === undefined) ids.set(w, t = ids.size + 1);
      out[i] = t;
    }
    this.pages.push(out);
  }
}
