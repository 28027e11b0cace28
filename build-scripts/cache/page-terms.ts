/**
 * What the search index holds of each page (search-index/page-terms.ts: its text, stems and
 * words), kept between builds and found by a hash of everything it is made from: the page's path,
 * title, city, description and Markdown, and the build's code (code-version.ts names the folder).
 * A page as it was skips its analysis and yields what analysing it again would, by construction.
 * An entry that cannot be read back is made again.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { IndexPage, PageTerms } from '../search-index/page-terms.ts';
import { entryFile, loadJsonEntry, writeEntry } from './store.ts';

const EXT = '.json';
const words = z.array(z.string());

const Entry = z.object({
  text: z.string(),
  titleStems: words,
  headStems: words,
  stems: words,
  counts: z.array(z.number().int().positive()),
  tokens: z.number().int().nonnegative(),
  words,
}).strict().refine((e) => e.counts.length === e.stems.length, 'a count per stem');

export function pageTermsKey(page: IndexPage): string {
  const hash = createHash('sha256');
  for (const part of [page.path, page.title, page.city, page.description, page.markdown]) hash.update(part).update('\0');
  return hash.digest('hex');
}

/** The entry of `key`: undefined when there is none, 'damaged' when it cannot be read back. */
export const loadPageTerms = (dir: string, key: string): PageTerms | undefined | 'damaged' => loadJsonEntry(dir, key, (v) => Entry.parse(v));

export function storePageTerms(dir: string, key: string, terms: PageTerms): void {
  const { text, titleStems, headStems, stems, counts, tokens, words: all } = terms;
  writeEntry(entryFile(dir, key, EXT), JSON.stringify({ text, titleStems, headStems, stems, counts, tokens, words: all }));
}
