/**
 * The real-words filter of a build (server/search/bloom.ts): every word of the Spanish and English
 * word lists (`an-array-of-spanish-words`, `an-array-of-english-words`), folded. Built once per
 * process: it depends on the packages only, not on the site.
 */
import { createRequire } from 'node:module';
import { BloomFilter } from '../../server/search/bloom.ts';
import { fold } from '../../server/search/text.ts';

const require = createRequire(import.meta.url);
const LISTS = ['an-array-of-spanish-words', 'an-array-of-english-words'];
const ONE_WORD = /^[a-z0-9]+$/;

let built: Uint8Array | undefined;

export function realWordsFilter(): Uint8Array {
  if (built) return built;
  const words = new Set<string>();
  for (const list of LISTS) {
    for (const w of require(list) as string[]) {
      const f = fold(w);
      if (ONE_WORD.test(f)) words.add(f);
    }
  }
  const filter = BloomFilter.sized(words.size);
  for (const w of words) filter.add(w);
  built = filter.bytes();
  return built;
}
