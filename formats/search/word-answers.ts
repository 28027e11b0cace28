/**
 * The answers of common words, kept by the build (word-hits.ts): on a large site, answering a
 * word found on most pages from the postings scores every word its prefix finds on every page,
 * as Pagefind scores them, while reading a kept answer is one positioned read. The build writes, for every word family whose answer reads at least
 * KEPT_MIN_BYTES of postings summaries (a common word, or a rare one whose prefix is shared by
 * common ones), the columns the engine would make, and a server reads one when a query first
 * needs it, by a positioned read on a descriptor held open, as it reads page texts.
 *
 * Two files in `search/`: `word-answers.bin` (binary-file.ts), per answer its family key, hit
 * count, offset in the data and top score; `word-answers.dat`, per answer its pages (i32), scores
 * (f32) and flags (u8), little-endian, each answer 8-byte aligned.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { encodeStrings, readBinaryFile, StringColumn, writeBinaryFile, type BinaryKind } from '../read-model/binary-file.ts';
import { appendPart, cutRuns } from '../read-model/made-in-parts.ts';
import { readInto } from '../read-model/read-at.ts';
import { openPostingsSearch } from './postings-search.ts';
import { readSidecar } from './sidecar.ts';
import { Vocabulary } from './vocabulary.ts';
import { familyKey, wordHitsOf, WordHitsMaker, type WordHits } from './word-hits.ts';

export const WORD_ANSWERS_FILE = 'word-answers.bin';
export const WORD_ANSWERS_DATA_FILE = 'word-answers.dat';
export const WORD_ANSWERS_KIND: BinaryKind = { magic: 'AGWORDAN', format: 1 };
/** Word families whose answer reads this many bytes of summaries or more are kept by the build (about a millisecond to make). */
export const KEPT_MIN_BYTES = 16 * 1024;

const S = { head: 0, keyEnds: 1, keyHeap: 2, counts: 3, offsets: 4, tops: 5 } as const;
const HeadSchema = z.object({ answers: z.number().int().nonnegative(), data_bytes: z.number().int().nonnegative() }).strict();

const pad8 = (n: number) => (n + 7) & ~7;
/** Bytes of an answer of `count` hits in the data file, padded. */
const answerBytes = (count: number) => pad8(9 * count);

/** Sidecar page number by postings page number, for a server that returns every page. */
export function docOfAll(sidecarIds: readonly string[], pageIds: readonly string[]): Int32Array {
  const byId = new Map(sidecarIds.map((id, d) => [id, d]));
  return Int32Array.from(pageIds, (id) => byId.get(id) ?? -1);
}

/** Some of a build's kept families, `[key, word]` in key order, and the file their answers go to. */
export interface AnswersPart {
  families: [key: string, word: string][];
  dataFile: string;
}

/** What making a part wrote: per family its hit count and top score, and the bytes of its file. */
export interface AnswersMade {
  counts: number[];
  tops: number[];
  bytes: number;
}

/** Makes one part of the answers of the build in `searchDir`: in this thread, or elsewhere. */
export type AnswersMaker = (searchDir: string, part: AnswersPart) => Promise<AnswersMade>;

/** What the answers of a build are made from. */
async function openMaker(searchDir: string) {
  const sidecar = await readSidecar(searchDir);
  const index = await openPostingsSearch(searchDir);
  const vocabulary = new Vocabulary(sidecar.vocabularyData(), sidecar.size);
  const { titles, heads } = sidecar.stems();
  const ids = Array.from({ length: sidecar.size }, (_, d) => sidecar.id(d));
  const maker = new WordHitsMaker({ index, vocabulary, titles, heads, docOf: docOfAll(ids, index.pageIds), pages: sidecar.size });
  return { index, vocabulary, maker };
}

/** Writes the answers of `part`'s families, one after the other from the start of its file. */
export async function makeWordAnswers(searchDir: string, part: AnswersPart): Promise<AnswersMade> {
  const { index, maker } = await openMaker(searchDir);
  const data = fs.openSync(part.dataFile, 'w');
  try {
    const made: AnswersMade = { counts: [], tops: [], bytes: 0 };
    for (const [, word] of part.families) {
      const hits = maker.make(maker.lookup(word));
      const bytes = Buffer.alloc(answerBytes(hits.count));
      Buffer.from(hits.docs.buffer, hits.docs.byteOffset, 4 * hits.count).copy(bytes, 0);
      Buffer.from(hits.scores.buffer, hits.scores.byteOffset, 4 * hits.count).copy(bytes, 4 * hits.count);
      Buffer.from(hits.flags.buffer, hits.flags.byteOffset, hits.count).copy(bytes, 8 * hits.count);
      fs.writeSync(data, bytes, 0, bytes.length, made.bytes);
      made.counts.push(hits.count);
      made.tops.push(hits.top);
      made.bytes += bytes.length;
    }
    return made;
  } finally {
    fs.closeSync(data);
    await index.close();
  }
}

/**
 * The families of the build in `searchDir` whose answer reads at least `minBytes` of summaries,
 * in key order, cut into `parts` runs of about equal summary bytes (what making them costs).
 */
async function keptFamilies(searchDir: string, minBytes: number, parts: number): Promise<[key: string, word: string][][]> {
  const { index, vocabulary, maker } = await openMaker(searchDir);
  try {
    const families = new Map<string, { word: string; cost: number }>();
    const seen = new Set<string>();
    for (const w of vocabulary.words()) {
      const key = familyKey(w);
      if (seen.has(key)) continue;
      seen.add(key);
      const cost = index.summaryBytes(maker.lookup(w).prefix);
      if (cost >= minBytes) families.set(key, { word: w, cost });
    }
    const keys = [...families.keys()].sort();
    return cutRuns(keys.length, parts, (i) => families.get(keys[i]!)!.cost)
      .map(([from, to]) => keys.slice(from, to).map((key): [string, string] => [key, families.get(key)!.word]));
  } finally {
    await index.close();
  }
}

/**
 * Writes the answers of the word families of the build in `searchDir` (its postings and sidecar
 * written) that read at least `minBytes` of summaries, in family-key order; returns how many.
 * They are made in `parts` runs at once by `make` (default: one after the other in this
 * thread), each into a file of its own, joined after: the same files as one run writes.
 */
export async function writeWordAnswers(searchDir: string, minBytes = KEPT_MIN_BYTES, options: { parts?: number; make?: AnswersMaker } = {}): Promise<{ answers: number; bytes: number }> {
  const make = options.make ?? makeWordAnswers;
  const parts = await keptFamilies(searchDir, minBytes, options.parts ?? 1);
  const dataFile = path.join(searchDir, WORD_ANSWERS_DATA_FILE);
  const made = await Promise.all(parts.map((families, i) => make(searchDir, { families, dataFile: i === 0 ? dataFile : `${dataFile}.${i}` })));
  const keys = parts.flat().map(([key]) => key);
  const counts = Uint32Array.from(made.flatMap((m) => m.counts));
  const tops = Float64Array.from(made.flatMap((m) => m.tops));
  const offsets = new Float64Array(keys.length);
  let at = 0;
  counts.forEach((count, i) => { offsets[i] = at; at += answerBytes(count); });
  const data = fs.openSync(dataFile, 'r+');
  try {
    let end = 0;
    made.forEach((m, i) => {
      if (i > 0) appendPart(data, end, `${dataFile}.${i}`);
      end += m.bytes;
    });
  } finally {
    fs.closeSync(data);
  }
  const strings = encodeStrings(keys);
  writeBinaryFile(path.join(searchDir, WORD_ANSWERS_FILE), WORD_ANSWERS_KIND, [
    Buffer.from(JSON.stringify({ answers: keys.length, data_bytes: at })), strings.ends, strings.heap,
    new Uint8Array(counts.buffer), new Uint8Array(offsets.buffer), new Uint8Array(tops.buffer),
  ]);
  return { answers: keys.length, bytes: at };
}

/** The answers a build kept, read one at a time. */
export class WordAnswers {
  private fd: number | null;
  private readonly at = new Map<string, number>();

  private constructor(
    file: string,
    private readonly counts: Uint32Array,
    private readonly offsets: Float64Array,
    private readonly tops: Float64Array,
    keys: StringColumn,
  ) {
    for (let i = 0; i < keys.size; i++) this.at.set(keys.get(i), i);
    this.fd = fs.openSync(file, 'r');
  }

  /** The kept answers of the build in `searchDir`; undefined when it kept none (a build without the files). */
  static async open(searchDir: string): Promise<WordAnswers | undefined> {
    const indexFile = path.join(searchDir, WORD_ANSWERS_FILE);
    if (!fs.existsSync(indexFile)) return undefined;
    const file = await readBinaryFile(indexFile, WORD_ANSWERS_KIND);
    const { answers, data_bytes: dataBytes } = file.head(S.head, HeadSchema);
    const name = file.label;
    const keys = new StringColumn(file.u32(S.keyEnds, answers + 1), file.bytes(S.keyHeap), name);
    const counts = file.u32(S.counts, answers);
    const offsets = file.f64(S.offsets, answers);
    const tops = file.f64(S.tops, answers);
    const dataFile = path.join(searchDir, WORD_ANSWERS_DATA_FILE);
    const size = fs.statSync(dataFile).size;
    if (size !== dataBytes) throw new Error(`${name}: ${WORD_ANSWERS_DATA_FILE} holds ${size} bytes, not ${dataBytes}`);
    for (let i = 0; i < answers; i++) {
      if (offsets[i]! % 8 !== 0 || offsets[i]! + answerBytes(counts[i]!) > dataBytes) throw new Error(`${name}: answer ${i} lies outside ${WORD_ANSWERS_DATA_FILE}`);
    }
    return new WordAnswers(dataFile, counts, offsets, tops, keys);
  }

  get size(): number {
    return this.at.size;
  }

  /** The kept answer of the family `key` (word-hits.ts `familyKey`), or undefined. */
  get(key: string): WordHits | undefined {
    const i = this.at.get(key);
    if (i === undefined) return undefined;
    if (this.fd === null) throw new Error('word answers are closed');
    const count = this.counts[i]!;
    // Not zeroed, nor from the shared pool: the views below need the whole of its memory.
    const bytes = Buffer.allocUnsafeSlow(answerBytes(count));
    if (readInto(this.fd, bytes, bytes.length, this.offsets[i]!) < bytes.length) throw new Error(`${WORD_ANSWERS_DATA_FILE}: answer ${i} is cut short`);
    const buffer = bytes.buffer;
    const base = bytes.byteOffset;
    return wordHitsOf(
      new Int32Array(buffer, base, count), new Float32Array(buffer, base + 4 * count, count), new Uint8Array(buffer, base + 8 * count, count), this.tops[i]!);
  }

  close(): void {
    if (this.fd === null) return;
    fs.closeSync(this.fd);
    this.fd = null;
  }
}
