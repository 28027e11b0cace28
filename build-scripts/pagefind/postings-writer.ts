/**
 * Writes the postings files (server/search/postings-format.ts) from a Pagefind 1.5.2 bundle, so
 * the server searches them instead of running Pagefind. Its index chunks are read one at a time
 * (each is a range of the sorted words), twice: first to find the positions that more than one
 * location occupies and each word's token table, then to write each word's record as it is read. The build holds the
 * vocabulary, the page list and the texts' token ids, never the postings of the whole site.
 *
 * Runs over any bundle on disk: postings-cli.ts converts an existing read model's search folder
 * without a rebuild.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readBundleMeta, PAGEFIND_FORMAT } from './bundle-meta.ts';
import { CborReader } from './cbor.ts';
import { readPayload } from './files.ts';
import { PageEntries } from './page-entries.ts';
import { PageTokens } from './page-tokens.ts';
import { SharedPositions } from './shared-positions.ts';
import { TokenTable } from './token-table.ts';
import { VarintBuffer, VarintFile } from './varint-buffer.ts';
import { compareBytes } from '../../server/search/byte-order.ts';
import { POSTINGS_FILE, POSTINGS_FORMAT, POSTINGS_HEADER_FILE, RECORD_BLOCK, MASK_TOKENS, type PostingsHeader, type PostingsSection } from '../../server/search/postings-format.ts';
import { readAt } from '../../server/read-model/read-at.ts';
import { PAGEFIND_DIR, readSidecar, SIDECAR_FILE, TEXTS_FILE } from '../../server/search/sidecar.ts';

/** The token ids of the sidecar's texts (written first), in the bundle's page order. */
async function pageTokens(searchDir: string, ids: readonly string[]): Promise<PageTokens> {
  const sidecar = await readSidecar(searchDir);
  const offsets = sidecar.textOffsets();
  const index = new Map<string, number>();
  for (let i = 0; i < sidecar.size; i++) index.set(sidecar.id(i), i);
  const tokens = new PageTokens();
  const fd = fs.openSync(path.join(searchDir, TEXTS_FILE), 'r');
  try {
    for (const id of ids) {
      const i = index.get(id);
      if (i === undefined) throw new Error(`postings: Pagefind page ${id} is not in ${SIDECAR_FILE}`);
      tokens.add(readAt(fd, offsets[i]!, sidecar.bytes(i)).toString('utf8'));
    }
    return tokens;
  } finally {
    fs.closeSync(fd);
  }
}

/** Each word of the bundle's index chunks, in order: `visit` reads its page lists from the reader. */
function forEachWord(bundle: string, chunks: readonly [string, string, string][], visit: (word: string, r: CborReader, parts: number) => void): void {
  for (const [, , hash] of chunks) {
    const r = new CborReader(readPayload(path.join(bundle, 'index', `${hash}.pf_index`)));
    if (r.array() !== 1) throw new Error(`postings: unexpected index chunk layout in ${hash}`);
    const n = r.array();
    for (let i = 0; i < n; i++) {
      const parts = r.array();
      visit(r.text(), r, parts);
    }
    if (!r.done) throw new Error(`postings: trailing bytes in index chunk ${hash}`);
  }
}

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

/**
 * Writes `postings.json` and `postings.bin` into `searchDir` from the bundle in its `pagefind/`
 * folder and the sidecar's texts (written first).
 */
export async function writePostings(searchDir: string): Promise<{ words: number; bytes: number }> {
  const bundle = path.join(searchDir, PAGEFIND_DIR);
  const { meta } = readBundleMeta(bundle, 'the postings writer');
  const { ids: tokens, pages: texts } = await pageTokens(searchDir, meta[1].map(([id]) => id));
  const fields = meta[5];

  // First pass: the positions more than one location occupies, and each word's token table.
  const shared = new SharedPositions(texts.map((t) => t.length));
  const list = new PageEntries();
  const counter = new TokenTable();
  const tables: Uint32Array[] = [];
  forEachWord(bundle, meta[2], (_word, r, parts) => {
    const lists = (): void => {
      for (let k = list.start(r); k > 0; k--) {
        list.next();
        const tokens = texts[list.page];
        if (tokens === undefined) throw new Error(`postings: page ${list.page} is not in the index's page list`);
        for (let j = 0; j < list.count; j++) shared.mark(list.page, list.positions[j]!);
        counter.add(tokens, list.positions, list.count);
      }
    };
    lists();
    const variants = parts >= 3 ? r.array() : 0;
    for (let v = 0; v < variants; v++) { r.array(); r.text(); lists(); }
    tables.push(counter.take());
  });

  const file = path.join(searchDir, POSTINGS_FILE);
  const fd = fs.openSync(file, 'w');
  try {
    const out = new VarintFile(fd);
    const words: string[] = [];
    const offsets: number[] = [];
    const record = new RecordBuilder(texts, shared);
    forEachWord(bundle, meta[2], (word, r, parts) => {
      const previous = words[words.length - 1];
      if (previous !== undefined && compareBytes(previous, word) >= 0) throw new Error(`postings: index words out of order (${previous}, ${word})`);
      words.push(word);
      // The variants come after the word's own pages in the chunk, but first in the record.
      const pagesAt = r.pos;
      r.skip();
      const variantCount = parts >= 3 ? r.array() : 0;
      const variantsAt = r.pos;
      const forms: Buffer[] = [];
      for (let v = 0; v < variantCount; v++) { r.array(); forms.push(Buffer.from(r.text())); r.skip(); }
      const end = r.pos;
      record.start(forms, tables[words.length - 1]!);
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
    offsets.push(out.position);

    const sections = {} as Record<PostingsSection, [number, number]>;
    const section = (name: PostingsSection, data: Uint8Array) => {
      sections[name] = [out.position, data.length];
      out.bytes(data);
    };
    sections.records = [0, out.position];
    const le = (array: Uint32Array | Float64Array) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    section('ids', Buffer.from(meta[1].map(([id]) => id).join('\n')));
    section('wordCounts', le(Uint32Array.from(meta[1], ([, count]) => count)));
    section('vocabulary', Buffer.from(words.join('\n')));
    section('tokens', Buffer.from([...tokens.keys()].join('\n')));
    section('offsets', le(Float64Array.from(offsets)));
    out.flush();
    const header: PostingsHeader = { format: POSTINGS_FORMAT, pagefind: PAGEFIND_FORMAT, pages: meta[1].length, words: words.length, tokens: tokens.size, fields, sections };
    fs.writeFileSync(path.join(searchDir, POSTINGS_HEADER_FILE), JSON.stringify(header));
    return { words: words.length, bytes: out.position };
  } finally {
    fs.closeSync(fd);
  }
}
