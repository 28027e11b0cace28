/**
 * Pagefind's whole bundle of the published pages, as browsers and CDN-cached clients load it: its
 * JavaScript API (`pagefind.js`), WebAssembly, entry, meta, the content-hashed index, fragment and
 * filter shards, and its UI files; on a large site, in parts (formats/pagefind-bundle.ts) listed in
 * PARTS_FILE. Made through Pagefind's public Node API only: each page is one
 * custom record (its site path as the URL, the plain text the build indexes, its title as
 * `meta.title`, its city as the `city` filter), and the files Pagefind hands back are written as
 * they are, nothing in them read or changed.
 *
 * The files are taken with `getFiles` and written here rather than by `writeFiles`: Pagefind 1.5
 * answers `writeFiles` before its last writes reach the disk, and its process is stopped right
 * after, which could leave a file cut short.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as pagefind from 'pagefind';
import { BundleParts, PARTS_FILE, partDir } from '../formats/pagefind-bundle.ts';
import { byPath } from './page-index.ts';
import { indexedText, type IndexPage, type PageSource } from './search-index/search-index.ts';
import { inSlices } from './slices.ts';

export interface PagefindBundleOptions {
  /** The pages to index: all at hand, or their number and a reader of consecutive ones. */
  pages: PageSource;
  /** The bundle's folder, created here: it must not exist yet. */
  outDir: string;
  /** Writes one new file of the bundle (default: as it is, refusing a file already there). */
  writeFile?: (file: string, data: Uint8Array) => void;
  /** Pages added so far. */
  progress?: (done: number, total: number) => void;
  /** Stops the work, throwing its reason, once aborted. */
  signal?: AbortSignal;
  /** Most a part may hold (default: PART_LIMITS). */
  partLimits?: PartLimits;
}

export interface PagefindBundleResult {
  /** Pages in the bundle. */
  indexed: number;
  /** Files written. */
  files: number;
  /** Parts: 1 unless the site passes a part's limits. */
  parts: number;
}

/** A part closes at whichever it reaches first (a part has one page at least). */
export interface PartLimits {
  pages: number;
  /** Indexed text, in UTF-16 code units. */
  textChars: number;
}

/**
 * Pagefind's process holds many times a part's text while it makes the part's files, so a part's
 * text bounds the build's memory whatever the site's size.
 */
export const PART_LIMITS: PartLimits = { pages: 10_000, textChars: 64 * 1024 * 1024 };

/**
 * Records on their way to Pagefind's process at once: a reply awaited before each next record
 * would make indexing a chain of round trips.
 */
const RECORD_WINDOW = 64;

const defaults = {
  writeFile: (file: string, data: Uint8Array) => fs.writeFileSync(file, data, { flag: 'wx' }),
  progress: () => {},
  partLimits: PART_LIMITS,
};

function failed(what: string, errors: readonly string[]): Error {
  return new Error(`pagefind ${what}: ${errors.join('; ')}`);
}

function record(page: IndexPage): pagefind.CustomRecord {
  return {
    url: page.path,
    content: indexedText(page),
    language: 'es',
    meta: { title: page.title },
    filters: page.city ? { city: [page.city] } : {},
  };
}

interface PartJob {
  read(from: number, to: number): IndexPage[];
  total: number;
  /** The part's first page. */
  from: number;
  dir: string;
  limits: PartLimits;
  writeFile: (file: string, data: Uint8Array) => void;
  added: (done: number) => void;
  signal?: AbortSignal;
}

/**
 * Writes the bundle of `pages` into `outDir`, one part at a time, each with a Pagefind process of
 * its own, stopped once the part is written, whatever happens: nothing else in the thread may be
 * using Pagefind meanwhile.
 */
export async function writePagefindBundle(options: PagefindBundleOptions): Promise<PagefindBundleResult> {
  const { pages, outDir, writeFile, progress, signal, partLimits } = { ...defaults, ...options };
  const all: PageSource = 'read' in pages ? pages : [...pages].sort(byPath);
  const read = (from: number, to: number) => ('read' in all ? all.read(from, to) : all.slice(from, to));
  // Made first: a folder that is already there fails the call before any indexing.
  const root = path.resolve(outDir);
  fs.mkdirSync(path.dirname(root), { recursive: true });
  fs.mkdirSync(root);
  const others: string[] = [];
  let files = 0;
  let from = 0;
  let n = 0;
  do {
    n++;
    const dir = n === 1 ? root : path.join(root, partDir(n));
    if (n > 1) {
      fs.mkdirSync(dir);
      others.push(`${partDir(n)}/`);
    }
    const part = await writePart({ read, total: all.length, from, dir, limits: partLimits, writeFile, signal, added: (done) => progress(done, all.length) });
    files += part.files;
    from = part.to;
  } while (from < all.length);
  const list: BundleParts = { parts: others };
  writeFile(path.join(root, PARTS_FILE), new TextEncoder().encode(JSON.stringify(list) + '\n'));
  return { indexed: from, files: files + 1, parts: n };
}

/** Indexes the pages from `job.from` until the part is full or the pages end, and writes the part; returns where it stopped. */
async function writePart(job: PartJob): Promise<{ to: number; files: number }> {
  const { limits, signal } = job;
  try {
    const created = await pagefind.createIndex({ forceLanguage: 'es' });
    if (!created.index) throw failed('createIndex', created.errors);
    const index = created.index;
    let at = job.from;
    let text = 0;
    while (at < job.total && at - job.from < limits.pages && text < limits.textChars) {
      const window = job.read(at, Math.min(job.total, at + RECORD_WINDOW, job.from + limits.pages));
      const records: pagefind.CustomRecord[] = [];
      await inSlices(window, (page) => {
        if (text >= limits.textChars && (records.length || at > job.from)) return;
        const r = record(page);
        text += r.content.length;
        records.push(r);
      }, () => {}, signal);
      const added = await Promise.all(records.map((r) => index.addCustomRecord(r)));
      added.forEach((a, k) => {
        const url = records[k]!.url;
        if (a.errors.length) throw failed(`addCustomRecord ${url}`, a.errors);
        if (a.file.url !== url) throw failed(`addCustomRecord ${url}`, [`indexed as ${a.file.url}`]);
      });
      at += records.length;
      job.added(at);
    }
    signal?.throwIfAborted();
    const got = await index.getFiles();
    if (got.errors.length) throw failed('getFiles', got.errors);
    await writeAll(job.dir, got.files, job.writeFile, signal);
    return { to: at, files: got.files.length };
  } finally {
    await pagefind.close();
  }
}

/** Writes `files` (paths relative to the bundle) under `root`, a slice of the main thread's time at a time. */
async function writeAll(root: string, files: readonly pagefind.IndexFile[], writeFile: (file: string, data: Uint8Array) => void, signal?: AbortSignal): Promise<void> {
  const made = new Set([root]);
  await inSlices(files, (file) => {
    const target = path.resolve(root, file.path);
    if (!target.startsWith(root + path.sep)) throw new Error(`pagefind getFiles: a file outside the bundle: ${file.path}`);
    const dir = path.dirname(target);
    if (!made.has(dir)) {
      fs.mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    writeFile(target, file.content);
  }, () => {}, signal);
}
