/** What the engine asks of a build's word index: Pagefind's answer for one search term. */

/** One page of a term's answer. */
export interface RawHit {
  /** Pagefind's page id. */
  id: string;
  score: number;
  /** Word positions in the indexed text (`text.split(' ')`) that matched. */
  words: number[];
  /** The text's word at each of those positions, when the index knows them (else read from the text). */
  tokens?: Array<string | undefined>;
}

export interface TermSearch {
  search(term: string): Promise<RawHit[]>;
  close(): Promise<void>;
}
