/** What the engine asks of a build's word index: Pagefind's answer for one search term. */

/** One page of a term's answer, in full: what Pagefind itself returns. */
export interface RawHit {
  /** Pagefind's page id. */
  id: string;
  score: number;
  /** Word positions in the indexed text (`text.split(' ')`) that matched (none when `kept` is given). */
  words: number[];
  /**
   * When the search was given `keep` and the index knows the text's words: the first `keep.max`
   * matched positions whose text word passes `keep.word` (else the caller reads the words).
   */
  kept?: number[];
}

/** Which matched positions the caller keeps: those whose text word passes `word`, the first `max`. */
export interface Keep {
  word: (textWord: string) => boolean;
  max: number;
}

/**
 * A term's answer as columns, for the engine: hit k is page `pages[k]` (the index's page number,
 * ascending) with Pagefind's score `scores[k]`. A common word is on most pages of a large site:
 * no object per page.
 */
export interface TermHits {
  readonly count: number;
  readonly pages: Int32Array;
  /** Pagefind's score of each hit (single-precision values). */
  readonly scores: Float32Array;
  /** With a `word` test: 1 when a matched location's text word passes it, else 0. */
  readonly kept: Uint8Array | undefined;
}

export interface TermSearch {
  /** Pagefind's page id of each page number. */
  readonly pageIds: readonly string[];
  /** The pages `term` matches, their scores and (given `word`) whether a matched text word passes it. */
  hits(term: string, word?: (textWord: string) => boolean): TermHits;
  /**
   * Page `page`'s matched positions for `term` that `keep` keeps, ascending, as RawHit `kept`:
   * what an excerpt needs, for the few pages a response shows.
   */
  positions(term: string, page: number, keep: Keep): number[];
  close(): Promise<void>;
}
