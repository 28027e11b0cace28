/**
 * The search index of one build, as the build writes it into `builds/<id>/search/` and a server
 * reads it. This is the one description of the format; docs/search.md explains it for readers.
 *
 *   index.bin     binary (formats/read-model/binary-file.ts), sections below: per page its site
 *                 path, the byte length of its text in texts.txt and its number of body tokens;
 *                 the vocabulary (folded words, sorted, with the pages each is on and its stem);
 *                 the stem list, which numbers every stem; per page the stems of its title and of
 *                 its headings and description; per stem where its postings lie in postings.bin
 *                 and how many pages they hold.
 *   postings.bin  (its SHA-256 in index.bin's head) per stem, in stem order: the pages whose text holds a word of that stem, as
 *                 unsigned LEB128 varints (the first page number, then the gaps), then as many
 *                 varints for the number of times the stem occurs on each of those pages.
 *   texts.txt     the text indexed for each page, UTF-8, in page order, each followed by a newline.
 *                 Tokens are the text's words between single spaces: a token's position is its
 *                 index there, so excerpts and phrase checks find positions by reading the text.
 *   lexicon.json  the search lexicon, compiled (formats/schemas/lexicon.ts)
 *   words-es.bloom, words-en.bloom  the real-words filters, Spanish and English (bloom.ts)
 *
 * Pages are numbered in path order. Words are folded and split by text.ts `words` and stemmed by
 * stem-es.ts, at build and at query time alike. The format has its own number (INDEX_FORMAT): a
 * server refuses a build of another format and asks for a rebuild, as for the read model's files.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { readBinaryFile, StringColumn, type BinaryKind, type BinarySections } from '../read-model/binary-file.ts';
import { PageStems } from './page-stems.ts';
import type { VocabularyData } from './vocabulary.ts';

export const INDEX_FILE = 'index.bin';
export const POSTINGS_FILE = 'postings.bin';
export const TEXTS_FILE = 'texts.txt';
export const LEXICON_FILE = 'lexicon.json';
export const SPANISH_WORDS_FILE = 'words-es.bloom';
export const ENGLISH_WORDS_FILE = 'words-en.bloom';
export const INDEX_FORMAT = 1;
export const INDEX_KIND: BinaryKind = { magic: 'AGSINDEX', format: INDEX_FORMAT };

/**
 * Sections of index.bin. Strings are pairs of sections (binary-file.ts `encodeStrings`). A page's
 * stems of a field are its stem numbers, ascending, at `starts[i] .. starts[i + 1]` of the field's
 * list (page-stems.ts); the words of each stem, as vocabulary.ts `wordsByStem` orders them,
 * likewise. Stem s's postings are the bytes `postingsAt[s] .. postingsAt[s + 1]` of postings.bin.
 */
export const INDEX_SECTIONS = {
  head: 0, pathEnds: 1, pathHeap: 2, textBytes: 3, pageTokens: 4,
  wordEnds: 5, wordHeap: 6, wordPages: 7, wordStems: 8, stemEnds: 9, stemHeap: 10,
  titleStarts: 11, titleStems: 12, headStarts: 13, headStems: 14, byStemStarts: 15, byStem: 16,
  postingsAt: 17, stemPages: 18,
} as const;

export const IndexHeadSchema = z.object({
  site_url: z.url(),
  pages: z.number().int().nonnegative(),
  words: z.number().int().nonnegative(),
  stems: z.number().int().nonnegative(),
  /** SHA-256 of postings.bin, checked when a server opens the build. */
  postings_sha256: z.string().regex(/^[0-9a-f]{64}$/),
}).strict();

/** The index of one build, as it lies in index.bin. */
export class SearchIndexFile {
  readonly siteUrl: string;
  readonly postingsSha256: string;
  /** Pages indexed. */
  readonly size: number;
  /** Body tokens of the average page. */
  readonly averageTokens: number;
  private readonly paths: StringColumn;
  private readonly textBytes: Uint32Array;
  private readonly pageTokens: Uint32Array;
  private readonly words: StringColumn;
  private readonly wordPages: Uint32Array;
  private readonly wordStems: Uint32Array;
  private readonly stemList: StringColumn;
  private readonly fields: { titleStarts: Uint32Array; titleStems: Int32Array; headStarts: Uint32Array; headStems: Int32Array };
  private readonly byStemStarts: Uint32Array;
  private readonly byStem: Uint32Array;
  /** Where each stem's postings start in postings.bin, one more entry than stems (the file's end). */
  readonly postingsAt: Float64Array;
  /** Pages in each stem's postings. */
  readonly stemPages: Uint32Array;

  constructor(file: BinarySections) {
    const name = file.label;
    const S = INDEX_SECTIONS;
    const head = file.head(S.head, IndexHeadSchema);
    const { pages, words, stems } = head;
    const strings = (ends: number, heap: number, count: number) => new StringColumn(file.u32(ends, count + 1), file.bytes(heap), name);
    const ascending = (list: ArrayLike<number>, last: number, what: string) => {
      if (list[0] !== 0 || list[list.length - 1] !== last) throw new Error(`${name}: ${what} do not cover their list`);
      for (let i = 1; i < list.length; i++) if (list[i]! < list[i - 1]!) throw new Error(`${name}: ${what} go backwards at ${i - 1}`);
    };
    const below = (list: ArrayLike<number>, bound: number, what: string) => {
      for (let i = 0; i < list.length; i++) if (list[i]! < 0 || list[i]! >= bound) throw new Error(`${name}: ${what} out of range`);
    };
    this.siteUrl = head.site_url;
    this.postingsSha256 = head.postings_sha256;
    this.size = pages;
    this.paths = strings(S.pathEnds, S.pathHeap, pages);
    this.textBytes = file.u32(S.textBytes, pages);
    this.pageTokens = file.u32(S.pageTokens, pages);
    let tokens = 0;
    for (const n of this.pageTokens) tokens += n;
    this.averageTokens = pages === 0 ? 0 : tokens / pages;
    this.words = strings(S.wordEnds, S.wordHeap, words);
    this.wordPages = file.u32(S.wordPages, words);
    this.wordStems = file.u32(S.wordStems, words);
    this.stemList = strings(S.stemEnds, S.stemHeap, stems);
    below(this.wordStems, stems, "a word's stem");
    const field = (starts: number, list: number, what: string) => {
      const at = file.u32(starts, pages + 1);
      const numbers = file.i32(list);
      ascending(at, numbers.length, what);
      below(numbers, stems, what);
      return { at, numbers };
    };
    const titles = field(S.titleStarts, S.titleStems, 'the title stems');
    const heads = field(S.headStarts, S.headStems, 'the heading stems');
    this.fields = { titleStarts: titles.at, titleStems: titles.numbers, headStarts: heads.at, headStems: heads.numbers };
    this.byStemStarts = file.u32(S.byStemStarts, stems + 1);
    this.byStem = file.u32(S.byStem, words);
    ascending(this.byStemStarts, words, 'the words by stem');
    below(this.byStem, words, 'a stem word');
    this.postingsAt = file.f64(S.postingsAt, stems + 1);
    ascending(this.postingsAt, this.postingsAt[stems]!, 'the postings offsets');
    this.stemPages = file.u32(S.stemPages, stems);
  }

  path(i: number): string { return this.paths.get(i); }
  /** UTF-8 bytes of page i's text in texts.txt. */
  bytes(i: number): number { return this.textBytes[i]!; }
  /** Body tokens of page i (words between single spaces, those without a letter or digit included). */
  tokens(i: number): number { return this.pageTokens[i]!; }

  /** Where each page's text starts in texts.txt, one more entry than pages (the file's end). */
  textOffsets(): Float64Array {
    const out = new Float64Array(this.size + 1);
    for (let i = 0; i < this.size; i++) out[i + 1] = out[i]! + this.textBytes[i]! + 1;
    return out;
  }

  private stemNumbers: Map<string, number> | undefined;
  /** Stem → number, made once: the vocabulary, the page stems and the postings share it. */
  stemIds(): ReadonlyMap<string, number> {
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

export async function readIndexFile(searchDir: string): Promise<SearchIndexFile> {
  return new SearchIndexFile(await readBinaryFile(path.join(searchDir, INDEX_FILE), INDEX_KIND));
}

/** Every indexed page with its text (tools and tests; servers read texts one at a time). */
export async function readIndexedPages(searchDir: string): Promise<Array<{ path: string; bytes: number; text: string }>> {
  const index = await readIndexFile(searchDir);
  const texts = await fs.readFile(path.join(searchDir, TEXTS_FILE));
  const at = index.textOffsets();
  return Array.from({ length: index.size }, (_, i) => ({
    path: index.path(i), bytes: index.bytes(i), text: texts.toString('utf8', at[i]!, at[i]! + index.bytes(i)),
  }));
}
