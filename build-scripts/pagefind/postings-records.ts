/**
 * The postings writer's second pass over a run of index chunks: each word's record (its head,
 * summaries and locations: formats/search/postings-format.ts), written to a file as it is read.
 */
import fs from 'node:fs';
import type { CborReader } from './cbor.ts';
import { forEachWord } from './index-words.ts';
import { PageEntries } from './page-entries.ts';
import type { SharedPositions } from './shared-positions.ts';
import { VarintBuffer, VarintFile } from './varint-buffer.ts';
import { compareBytes } from '../../formats/search/byte-order.ts';
import { RECORD_BLOCK, MASK_TOKENS } from '../../formats/search/postings-format.ts';

const zigzag = (d: number): number => (d >= 0 ? 2 * d : -2 * d - 1);

/** One word's record, built in memory (a common word's runs to megabytes) and then written whole. */
class RecordBuilder {
  readonly head = new VarintBuffer();
  readonly summary = new VarintBuffer();
  readonly locations = new VarintBuffer();
  private counts: number[] = [];
  /** Checkpoints: page, summary offset, locations offset. */
  private checkpoints: number[] = [];
  /** The word's token table, and per token id 1 + its index there. */
  private table: Uint32Array = new Uint32Array(0);
  private tokens = new Map<number, number>();
  private seen: number[] = [];
  private sharedAt: number[] = [];
  private local = new Uint32Array(256);

  constructor(private readonly texts: readonly Uint32Array[], private readonly shared: SharedPositions) {}

  /** Starts a word's record: its variant forms and its token table (token-table.ts). */
  start(forms: readonly Buffer[], table: Uint32Array): void {
    this.head.clear();
    this.summary.clear();
    this.locations.clear();
    this.counts.length = this.checkpoints.length = 0;
    this.tokens.clear();
    this.table = table;
    table.forEach((token, i) => this.tokens.set(token, i + 1));
    this.head.uint(forms.length);
    for (const form of forms) { this.head.uint(form.length); this.head.bytes(form); }
  }

  private pageTokens(page: number): Uint32Array {
    const tokens = this.texts[page];
    if (tokens === undefined) throw new Error(`postings: page ${page} is not in the index's page list`);
    return tokens;
  }

  /** Appends the page list at `r`. */
  list(r: CborReader, list: PageEntries): void {
    const count = list.start(r);
    this.counts.push(count);
    for (let k = 0; k < count; k++) {
      list.next();
      if (k % RECORD_BLOCK === 0) this.checkpoints.push(list.page, this.summary.length, this.locations.length);
      this.entry(list);
    }
  }

  private entry(e: PageEntries): void {
    const tokens = this.pageTokens(e.page);
    if (e.count > this.local.length) this.local = new Uint32Array(2 * e.count);
    let weights = 0;
    let shared = 0;
    const seen = this.seen;
    seen.length = 0;
    const sharedAt = this.sharedAt;
    sharedAt.length = 0;
    for (let j = 0; j < e.count; j++) {
      const position = e.positions[j]!;
      weights += e.weights[j]!;
      if (this.shared.shared(e.page, position)) { shared = 1; sharedAt.push(position); }
      const token = tokens[position] ?? 0;
      const local = token === 0 ? 0 : this.tokens.get(token)!;
      this.local[j] = local;
      if (local !== 0 && !seen.includes(local - 1)) seen.push(local - 1);
    }
    const s = this.summary;
    s.uint(e.delta);
    s.uint(2 * weights + shared);
    const meta = e.fields.length > 0 ? 1 : 0;
    if (this.table.length <= MASK_TOKENS) {
      let mask = 0;
      for (const i of seen) mask |= 1 << i;
      s.uint(2 * mask + meta);
    } else {
      seen.sort((a, b) => a - b);
      s.uint(2 * seen.length + meta);
      for (const i of seen) s.uint(i);
    }
    if (meta) {
      s.uint(e.fields.length);
      for (const f of e.fields) s.uint(f);
    }
    const l = this.locations;
    const start = l.length;
    let last = 0;
    for (let j = 0; j < e.count; j++) {
      const position = e.positions[j]!;
      l.uint(e.weights[j]!);
      l.uint(zigzag(position - last));
      last = position;
      l.uint(this.local[j]!);
    }
    s.uint(l.length - start);
    if (shared) {
      sharedAt.sort((a, b) => a - b);
      s.uint(sharedAt.length);
      let previous = 0;
      for (const position of sharedAt) { s.uint(position - previous); previous = position; }
    }
  }

  /** Ends the head: the lists' entry counts, the token table and the checkpoints, as distances from the previous. */
  finish(): void {
    for (const n of this.counts) this.head.uint(n);
    this.head.uint(this.table.length);
    for (const token of this.table) this.head.uint(token);
    let summary = 0;
    let locations = 0;
    for (let c = 0; c < this.checkpoints.length; c += 3) {
      this.head.uint(this.checkpoints[c]!);
      this.head.uint(this.checkpoints[c + 1]! - summary);
      this.head.uint(this.checkpoints[c + 2]! - locations);
      summary = this.checkpoints[c + 1]!;
      locations = this.checkpoints[c + 2]!;
    }
  }
}

export interface RecordsWritten {
  words: string[];
  /** Where each word's head, summaries and locations start in the file, then where the last ends. */
  offsets: Float64Array;
}

/** Writes the records of the words of the chunks named by `hashes` to `file`; `tables[ends[i-1]..ends[i]]` is word i's token table. */
export function writeRecords(opts: {
  bundle: string; hashes: readonly string[]; pages: readonly Uint32Array[]; shared: SharedPositions;
  tables: Uint32Array; ends: Uint32Array; file: string;
}): RecordsWritten {
  const { tables, ends } = opts;
  const fd = fs.openSync(opts.file, 'w');
  try {
    const out = new VarintFile(fd);
    const words: string[] = [];
    const offsets: number[] = [];
    const list = new PageEntries();
    const record = new RecordBuilder(opts.pages, opts.shared);
    forEachWord(opts.bundle, opts.hashes, (word, r, parts) => {
      const previous = words[words.length - 1];
      if (previous !== undefined && compareBytes(previous, word) >= 0) throw new Error(`postings: index words out of order (${previous}, ${word})`);
      const i = words.push(word) - 1;
      if (i >= ends.length) throw new Error('postings: more words than the first pass counted');
      // The variants come after the word's own pages in the chunk, but first in the record.
      const pagesAt = r.pos;
      r.skip();
      const variantCount = parts >= 3 ? r.array() : 0;
      const variantsAt = r.pos;
      const forms: Buffer[] = [];
      for (let v = 0; v < variantCount; v++) { r.array(); forms.push(Buffer.from(r.text())); r.skip(); }
      const end = r.pos;
      record.start(forms, tables.subarray(i === 0 ? 0 : ends[i - 1]!, ends[i]!));
      r.pos = pagesAt;
      record.list(r, list);
      r.pos = variantsAt;
      for (let v = 0; v < variantCount; v++) { r.array(); r.text(); record.list(r, list); }
      if (r.pos !== end) throw new Error('postings: a word entry was not read to its end');
      record.finish();
      offsets.push(out.position);
      out.bytes(record.head.data);
      offsets.push(out.position);
      out.bytes(record.summary.data);
      offsets.push(out.position);
      out.bytes(record.locations.data);
    });
    if (words.length !== ends.length) throw new Error('postings: fewer words than the first pass counted');
    offsets.push(out.position);
    out.flush();
    return { words, offsets: Float64Array.from(offsets) };
  } finally {
    fs.closeSync(fd);
  }
}
