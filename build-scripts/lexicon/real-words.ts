/**
 * The real-words filters of a build (formats/search/bloom.ts): every word of the Spanish word list
 * (`an-array-of-spanish-words`), and every word of the English one (`an-array-of-english-words`)
 * that is not Spanish, folded. Built once per process: they depend on the packages only.
 */
import { createRequire } from 'node:module';
import { BloomFilter } from '../../formats/search/bloom.ts';
import { fold } from '../../formats/search/text.ts';

const require = createRequire(import.meta.url);
const ONE_WORD = /^[a-z0-9]+$/;

export interface RealWords { spanish: Uint8Array; english: Uint8Array }

let built: RealWords | undefined;

function list(name: string, except?: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const w of require(name) as string[]) {
    const f = fold(w);
    if (ONE_WORD.test(f) && !except?.has(f)) out.add(f);
  }
  return out;
}

function filterOf(words: ReadonlySet<string>): Uint8Array {
  const filter = BloomFilter.sized(words.size);
  for (const w of words) filter.add(w);
  return filter.bytes();
}

let lists: { spanish: Set<string>; english: Set<string> } | undefined;

/** The two word lists, folded; English without the words Spanish has. */
function wordLists(): { spanish: Set<string>; english: Set<string> } {
  if (lists) return lists;
  const spanish = list('an-array-of-spanish-words');
  lists = { spanish, english: list('an-array-of-english-words', spanish) };
  return lists;
}

/** Whether a folded word is in either list, exactly (the filters may say yes to one in a hundred others). */
export function isRealWord(word: string): boolean {
  const { spanish, english } = wordLists();
  return spanish.has(word) || english.has(word);
}

export function realWordsFilters(): RealWords {
  if (built) return built;
  const { spanish, english } = wordLists();
  built = { spanish: filterOf(spanish), english: filterOf(english) };
  return built;
}
