/**
 * Pagefind's whole bundle of the published pages, as browsers and CDN-cached clients load it: its
 * JavaScript API (`pagefind.js`), WebAssembly, entry, meta, the content-hashed index, fragment and
 * filter shards, and its UI files. Made through Pagefind's public Node API only: each page is one
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
}

export interface PagefindBundleResult {
  /** Pages in the bundle. */
  indexed: number;
  /** Files written. */
  files: number;
}

/**
 * Records on their way to Pagefind's process at once: a reply awaited before each next record
 * would make indexing a chain of round trips.
 */
const RECORD_WINDOW = 64;

const defaults = {
  writeFile: (file: string, data: Uint8Array) => fs.writeFileSync(file, data, { flag: 'wx' }),
  progress: () => {},
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

/**
 * Writes the bundle of `pages` into `outDir` with this thread's Pagefind process, which it stops
 * at the end, whatever happens: nothing else in the thread may be using Pagefind meanwhile.
 */
export async function writePagefindBundle(options: PagefindBundleOptions): Promise<PagefindBundleResult> {
  const { pages, outDir, writeFile, progress, signal } = { ...defaults, ...options };
  const all: PageSource = 'read' in pages ? pages : [...pages].sort(byPath);
  const read = (from: number, to: number) => ('read' in all ? all.read(from, to) : all.slice(from, to));
  // Made first: a folder that is already there fails the call before any indexing.
  const root = path.resolve(outDir);
  fs.mkdirSync(path.dirname(root), { recursive: true });
  fs.mkdirSync(root);
  try {
    const created = await pagefind.createIndex({ forceLanguage: 'es' });
    if (!created.index) throw failed('createIndex', created.errors);
    const index = created.index;
    let indexed = 0;
    for (let from = 0; from < all.length; from += RECORD_WINDOW) {
      const window = read(from, Math.min(all.length, from + RECORD_WINDOW));
      const sent: ReturnType<typeof index.addCustomRecord>[] = [];
      await inSlices(window, (page) => { sent.push(index.addCustomRecord(record(page))); }, () => {}, signal);
      const added = await Promise.all(sent);
      added.forEach((a, k) => {
        const url = window[k]!.path;
        if (a.errors.length) throw failed(`addCustomRecord ${url}`, a.errors);
        if (a.file.url !== url) throw failed(`addCustomRecord ${url}`, [`indexed as ${a.file.url}`]);
      });
      indexed += added.length;
      progress(indexed, all.length);
    }
    signal?.throwIfAborted();
    const got = await index.getFiles();
    if (got.errors.length) throw failed('getFiles', got.errors);
    await writeAll(root, got.files, writeFile, signal);
    return { indexed, files: got.files.length };
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
