/**
 * The index words a search term matches, as Pagefind 1.5.2 finds them: the term is lower-cased,
 * its diacritics folded and stemmed (Snowball Spanish); every index word that starts with the
 * stem matches, and when none does, the longest index word the stem starts with.
 */
import type { PostingsIndex } from './postings-index.ts';
import { snowballStem } from './stem-es.ts';

const MARKS = /\p{M}/gu;

export interface TermWords {
  /** The term as typed, lower-cased (what the diacritic bonus compares forms with). */
  typed: string;
  stem: string;
  /** Word numbers, ascending. */
  words: number[];
}

export function termWords(index: PostingsIndex, term: string): TermWords | undefined {
  const typed = term.toLowerCase().trim();
  const folded = typed.normalize('NFD').replace(MARKS, '');
  if (folded === '') return undefined;
  const stem = snowballStem(folded);
  let words = index.extensions(stem);
  if (words.length === 0) {
    for (let n = stem.length - 1; n > 0; n--) {
      const word = index.find(stem.slice(0, n));
      if (word >= 0) { words = [word]; break; }
    }
  }
  return { typed, stem, words };
}
