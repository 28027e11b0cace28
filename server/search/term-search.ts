/** What the engine asks of a build's word index: Pagefind's answer for one search term. */

/** One page of a term's answer. */
export interface RawHit {
  /** Pagefind's page id. */
  id: string;
  score: number;
  /** Word positions in the indexed text (`text.split(' ')`) that matched. */
  words: number[];
  /**
   * Those of `words` whose text word passes the search's `keep`, when the index knows the text's
   * words (else the caller reads them from the text).
   */
  kept?: number[];
}

export interface TermSearch {
  /** `keep`: which text words the caller will keep a matched position for (see `RawHit.kept`). */
  search(term: string, keep?: (textWord: string) => boolean): Promise<RawHit[]>;
  close(): Promise<void>;
}
