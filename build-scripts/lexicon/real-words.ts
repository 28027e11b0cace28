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

export function realWordsFilters(): RealWords {
  if (built) return built;
  const spanish = list('an-array-of-spanish-words');
  built = { spanish: filterOf(spanish), english: filterOf(list('an-array-of-english-words', spanish)) };
  return built;
}
