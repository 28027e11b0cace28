/**
 * The postings files of one build (postings-format.ts), open: the page ids, word counts, the
 * sorted vocabulary and the texts' words in memory (they grow with the pages and the words, not
 * with the text; the texts' words stay one buffer, a word decoded when asked for), each word's
 * record read from disk by offset, in the parts a search needs.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { readAt, readInto } from '../read-model/read-at.ts';
import { compareBytes } from './byte-order.ts';
import { POSTINGS_FILE, POSTINGS_HEADER_FILE, PostingsHeaderSchema, type PostingsHeader, type PostingsSection } from './postings-format.ts';
import { decodeRecord, type WordPostings } from './postings-record.ts';

export type { WordPostings } from './postings-record.ts';

/** Where each line of `bytes` starts, and one more past the end (as if it ended with a newline). */
function lineStarts(bytes: Uint8Array, lines: number): Uint32Array {
  const starts = new Uint32Array(lines + 1);
  let n = 1;
  for (let i = bytes.indexOf(10); i !== -1 && n < lines; i = bytes.indexOf(10, i + 1)) starts[n++] = i + 1;
  if (lines > 0 && (n !== lines || bytes.indexOf(10, starts[lines - 1]) !== -1)) throw new Error(`${POSTINGS_FILE}: the tokens are not ${lines} lines`);
  starts[lines] = bytes.length + 1;
  return starts;
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
    /** The texts' words, one a line (token id n is line n − 1), and where each line starts. */
    private readonly tokenText: Buffer,
    private readonly tokenStarts: Uint32Array,
    /** Per word: where its head, summary and locations start in the records; then their end. */
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
      const tokenText = section('tokens');
      const tokenStarts = lineStarts(tokenText, header.tokens);
      const raw = section('offsets');
      const offsets = new Float64Array(raw.buffer, raw.byteOffset, raw.length / 8);
      if (ids.length !== header.pages || wordCounts.length !== header.pages || words.length !== header.words || offsets.length !== 3 * header.words + 1) {
        throw new Error(`${POSTINGS_FILE}: sections disagree with ${POSTINGS_HEADER_FILE}`);
      }
      return new PostingsIndex(fd, header, ids, wordCounts, words, tokenText, tokenStarts, offsets);
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
    if (id < 1 || id > this.header.tokens) return undefined;
    return this.tokenText.toString('utf8', this.tokenStarts[id - 1]!, this.tokenStarts[id]! - 1);
  }

  /** Where word `word`'s head (part 0), summary (1) and locations (2) start in the records, and (3) where it ends. */
  part(word: number, part: 0 | 1 | 2 | 3): number {
    return this.offsets[3 * word + part]!;
  }

  /** Bytes `from` up to `to` of the records. */
  read(from: number, to: number): Buffer {
    if (this.closed) throw new Error('postings are closed');
    const bytes = readAt(this.fd, this.header.sections.records[0] + from, to - from);
    if (bytes.length !== to - from) throw new Error(`${POSTINGS_FILE}: a record is cut short`);
    return bytes;
  }

  /** Word `word`'s whole record, decoded. */
  postings(word: number): WordPostings {
    const at = this.part(word, 0);
    return decodeRecord(this.read(at, this.part(word, 3)), this.part(word, 1) - at, this.part(word, 2) - at);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    fs.closeSync(this.fd);
  }
}
