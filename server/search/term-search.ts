/** What the engine asks of a build's word index: Pagefind's answer for one search term. */

/** One page of a term's answer. */
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

export interface TermSearch {
  search(term: string, keep?: Keep): Promise<RawHit[]>;
  close(): Promise<void>;
}
