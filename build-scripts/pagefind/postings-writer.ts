/**
 * Writes the postings files (formats/search/postings-format.ts) from a Pagefind 1.5.2 bundle, so
 * the server searches them instead of running Pagefind. The sidecar's texts (written first) are
 * turned into token ids; then the index chunks (each a range of the sorted words) are read one
 * at a time, twice: first to find the positions that more than one location occupies and each
 * word's token table, then to write each word's record as it is read. The build holds the
 * vocabulary, the page list and the texts' token ids, never the postings of the whole site.
 *
 * Each step runs in `parts` at once (postings-parts.ts; the build gives them to its workers): the
 * pages cut into runs for the ids, the chunks into runs for the passes, joined after each step
 * into what one run over everything makes, so the files are the same bytes for any `parts`.
 *
 * Runs over any bundle on disk: postings-cli.ts converts an existing read model's search folder
 * without a rebuild.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readBundleMeta, PAGEFIND_FORMAT } from './bundle-meta.ts';
import { joinTokenRuns, type TokenRun } from './page-tokens.ts';
import { runPostingsTask, type PostingsMaker } from './postings-parts.ts';
import type { RecordsWritten } from './postings-records.ts';
import type { ScanResult } from './postings-scan.ts';
import { SharedPositions } from './shared-positions.ts';
import { VarintFile } from './varint-buffer.ts';
import { compareBytes } from '../../formats/search/byte-order.ts';
import { appendPart, cutRuns } from '../../formats/read-model/made-in-parts.ts';
import { POSTINGS_FILE, POSTINGS_FORMAT, POSTINGS_HEADER_FILE, type PostingsHeader, type PostingsSection } from '../../formats/search/postings-format.ts';
import { PAGEFIND_DIR, readSidecar, SIDECAR_FILE, TEXTS_FILE } from '../../formats/search/sidecar.ts';

/** Where each page's text is in the sidecar's texts file (byte offset, length), in the bundle's page order. */
async function textPlaces(searchDir: string, ids: readonly string[]): Promise<Float64Array> {
  const sidecar = await readSidecar(searchDir);
  const offsets = sidecar.textOffsets();
  const index = new Map<string, number>();
  for (let i = 0; i < sidecar.size; i++) index.set(sidecar.id(i), i);
  const places = new Float64Array(2 * ids.length);
  ids.forEach((id, p) => {
    const i = index.get(id);
    if (i === undefined) throw new Error(`postings: Pagefind page ${id} is not in ${SIDECAR_FILE}`);
    places[2 * p] = offsets[i]!;
    places[2 * p + 1] = sidecar.bytes(i);
  });
  return places;
}

export interface PostingsOptions {
  /** Runs of each step made at once (default 1). */
  parts?: number;
  /** Makes one run (default: in this thread, one after the other). */
  make?: PostingsMaker;
}

/**
 * Writes `postings.json` and `postings.bin` into `searchDir` from the bundle in its `pagefind/`
 * folder and the sidecar's texts (written first).
 */
export async function writePostings(searchDir: string, options: PostingsOptions = {}): Promise<{ words: number; bytes: number }> {
  const parts = Math.max(1, options.parts ?? 1);
  const make = options.make ?? runPostingsTask;
  const bundle = path.join(searchDir, PAGEFIND_DIR);
  const { meta } = readBundleMeta(bundle, 'the postings writer');
  const ids = meta[1].map(([id]) => id);
  const places = await textPlaces(searchDir, ids);
  const texts = path.join(searchDir, TEXTS_FILE);
  const runs = await Promise.all(cutRuns(ids.length, parts, (p) => places[2 * p + 1]!).map(([from, to]) =>
    make({ step: 'tokens', file: texts, places: places.slice(2 * from, 2 * to) }) as Promise<TokenRun>));
  const { words: tokens, tokens: shared } = joinTokenRuns(runs);
  runs.length = 0;

  const sizes = meta[2].map(([, , hash]) => fs.statSync(path.join(bundle, 'index', `${hash}.pf_index`)).size);
  const chunkRuns = cutRuns(sizes.length, parts, (c) => sizes[c]!).map(([from, to]) => meta[2].slice(from, to).map(([, , hash]) => hash));
  const scans = await Promise.all(chunkRuns.map((hashes) => make({ step: 'scan', bundle, hashes, tokens: shared }) as Promise<ScanResult>));
  const lengths = shared.spans.filter((_, i) => i % 3 === 2);
  const { marks } = SharedPositions.join(lengths, scans.map((s) => s.marks));
  const file = path.join(searchDir, POSTINGS_FILE);
  const partFile = (p: number) => (p === 0 ? file : `${file}.${p}`);
  const written = await Promise.all(chunkRuns.map((hashes, p) => make({
    step: 'records', bundle, hashes, tokens: shared, marks, tables: scans[p]!.tables, ends: scans[p]!.ends, file: partFile(p),
  }) as Promise<RecordsWritten>));

  // The runs' records one after the other, each run's offsets moved by the bytes before it.
  const words: string[] = [];
  const offsets: number[] = [];
  let records = 0;
  const fd = fs.openSync(file, 'r+');
  try {
    written.forEach((run, p) => {
      const first = run.words[0];
      const previous = words[words.length - 1];
      if (first !== undefined && previous !== undefined && compareBytes(previous, first) >= 0) throw new Error(`postings: index words out of order (${previous}, ${first})`);
      if (p > 0) appendPart(fd, records, partFile(p));
      words.push(...run.words);
      for (let i = 0; i < run.offsets.length - 1; i++) offsets.push(records + run.offsets[i]!);
      records += run.offsets[run.offsets.length - 1]!;
    });
    offsets.push(records);

    const out = new VarintFile(fd, records);
    const sections = {} as Record<PostingsSection, [number, number]>;
    const section = (name: PostingsSection, data: Uint8Array) => {
      sections[name] = [out.position, data.length];
      out.bytes(data);
    };
    sections.records = [0, records];
    const le = (array: Uint32Array | Float64Array) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    section('ids', Buffer.from(ids.join('\n')));
    section('wordCounts', le(Uint32Array.from(meta[1], ([, count]) => count)));
    section('vocabulary', Buffer.from(words.join('\n')));
    section('tokens', Buffer.from(tokens.join('\n')));
    section('offsets', le(Float64Array.from(offsets)));
    out.flush();
    const header: PostingsHeader = { format: POSTINGS_FORMAT, pagefind: PAGEFIND_FORMAT, pages: ids.length, words: words.length, tokens: tokens.length, fields: meta[5], sections };
    fs.writeFileSync(path.join(searchDir, POSTINGS_HEADER_FILE), JSON.stringify(header));
    return { words: words.length, bytes: out.position };
  } finally {
    fs.closeSync(fd);
    for (let p = 1; p < parts; p++) fs.rmSync(partFile(p), { force: true });
  }
}
