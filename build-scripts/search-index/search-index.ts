/**
 * The search index of one read-model build (formats/search/index-file.ts): the pages are analysed
 * in slices, side by side in the build's workers (page-terms.ts), and written in path order as the
 * slices end (index-writer.ts); then the compiled lexicon and the real-words filters.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { CompiledLexicon } from '../../formats/schemas/lexicon.ts';
import { ENGLISH_WORDS_FILE, LEXICON_FILE, SPANISH_WORDS_FILE } from '../../formats/search/index-file.ts';
import { compileLexicon } from '../lexicon/compile.ts';
import { realWordsFilters } from '../lexicon/real-words.ts';
import { byPath } from '../page-index.ts';
import { linked } from '../cache/previous-build.ts';
import { createIndexWriter } from './index-writer.ts';
import { indexPages, type IndexedSlice, type IndexPage, type PageTerms } from './page-terms.ts';
import type { CacheFolders } from '../cache/store.ts';

export { indexedText, type IndexPage } from './page-terms.ts';

/** Pages a worker analyses per task: enough to make a task's round trip negligible, few enough to keep its words small. */
export const SLICE_PAGES = 100;

/**
 * The pages to index: all at hand (in any order), or their number and a reader of consecutive
 * ones in path order, called as each slice starts, so a large site's text is never in memory
 * all at once.
 */
export type PageSource = readonly IndexPage[] | { readonly length: number; read(from: number, to: number): IndexPage[] };

/** Analyses one slice somewhere: in this thread (the default) or in a build worker (the pipeline). */
export type SliceRunner = (task: { pages: IndexPage[]; cache?: CacheFolders }) => Promise<IndexedSlice>;

export async function buildSearchIndex(opts: {
  pages: PageSource;
  outDir: string;
  siteUrl: string;
  /** The compiled search lexicon (default: the empty one). */
  lexicon?: CompiledLexicon;
  runSlice?: SliceRunner;
  /** Pages per slice (SLICE_PAGES). */
  slicePages?: number;
  /** Slices analysed at once (with a runner that spreads them over workers). */
  parallel?: number;
  /** Pages indexed so far. */
  progress?: (done: number) => void;
  /** A published build's search folder made by the same code: its real-words filters are linked, not made again. */
  sharedFrom?: string;
  /** Where each page's terms are found as earlier builds made them, and left when made afresh (cache/page-terms.ts). */
  cache?: CacheFolders;
}): Promise<{ indexed: number; cache?: { keys: Set<string>; hits: number } }> {
  const { outDir, siteUrl } = opts;
  const pages: PageSource = 'read' in opts.pages ? opts.pages : [...opts.pages].sort(byPath);
  const read = (from: number, to: number): IndexPage[] => ('read' in pages ? pages.read(from, to) : pages.slice(from, to));
  const run = opts.runSlice ?? (async (task) => indexPages(task));
  await fs.rm(outDir, { recursive: true, force: true });
  await fs.mkdir(outDir, { recursive: true });
  const writer = createIndexWriter(outDir);
  try {
    const slices: { from: number; to: number }[] = [];
    const size = opts.slicePages ?? SLICE_PAGES;
    for (let i = 0; i < pages.length; i += size) slices.push({ from: i, to: Math.min(pages.length, i + size) });
    // Slices end in any order and are written in page order: each waits for those before it.
    const ended = new Map<number, { slice: IndexPage[]; terms: PageTerms[] }>();
    const cached = opts.cache === undefined ? undefined : { keys: new Set<string>(), hits: 0 };
    const df = new Map<string, number>();
    let written = 0;
    let indexed = 0;
    const writeReady = () => {
      for (let got = ended.get(written); got !== undefined; got = ended.get(written)) {
        ended.delete(written++);
        got.slice.forEach((page, k) => {
          const terms = got.terms[k]!;
          writer.add(page.path, terms);
          for (const w of terms.words) df.set(w, (df.get(w) ?? 0) + 1);
        });
        indexed += got.slice.length;
        opts.progress?.(indexed);
      }
    };
    let next = 0;
    await Promise.all(Array.from({ length: Math.min(Math.max(1, opts.parallel ?? 1), slices.length) }, async () => {
      for (let i = next++; i < slices.length; i = next++) {
        const slice = read(slices[i]!.from, slices[i]!.to);
        const pagesOf = slice.map(({ path: p, title, city, description, markdown }) => ({ path: p, title, city, description, markdown }));
        const { terms, cache } = await run({ pages: pagesOf, ...(opts.cache ? { cache: opts.cache } : {}) });
        if (cached && cache) {
          for (const key of cache.keys) cached.keys.add(key);
          cached.hits += cache.hits;
        }
        ended.set(i, { slice, terms });
        writeReady();
      }
    }));
    writer.finish({ site_url: siteUrl, vocabulary: [...df].sort((a, b) => (a[0] < b[0] ? -1 : 1)) });
    await fs.writeFile(path.join(outDir, LEXICON_FILE), JSON.stringify(opts.lexicon ?? compileLexicon()));
    // The filters come from the locked word lists alone, and making them costs as much as
    // indexing thousands of pages.
    const files = [SPANISH_WORDS_FILE, ENGLISH_WORDS_FILE];
    const shared = opts.sharedFrom;
    if (shared === undefined || !files.every((f) => linked(path.join(shared, f), path.join(outDir, f)))) {
      const realWords = realWordsFilters();
      for (const f of files) await fs.rm(path.join(outDir, f), { force: true });
      await fs.writeFile(path.join(outDir, SPANISH_WORDS_FILE), realWords.spanish);
      await fs.writeFile(path.join(outDir, ENGLISH_WORDS_FILE), realWords.english);
    }
    return { indexed, ...(cached ? { cache: cached } : {}) };
  } finally {
    writer.close();
  }
}
