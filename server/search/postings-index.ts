/**
 * The postings files of one build (postings-format.ts), open: the page ids, word counts and the
 * sorted vocabulary in memory (they grow with the pages and the words, not with the text), each
 * word's record read from disk by offset when a search asks for it.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { readAt, readInto } from '../read-model/read-at.ts';
import { compareBytes } from './byte-order.ts';
import { POSTINGS_FILE, POSTINGS_HEADER_FILE, PostingsHeaderSchema, type PostingsHeader, type PostingsSection } from './postings-format.ts';

/**
 * A word's record, flat: its variant forms (with diacritics), then one entry per page of each
 * form, the word's own form first (Pagefind's order), each with its locations and meta fields.
 */
export interface WordPostings {
  forms: string[];
  /** Entries of the record. */
  entries: number;
  /** Per entry: 0 for the word's own form, k for `forms[k − 1]`. */
  form: Int32Array;
  page: Int32Array;
  /** Entry e's locations are `loc[3·locStart[e]]` up to `loc[3·locStart[e + 1]]`: weight, position, token id. */
  locStart: Int32Array;
  loc: Int32Array;
  /** Entry e's meta field ids are `meta[metaStart[e]]` up to `meta[metaStart[e + 1]]`. */
  metaStart: Int32Array;
  meta: number[];
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Unsigned LEB128 varints from a buffer. */
class VarintReader {
  pos = 0;
  constructor(private readonly bytes: Uint8Array) {}
  uint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const b = this.bytes[this.pos++];
      if (b === undefined) throw new Error('postings: record ends early');
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 0x80;
    }
  }
  text(): string {
    const n = this.uint();
    const s = utf8.decode(this.bytes.subarray(this.pos, this.pos + n));
    this.pos += n;
    return s;
  }
}

/** Decodes a record into typed arrays sized by its count of varints (a common word's runs to millions). */
function decodeRecord(bytes: Uint8Array): WordPostings {
  let numbers = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! < 0x80) numbers++;
  // Each entry takes three numbers at least (page, location count, meta field count).
  const most = Math.floor(numbers / 3) + 1;
  const r = new VarintReader(bytes);
  const variants = r.uint();
  const out: WordPostings = {
    forms: [], entries: 0, form: new Int32Array(most), page: new Int32Array(most), locStart: new Int32Array(most + 1),
    loc: new Int32Array(numbers), metaStart: new Int32Array(most + 1), meta: [],
  };
  for (let v = 0; v < variants; v++) out.forms.push(r.text());
  let e = 0;
  let l = 0;
  for (let v = 0; v <= variants; v++) {
    const count = r.uint();
    let page = 0;
    for (let i = 0; i < count; i++, e++) {
      page += r.uint();
      out.form[e] = v;
      out.page[e] = page;
      const n = 3 * r.uint();
      for (let j = 0; j < n; j++) out.loc[l++] = r.uint();
      out.locStart[e + 1] = l / 3;
      const m = r.uint();
      for (let j = 0; j < m; j++) out.meta.push(r.uint());
      out.metaStart[e + 1] = out.meta.length;
    }
  }
  if (r.pos !== bytes.length) throw new Error('postings: a record has trailing bytes');
  out.entries = e;
  return out;
}

export class PostingsIndex {
  private closed = false;

  private constructor(
    private readonly fd: number,
    readonly header: PostingsHeader,
    /** Pagefind page id by page number. */
    readonly ids: readonly string[],
    /** Pagefind's word count by page number. */
    readonly wordCounts: Uint32Array,
    /** Index words, in byte order. */
    readonly words: readonly string[],
    /** The texts' words by token id − 1. */
    private readonly tokens: readonly string[],
    private readonly offsets: Float64Array,
  ) {}

  static async open(searchDir: string): Promise<PostingsIndex> {
    const header = PostingsHeaderSchema.parse(JSON.parse(await fsp.readFile(path.join(searchDir, POSTINGS_HEADER_FILE), 'utf8')));
    const fd = fs.openSync(path.join(searchDir, POSTINGS_FILE), 'r');
    try {
      const section = (name: PostingsSection): Buffer => {
        const [at, length] = header.sections[name];
        const data = Buffer.alloc(length);
        if (readInto(fd, data, length, at) !== length) throw new Error(`${POSTINGS_FILE}: section ${name} is cut short`);
        return data;
      };
      const ids = section('ids').toString('utf8').split('\n');
      const counts = section('wordCounts');
      const wordCounts = new Uint32Array(counts.buffer, counts.byteOffset, counts.length / 4);
      const words = header.words === 0 ? [] : section('vocabulary').toString('utf8').split('\n');
      const tokens = header.tokens === 0 ? [] : section('tokens').toString('utf8').split('\n');
      const raw = section('offsets');
      const offsets = new Float64Array(raw.buffer, raw.byteOffset, raw.length / 8);
      if (ids.length !== header.pages || wordCounts.length !== header.pages || words.length !== header.words || tokens.length !== header.tokens || offsets.length !== header.words + 1) {
        throw new Error(`${POSTINGS_FILE}: sections disagree with ${POSTINGS_HEADER_FILE}`);
      }
      return new PostingsIndex(fd, header, ids, wordCounts, words, tokens, offsets);
    } catch (err) {
      fs.closeSync(fd);
      throw err;
    }
  }

  /** Index of the first word not before `key` in byte order. */
  private lowerBound(key: string): number {
    let lo = 0;
    let hi = this.words.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareBytes(this.words[mid]!, key) < 0) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  /** Word numbers of the words that start with `prefix`, in order. */
  extensions(prefix: string): number[] {
    const out: number[] = [];
    for (let i = this.lowerBound(prefix); i < this.words.length && this.words[i]!.startsWith(prefix); i++) out.push(i);
    return out;
  }

  /** Number of `word`, or -1. */
  find(word: string): number {
    const i = this.lowerBound(word);
    return this.words[i] === word ? i : -1;
  }

  /** The text word of token `id` (undefined for 0: no word at that position). */
  token(id: number): string | undefined {
    return this.tokens[id - 1];
  }

  postings(word: number): WordPostings {
    if (this.closed) throw new Error('postings are closed');
    const at = this.offsets[word]!;
    const length = this.offsets[word + 1]! - at;
    const bytes = readAt(this.fd, this.header.sections.records[0] + at, length);
    if (bytes.length !== length) throw new Error(`${POSTINGS_FILE}: record ${word} is cut short`);
    return decodeRecord(bytes);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    fs.closeSync(this.fd);
  }
}
