/** What the engine asks of a build's word index: Pagefind's answer for one search term. */

/** One page of a term's answer. */
export interface RawHit {
  /** Pagefind's page id. */
  id: string;
  score: number;
  /** Word positions in the indexed text (`text.split(' ')`) that matched. */
  words: number[];
}

export interface TermSearch {
  search(term: string): Promise<RawHit[]>;
  close(): Promise<void>;
}
