/**
 * Writes the postings files (server/search/postings-format.ts) from a Pagefind 1.5.2 bundle, so
 * the server searches them instead of running Pagefind. Its index chunks are read one at a time
 * (each is a range of the sorted words) and each word's record is written as it is read: the
 * build holds the vocabulary and the page list, never the postings of the whole site.
 *
 * Runs over any bundle on disk: postings-cli.ts converts an existing read model's search folder
 * without a rebuild.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readBundleMeta, PAGEFIND_FORMAT } from './bundle-meta.ts';
import { CborReader } from './cbor.ts';
import { readPayload } from './files.ts';
import { compareBytes } from '../../server/search/byte-order.ts';
import { POSTINGS_FILE, POSTINGS_FORMAT, POSTINGS_HEADER_FILE, type PostingsHeader, type PostingsSection } from '../../server/search/postings-format.ts';
import { readAt } from '../../server/read-model/read-at.ts';
import { PAGEFIND_DIR, readSidecar, SIDECAR_FILE, TEXTS_FILE } from '../../server/search/sidecar.ts';

/** A location's weight before any weight marker (Pagefind's decoder starts there). */
const DEFAULT_WEIGHT = 25;
const MAX_WEIGHT = 255;

/** Appends varints and bytes to a file, a megabyte at a time. */
class VarintFile {
  private buf = Buffer.allocUnsafe(1 << 20);
  private used = 0;
  /** Bytes written so far (flushed or not). */
  length = 0;
  constructor(private readonly fd: number) {}

  private room(n: number): void {
    if (this.used + n <= this.buf.length) return;
    this.flush();
    if (n > this.buf.length) this.buf = Buffer.allocUnsafe(n);
  }

  uint(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`postings: ${value} is not an unsigned integer`);
    this.room(8);
    let v = value;
    while (v >= 0x80) { this.buf[this.used++] = (v % 0x80) | 0x80; v = Math.floor(v / 0x80); }
    this.buf[this.used++] = v;
  }

  bytes(data: Uint8Array): void {
    this.room(data.length);
    this.buf.set(data, this.used);
    this.used += data.length;
  }

  flush(): void {
    let done = 0;
    while (done < this.used) done += fs.writeSync(this.fd, this.buf, done, this.used - done);
    this.length += this.used;
    this.used = 0;
  }

  /** Bytes written so far, flushed or not. */
  get position(): number {
    return this.length + this.used;
  }
}

/**
 * One page list (`[[page delta, locations, meta locations], …]`) at the reader, re-encoded into
 * `out`, each location with the id of the text word at its position in `pageTokens` (0: none).
 */
function copyPages(r: CborReader, out: VarintFile, pageTokens: readonly Uint32Array[]): void {
  const count = r.array();
  out.uint(count);
  let page = 0;
  for (let i = 0; i < count; i++) {
    const fields = r.array();
    if (fields !== 2 && fields !== 3) throw new Error(`postings: a page entry of ${fields} fields`);
    const delta = r.uint();
    page += delta;
    out.uint(delta);
    const tokens = pageTokens[page];
    if (tokens === undefined) throw new Error(`postings: page ${page} is not in the index's page list`);
    // Locations: a negative number sets the weight of those after it, whose positions restart
    // from zero; the others are deltas from the previous position.
    const n = r.array();
    const locs: number[] = [];
    let weight = DEFAULT_WEIGHT;
    let last = 0;
    for (let j = 0; j < n; j++) {
      const x = r.int();
      if (x < 0) { weight = Math.min(MAX_WEIGHT, -(x + 1)); last = 0; } else { last += x; locs.push(weight, last); }
    }
    out.uint(locs.length / 2);
    for (let j = 0; j < locs.length; j += 2) {
      out.uint(locs[j]!);
      out.uint(locs[j + 1]!);
      out.uint(tokens[locs[j + 1]!] ?? 0);
    }
    // Meta locations: a negative number names the field (-(id + 1)) of the positions after it.
    const metaFields = new Set<number>();
    if (fields === 3) {
      const m = r.array();
      let field = 0;
      for (let j = 0; j < m; j++) {
        const x = r.int();
        if (x < 0) field = -(x + 1); else metaFields.add(field);
      }
    }
    out.uint(metaFields.size);
    for (const f of [...metaFields].sort((a, b) => a - b)) out.uint(f);
  }
}

/**
 * The words of each indexed text (`text.split(' ')`, what Pagefind's positions count) as ids in
 * `tokens`, by Pagefind page number: so the server knows the word at a matched position without
 * reading the page's text.
 */
async function pageTokens(searchDir: string, ids: readonly string[], tokens: Map<string, number>): Promise<Uint32Array[]> {
  const sidecar = await readSidecar(searchDir);
  const offsets = sidecar.textOffsets();
  const index = new Map<string, number>();
  for (let i = 0; i < sidecar.size; i++) index.set(sidecar.id(i), i);
  const fd = fs.openSync(path.join(searchDir, TEXTS_FILE), 'r');
  try {
    return ids.map((id) => {
      const i = index.get(id);
      if (i === undefined) throw new Error(`postings: Pagefind page ${id} is not in ${SIDECAR_FILE}`);
      const words = readAt(fd, offsets[i]!, sidecar.bytes(i)).toString('utf8').split(' ');
      return Uint32Array.from(words, (w) => {
        let t = tokens.get(w);
        if (t === undefined) tokens.set(w, t = tokens.size + 1);
        return t;
      });
    });
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Writes `postings.json` and `postings.bin` into `searchDir` from the bundle in its `pagefind/`
 * folder and the sidecar's texts (written first).
 */
export async function writePostings(searchDir: string): Promise<{ words: number; bytes: number }> {
  const bundle = path.join(searchDir, PAGEFIND_DIR);
  const { meta } = readBundleMeta(bundle, 'the postings writer');
  const tokens = new Map<string, number>();
  const texts = await pageTokens(searchDir, meta[1].map(([id]) => id), tokens);
  const fields = meta[5];
  const file = path.join(searchDir, POSTINGS_FILE);
  const fd = fs.openSync(file, 'w');
  try {
    const out = new VarintFile(fd);
    const words: string[] = [];
    const offsets: number[] = [];
    for (const [, , hash] of meta[2]) {
      const r = new CborReader(readPayload(path.join(bundle, 'index', `${hash}.pf_index`)));
      if (r.array() !== 1) throw new Error(`postings: unexpected index chunk layout in ${hash}`);
      const n = r.array();
      for (let i = 0; i < n; i++) {
        const parts = r.array();
        const word = r.text();
        const previous = words[words.length - 1];
        if (previous !== undefined && compareBytes(previous, word) >= 0) throw new Error(`postings: index words out of order (${previous}, ${word})`);
        words.push(word);
        offsets.push(out.position);
        // The variants come after the word's own pages in the chunk, but first in the record.
        const pagesAt = r.pos;
        r.skip();
        const variantCount = parts >= 3 ? r.array() : 0;
        const variantsAt = r.pos;
        out.uint(variantCount);
        for (let v = 0; v < variantCount; v++) {
          r.array();
          const form = Buffer.from(r.text());
          out.uint(form.length);
          out.bytes(form);
          r.skip();
        }
        const end = r.pos;
        r.pos = pagesAt;
        copyPages(r, out, texts);
        r.pos = variantsAt;
        for (let v = 0; v < variantCount; v++) {
          r.array();
          r.text();
          copyPages(r, out, texts);
        }
        if (r.pos !== end) throw new Error('postings: a word entry was not read to its end');
      }
      if (!r.done) throw new Error(`postings: trailing bytes in index chunk ${hash}`);
    }
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
