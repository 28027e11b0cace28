/**
 * What the search stage writes into `builds/<id>/search/` besides Pagefind's bundle, and how a
 * server reads it:
 *
 *   search/pagefind/     Pagefind's bundle (pagefind.js, wasm, meta, index/filter/fragment chunks)
 *   search/sidecar.bin   binary (formats/read-model/binary-file.ts), sections below: per Pagefind
 *                        page id the site path, the byte length of its indexed text in texts.txt
 *                        and the stems of its title and of its headings and description; the
 *                        build's vocabulary with page counts (typo correction, stop-junk checks)
 *                        and each word's stem. Stems are numbers into one stem list, so a server
 *                        stems nothing and parses nothing per page or word when it opens a build.
 *   search/texts.txt     the exact text indexed for each page (excerpts are cut from it, so no
 *                        fragment is loaded per query), UTF-8, in the order of the sidecar's
 *                        pages, each followed by a newline: servers read a page's text by its
 *                        offset instead of holding every text in memory.
 *   search/lexicon.json  the search lexicon, compiled (formats/schemas/lexicon.ts)
 *   search/words-es.bloom, words-en.bloom  the real-words filters, Spanish and English (bloom.ts)
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { readBinaryFile, StringColumn, type BinaryKind, type BinarySections } from '../read-model/binary-file.ts';
import { PageStems } from './page-stems.ts';
import type { VocabularyData } from './vocabulary.ts';

export const SIDECAR_FILE = 'sidecar.bin';
export const TEXTS_FILE = 'texts.txt';
export const PAGEFIND_DIR = 'pagefind';
export const LEXICON_FILE = 'lexicon.json';
export const SPANISH_WORDS_FILE = 'words-es.bloom';
export const ENGLISH_WORDS_FILE = 'words-en.bloom';
/**
 * 3: texts in texts.txt, read by offset (2 held them in search.json).
 * 4: binary sidecar.bin, with the stems of titles, headings and vocabulary words.
 */
export const SIDECAR_FORMAT = 4;
export const SIDECAR_KIND: BinaryKind = { magic: 'AGSEARCH', format: SIDECAR_FORMAT };

/**
 * Sections of sidecar.bin. Strings are pairs of sections (binary-file.ts `encodeStrings`): page
 * ids, page paths, vocabulary words (sorted), stems. Each page's stems of a field are its stem
 * numbers, ascending, at `starts[i] .. starts[i + 1]` of the field's list (page-stems.ts); the
 * words of each stem, as vocabulary.ts `wordsByStem` orders them, likewise.
 */
export const SIDECAR_SECTIONS = {
  head: 0, idEnds: 1, idHeap: 2, pathEnds: 3, pathHeap: 4, textBytes: 5,
  wordEnds: 6, wordHeap: 7, wordPages: 8, wordStems: 9, stemEnds: 10, stemHeap: 11,
  titleStarts: 12, titleStems: 13, headStarts: 14, headStems: 15, byStemStarts: 16, byStem: 17,
} as const;

export const SidecarHeadSchema = z.object({
  site_url: z.url(),
  pages: z.number().int().nonnegative(),
  words: z.number().int().nonnegative(),
  stems: z.number().int().nonnegative(),
}).strict();

/** The sidecar of one build, as it lies in its file. */
export class Sidecar {
  readonly siteUrl: string;
  /** Pages indexed. */
  readonly size: number;
  private readonly ids: StringColumn;
  private readonly paths: StringColumn;
  private readonly textBytes: Uint32Array;
  private readonly words: StringColumn;
  private readonly wordPages: Uint32Array;
  private readonly wordStems: Uint32Array;
  private readonly stemList: StringColumn;
  private readonly fields: { titleStarts: Uint32Array; titleStems: Int32Array; headStarts: Uint32Array; headStems: Int32Array };
  private readonly byStemStarts: Uint32Array;
  private readonly byStem: Uint32Array;

  constructor(file: BinarySections) {
    const name = file.label;
    const S = SIDECAR_SECTIONS;
    const head = file.head(S.head, SidecarHeadSchema);
    const { pages, words, stems } = head;
    const strings = (ends: number, heap: number, count: number) => new StringColumn(file.u32(ends, count + 1), file.bytes(heap), name);
    this.siteUrl = head.site_url;
    this.size = pages;
    this.ids = strings(S.idEnds, S.idHeap, pages);
    this.paths = strings(S.pathEnds, S.pathHeap, pages);
    this.textBytes = file.u32(S.textBytes, pages);
    this.words = strings(S.wordEnds, S.wordHeap, words);
    this.wordPages = file.u32(S.wordPages, words);
    this.wordStems = file.u32(S.wordStems, words);
    this.stemList = strings(S.stemEnds, S.stemHeap, stems);
    for (const s of this.wordStems) if (s >= stems) throw new Error(`${name}: a word's stem is not in the stem list`);
    const field = (starts: number, list: number) => {
      const at = file.u32(starts, pages + 1);
      const numbers = file.i32(list);
      if (at[0] !== 0 || at[pages] !== numbers.length) throw new Error(`${name}: section ${starts} does not cover section ${list}`);
      for (let i = 0; i < pages; i++) if (at[i + 1]! < at[i]!) throw new Error(`${name}: section ${starts} goes backwards at page ${i}`);
      for (const n of numbers) if (n < 0 || n >= stems) throw new Error(`${name}: section ${list} names a stem not in the stem list`);
      return { at, numbers };
    };
    const titles = field(S.titleStarts, S.titleStems);
    const heads = field(S.headStarts, S.headStems);
    this.fields = { titleStarts: titles.at, titleStems: titles.numbers, headStarts: heads.at, headStems: heads.numbers };
    this.byStemStarts = file.u32(S.byStemStarts, stems + 1);
    this.byStem = file.u32(S.byStem, words);
    if (this.byStemStarts[0] !== 0 || this.byStemStarts[stems] !== words) throw new Error(`${name}: the words by stem do not cover the vocabulary`);
    for (let s = 0; s < stems; s++) if (this.byStemStarts[s + 1]! < this.byStemStarts[s]!) throw new Error(`${name}: the words by stem go backwards at stem ${s}`);
    for (const w of this.byStem) if (w >= words) throw new Error(`${name}: a stem names a word not in the vocabulary`);
  }

  /** Pagefind's id of page i (its fragment hash), as search results return it. */
  id(i: number): string { return this.ids.get(i); }
  path(i: number): string { return this.paths.get(i); }
  /** UTF-8 bytes of the text given to Pagefind for page i (single spaces: its word positions index `text.split(' ')`). */
  bytes(i: number): number { return this.textBytes[i]!; }

  /** Where each page's text starts in texts.txt, one more entry than pages (the file's end). */
  textOffsets(): Float64Array {
    const out = new Float64Array(this.size + 1);
    for (let i = 0; i < this.size; i++) out[i + 1] = out[i]! + this.textBytes[i]! + 1;
    return out;
  }

  /** Stem → number, made once: the vocabulary and the page stems share it. */
  private stemNumbers: Map<string, number> | undefined;
  private stemIds(): Map<string, number> {
    if (this.stemNumbers === undefined) {
      this.stemNumbers = new Map();
      for (let i = 0; i < this.stemList.size; i++) this.stemNumbers.set(this.stemList.get(i), i);
    }
    return this.stemNumbers;
  }

  /** Folded word, the number of pages it appears in (title included), and its stem; alphabetically. */
  *vocabulary(): Iterable<[word: string, pages: number, stem: string]> {
    for (let i = 0; i < this.wordPages.length; i++) yield [this.words.get(i), this.wordPages[i]!, this.stemList.get(this.wordStems[i]!)];
  }

  /** The vocabulary as vocabulary.ts `Vocabulary` reads it, where it lies. */
  vocabularyData(): VocabularyData {
    return { words: this.words, pages: this.wordPages, stemIds: this.stemIds(), byStemStarts: this.byStemStarts, byStem: this.byStem };
  }

  /** The stems of each page's title, and of its headings and description, numbered alike. */
  stems(): { titles: PageStems; heads: PageStems } {
    const ids = this.stemIds();
    const f = this.fields;
    return { titles: PageStems.over(ids, f.titleStarts, f.titleStems), heads: PageStems.over(ids, f.headStarts, f.headStems) };
  }
}

export async function readSidecar(searchDir: string): Promise<Sidecar> {
  return new Sidecar(await readBinaryFile(path.join(searchDir, SIDECAR_FILE), SIDECAR_KIND));
}

/** Every indexed page with its text (tools and tests; servers read texts one at a time). */
export async function readIndexedPages(searchDir: string): Promise<Array<{ id: string; path: string; bytes: number; text: string }>> {
  const sidecar = await readSidecar(searchDir);
  const texts = await fs.readFile(path.join(searchDir, TEXTS_FILE));
  const at = sidecar.textOffsets();
  return Array.from({ length: sidecar.size }, (_, i) => ({
    id: sidecar.id(i), path: sidecar.path(i), bytes: sidecar.bytes(i), text: texts.toString('utf8', at[i]!, at[i]! + sidecar.bytes(i)),
  }));
}
