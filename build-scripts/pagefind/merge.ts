/**
 * One Pagefind bundle from the bundles of several indexing sessions over consecutive slices of
 * the same pages, equal to the bundle one session over all of them writes.
 *
 * Why: Pagefind's indexer holds every record it was given, and its `writeFiles` several copies of
 * them, until the bundle is written, so its memory grows with the pages of a session.
 * Sessions of a bounded size keep its process small; this puts their output back together, so
 * the runtime (server/search/) loads one ordinary bundle and ranks exactly as with one session.
 * Each session is read as soon as it and those before it are done, while the others still run,
 * so only the writing is left for the stage's single-threaded end.
 *
 * What a session's bundle holds, and how it merges (Pagefind 1.5.2's format, checked on read):
 *   - meta (`pagefind.<lang>_<hash>.pf_meta`): version, pages `[fragment hash, word count]` in
 *     page-number order, index chunks `[from, to, hash]`, filters `[name, hash]`, sorts, meta
 *     field names. Session k's page n becomes page `offset_k + n`.
 *   - index chunks: words in byte order, each `[word, pages, variants]`, a page
 *     `[page number delta, locations, meta locations]`. Only the first delta of each session's
 *     run changes: the rest of its bytes are copied as they are. Chunks are cut again over the
 *     merged words, where Pagefind cuts them (a chunk ends once its locations plus pages reach
 *     20,000), and named by their hash.
 *   - filters: `[name, [[value, pages]]]`, pages absolute.
 *   - fragments: one per page, independent of the others: moved, renamed only when the shorter
 *     name is taken by an earlier page of another session (as one session would have named it).
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CborReader, CborWriter } from './cbor.ts';
import { readBundleMeta, unsupportedBundle, PAGEFIND_FORMAT, type BundleEntry, type BundleMeta, type MetaPage } from './bundle-meta.ts';
import { fullHash, readPayload, shortName, writePayload } from './files.ts';
import { compareBytes } from '../../formats/search/byte-order.ts';

/** Pagefind's own index chunk size (its `index_chunk_size` default), in locations + pages. */
export const CHUNK_SIZE = 20_000;
/** Hex characters of a file's hash in its name: meta files get more (Pagefind's choice). */
const NAME_PREFIX = 7;
const META_PREFIX = 10;
interface Session {
  dir: string;
  entry: BundleEntry;
  language: string;
  meta: BundleMeta;
  /** Page number of this session's first page in the merged bundle. */
  offset: number;
}

/**
 * One session's run of pages for a word (or a word's variant): raw bytes after its first delta.
 * Held as a place in the session's chunk, not a view of it: a merge holds a run per word and
 * session (millions for 100,000 pages), and a typed-array view costs more than the run.
 */
interface Run {
  first: number;
  last: number;
  count: number;
  /** `chunk` from `start` to `end`: the first page's fields after its page number, then the other pages, as encoded. */
  chunk: Uint8Array;
  start: number;
  end: number;
}

interface WordRuns {
  pages: Run[];
  /** Pagefind's chunk measure: locations + meta locations + 1, per page (variants not counted). */
  size: number;
  /** Made for the words that have variants only. */
  variants?: Map<string, Run[]>;
}

const READER = 'the session merge';
const unsupported = (dir: string, what: string): never => unsupportedBundle(dir, READER, what);

function readSession(dir: string): Omit<Session, 'offset'> {
  return { dir, ...readBundleMeta(dir, READER) };
}

/** Reads one run of pages (`[[delta, locs, metaLocs], …]`) at the reader's position. */
function readRun(r: CborReader, dir: string): { run: Run | null; size: number } {
  const count = r.array();
  if (count === 0) return { run: null, size: 0 };
  let abs = 0;
  let first = 0;
  let restStart = 0;
  let size = 0;
  for (let i = 0; i < count; i++) {
    if (r.array() !== 3) unsupported(dir, 'a page entry that is not [page, locations, meta locations]');
    abs += r.uint();
    if (i === 0) { first = abs; restStart = r.pos; }
    for (let k = 0; k < 2; k++) {
      const n = r.array();
      size += n;
      for (let j = 0; j < n; j++) r.int();
    }
    size += 1;
  }
  return { run: { first, last: abs, count, chunk: r.bytes, start: restStart, end: r.pos }, size };
}

function readWords(session: Session, words: Map<string, WordRuns>): void {
  for (const [, , hash] of session.meta[2]) {
    const r = new CborReader(readPayload(path.join(session.dir, 'index', `${hash}.pf_index`)));
    if (r.array() !== 1) unsupported(session.dir, 'unexpected index chunk layout');
    const n = r.array();
    for (let i = 0; i < n; i++) {
      if (r.array() !== 3) unsupported(session.dir, 'a word entry that is not [word, pages, variants]');
      const word = r.text();
      let entry = words.get(word);
      if (!entry) words.set(word, entry = { pages: [], size: 0 });
      const { run, size } = readRun(r, session.dir);
      entry.size += size;
      if (run) entry.pages.push(shift(run, session.offset));
      const variants = r.array();
      for (let v = 0; v < variants; v++) {
        if (r.array() !== 2) unsupported(session.dir, 'a variant that is not [form, pages]');
        const form = r.text();
        const { run: vrun } = readRun(r, session.dir);
        if (!vrun) continue;
        entry.variants ??= new Map();
        const runs = entry.variants.get(form);
        if (runs) runs.push(shift(vrun, session.offset));
        else entry.variants.set(form, [shift(vrun, session.offset)]);
      }
    }
    if (!r.done) unsupported(session.dir, 'trailing bytes in an index chunk');
  }
}

/** `run` (just read, held nowhere else) with its page numbers made absolute. */
function shift(run: Run, offset: number): Run {
  run.first += offset;
  run.last += offset;
  return run;
}

function writeRuns(w: CborWriter, runs: Run[]): void {
  w.array(runs.reduce((n, run) => n + run.count, 0));
  let last = 0;
  for (const run of runs) {
    w.array(3).int(run.first - last).raw(run.chunk.subarray(run.start, run.end));
    last = run.last;
  }
}

export { compareBytes };

/** Pagefind's `get_prefixes`: each word cut one character past their common prefix. */
function prefixes(a: string, b: string): [string, string] {
  const ca = [...a];
  const cb = [...b];
  let common = 0;
  while (common < ca.length && common < cb.length && ca[common] === cb[common]) common++;
  return [ca.slice(0, common + 1).join(''), cb.slice(0, common + 1).join('')];
}

/** Pagefind's `chunk_meta`: chunk bounds shortened to the prefixes that tell neighbours apart. */
export function chunkBounds(chunks: { from: string; to: string }[]): { from: string; to: string }[] {
  const out = chunks.map((c) => ({ ...c }));
  for (let i = 0; i + 1 < out.length; i++) {
    const [to, from] = prefixes(out[i]!.to, out[i + 1]!.from);
    if (compareBytes(to, out[i]!.from) >= 0) out[i]!.to = to;
    out[i + 1]!.from = from;
  }
  return out;
}

function writeChunks(words: Map<string, WordRuns>, language: string, outDir: string): [string, string, string][] {
  const sorted = [...words.keys()].sort(compareBytes);
  const chunks: { from: string; to: string; payload: Buffer }[] = [];
  let body = new CborWriter();
  let count = 0;
  let size = 0;
  let from = '';
  const close = (to: string) => {
    const payload = new CborWriter().array(1).array(count).raw(body.bytes()).bytes();
    chunks.push({ from, to, payload });
    body = new CborWriter();
    count = 0;
    size = 0;
  };
  for (const [i, word] of sorted.entries()) {
    const entry = words.get(word)!;
    if (count === 0) from = word;
    body.array(3).text(word);
    writeRuns(body, entry.pages);
    body.array(entry.variants?.size ?? 0);
    for (const [form, runs] of entry.variants ?? []) {
      body.array(2).text(form);
      writeRuns(body, runs);
    }
    count++;
    size += entry.size;
    if (size >= CHUNK_SIZE || i === sorted.length - 1) close(word);
  }
  const taken = new Set<string>();
  const bounds = chunkBounds(chunks);
  const meta: [string, string, string][] = [];
  for (const [i, chunk] of chunks.entries()) {
    const name = shortName(language, fullHash(chunk.payload), NAME_PREFIX, taken);
    writePayload(path.join(outDir, 'index', `${name}.pf_index`), chunk.payload);
    meta.push([bounds[i]!.from, bounds[i]!.to, name]);
  }
  return meta;
}

/** Adds one session's filter values, page numbers made absolute, to `filters`. */
function readFilters(s: Session, filters: Map<string, Map<string, number[]>>): void {
  for (const [name, hash] of s.meta[3]) {
    const [filter, values] = new CborReader(readPayload(path.join(s.dir, 'filter', `${hash}.pf_filter`))).value() as [string, [string, number[]][]];
    if (filter !== name) unsupported(s.dir, `filter file ${hash} holds ${filter}, not ${name}`);
    let merged = filters.get(filter);
    if (!merged) filters.set(filter, merged = new Map());
    for (const [value, pages] of values) {
      const list = merged.get(value) ?? [];
      for (const p of pages) list.push(p + s.offset);
      merged.set(value, list);
    }
  }
}

function writeFilters(filters: Map<string, Map<string, number[]>>, language: string, outDir: string): [string, string][] {
  const taken = new Set<string>();
  const meta: [string, string][] = [];
  for (const filter of [...filters.keys()].sort(compareBytes)) {
    const values = [...filters.get(filter)!].sort((a, b) => compareBytes(a[0], b[0]));
    const payload = new CborWriter().value([filter, values]).bytes();
    const name = shortName(language, fullHash(payload), NAME_PREFIX, taken);
    writePayload(path.join(outDir, 'filter', `${name}.pf_filter`), payload);
    meta.push([filter, name]);
  }
  return meta;
}

/**
 * Moves one session's fragments into `outDir`, named as one session over all pages would name
 * them (`taken`: the names earlier sessions' pages hold); returns the fragments that got another
 * name (session's name → merged name).
 */
function moveFragments(s: Session, outDir: string, taken: Set<string>, pages: MetaPage[]): Map<string, string> {
  const renamed = new Map<string, string>();
  const minimum = s.language.length + 1 + NAME_PREFIX;
  for (const [hash, wordCount] of s.meta[1]) {
    const source = path.join(s.dir, 'fragment', `${hash}.pf_fragment`);
    let name = hash;
    if (hash.length !== minimum || taken.has(hash)) {
      name = shortName(s.language, fullHash(readPayload(source)), NAME_PREFIX, taken);
      renamed.set(hash, name);
    } else {
      taken.add(name);
    }
    renameSync(source, path.join(outDir, 'fragment', `${name}.pf_fragment`));
    pages.push([name, wordCount]);
  }
  return renamed;
}

export interface MergeResult {
  pages: number;
  /** Per session, in order: its fragments whose name changed in the merge (old → new). */
  renamed: Map<string, string>[];
}

export interface SessionMerger {
  /**
   * Session `index`'s bundle is complete. Sessions are taken in order: each is read (and its
   * fragments moved) as soon as every session before it has been, so the reading overlaps the
   * sessions still running instead of waiting for the last. Throws what is wrong with a bundle.
   */
  add(index: number, dir: string): void;
  /** Writes the merged bundle; every session must have been added. */
  finish(): Promise<MergeResult>;
}

/**
 * Merges the bundles of `count` sessions (over consecutive slices of the pages, in order) into
 * `outDir`, as they come. The session folders are consumed (fragments are moved out of them).
 * `onMerged` hears of each session once it is taken, in order, with its renamed fragments.
 */
export function createMerger(count: number, outDir: string, onMerged?: (index: number, renamed: Map<string, string>) => void): SessionMerger {
  if (count === 0) throw new Error('no Pagefind sessions to merge');
  const waiting = new Map<number, string>();
  const read: Session[] = [];
  const renamed: Map<string, string>[] = [];
  const taken = new Set<string>();
  const pages: MetaPage[] = [];
  const filters = new Map<string, Map<string, number[]>>();
  const words = new Map<string, WordRuns>();

  const take = (dir: string) => {
    const s: Session = { ...readSession(dir), offset: pages.length };
    const first = read[0] ?? s;
    if (s.language !== first.language) unsupported(s.dir, `language ${s.language} where the first session has ${first.language}`);
    if (JSON.stringify(s.meta[5]) !== JSON.stringify(first.meta[5])) unsupported(s.dir, 'meta fields that differ between sessions');
    if (read.length === 0) for (const sub of ['index', 'filter', 'fragment']) mkdirSync(path.join(outDir, sub), { recursive: true });
    read.push(s);
    renamed.push(moveFragments(s, outDir, taken, pages));
    readFilters(s, filters);
    readWords(s, words);
    onMerged?.(read.length - 1, renamed[renamed.length - 1]!);
  };

  return {
    add(index, dir) {
      if (index < read.length || waiting.has(index) || index >= count) throw new Error(`session ${index} added twice or out of range`);
      waiting.set(index, dir);
      for (let next = waiting.get(read.length); next !== undefined; next = waiting.get(read.length)) {
        waiting.delete(read.length);
        take(next);
      }
    },
    async finish() {
      if (read.length !== count) throw new Error(`${count - read.length} of ${count} Pagefind sessions were not merged`);
      const [first] = read as [Session, ...Session[]];
      const { language } = first;
      // The runtime (pagefind.js, its WebAssembly) is the same in every session's bundle.
      for (const e of readdirSync(first.dir, { withFileTypes: true })) {
        if (e.isFile() && !e.name.endsWith('.pf_meta') && e.name !== 'pagefind-entry.json') {
          copyFileSync(path.join(first.dir, e.name), path.join(outDir, e.name));
        }
      }
      const filterMeta = writeFilters(filters, language, outDir);
      const chunks = writeChunks(words, language, outDir);
      words.clear();

      const meta: BundleMeta = [PAGEFIND_FORMAT, pages, chunks, filterMeta, [], first.meta[5]];
      const payload = new CborWriter().value(meta).bytes();
      const metaName = `${language}_${fullHash(payload).slice(0, META_PREFIX)}`;
      writePayload(path.join(outDir, `pagefind.${metaName}.pf_meta`), payload);
      const entry: BundleEntry = { ...first.entry, languages: { [language]: { ...first.entry.languages[language]!, hash: metaName, page_count: pages.length } } };
      writeFileSync(path.join(outDir, 'pagefind-entry.json'), JSON.stringify(entry));
      return { pages: pages.length, renamed };
    },
  };
}

/** Merges the bundles in `sessionDirs`, all complete, into `outDir` (see createMerger). */
export async function mergeSessions(sessionDirs: string[], outDir: string): Promise<MergeResult> {
  const merger = createMerger(sessionDirs.length, outDir);
  sessionDirs.forEach((dir, i) => merger.add(i, dir));
  return merger.finish();
}
