/**
 * The search index of one read-model build: Pagefind's bundle, the postings the server searches
 * (written from the bundle: postings-writer.ts), the sidecar (formats/search/sidecar.ts) and the
 * answers of common words (formats/search/word-answers.ts).
 *
 * Pages go in with `addCustomRecord`, not `addHTMLFile`: the read model already holds each
 * page's main content, and indexing its plain text keeps the words Pagefind locates identical
 * to the words excerpts are cut from (`text.split(' ')`), with no menus or markup to exclude.
 * The title goes in as `meta.title`, which Pagefind 1.6 also ranks (a title match outweighs a
 * body mention), so the heading weighting `addHTMLFile` would add is not lost.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import * as pagefind from 'pagefind';
import type { ReadModelPage } from '../../formats/schemas/read-model.ts';
import { headingText, markdownToText, withoutLinkLists } from '../../formats/search/plain-text.ts';
import { fieldStems } from '../../formats/search/page-stems.ts';
import type { CompiledLexicon } from '../../formats/schemas/lexicon.ts';
import { ENGLISH_WORDS_FILE, LEXICON_FILE, PAGEFIND_DIR, SPANISH_WORDS_FILE } from '../../formats/search/sidecar.ts';
import { words } from '../../formats/search/text.ts';
import { backendsExited } from './backend-exit.ts';
import { decodePayload } from './files.ts';
import { compileLexicon } from '../lexicon/compile.ts';
import { realWordsFilters } from '../lexicon/real-words.ts';
import { createMerger } from './merge.ts';
import { byPath } from '../page-index.ts';
import { createSidecarWriter } from './sidecar-files.ts';
import { writePostings, type PostingsOptions } from './postings-writer.ts';
import { writeWordAnswers, type AnswersMaker } from '../../formats/search/word-answers.ts';

/** Files Pagefind writes for browsers (UI, highlighting, worker); the tests' Node runtime needs none. */
const BROWSER_ONLY = [
  'pagefind-ui.js', 'pagefind-ui.css', 'pagefind-modular-ui.js', 'pagefind-modular-ui.css',
  'pagefind-component-ui.js', 'pagefind-component-ui.css', 'pagefind-highlight.js', 'pagefind-worker.js',
];

/**
 * The text indexed for a page: its description (when the body does not already say it), then the
 * body without its lists of links (plain-text.ts `withoutLinkLists`).
 */
export function indexedText(page: Pick<ReadModelPage, 'description' | 'markdown'>): string {
  const body = markdownToText(withoutLinkLists(page.markdown));
  const description = page.description.replace(/\s+/g, ' ').trim();
  return description === '' || body.includes(description) ? body : `${description} ${body}`;
}

/** Records in flight to Pagefind at once. */
const RECORD_WINDOW = 64;
/**
 * Pages per Pagefind session. Pagefind's process holds every page it was given until its bundle
 * is written; sessions of a bounded size keep it small, and merge.ts joins their bundles into the
 * one a single session would have written. Pagefind's CPU per page does not depend on the session
 * size, but the stage ends when its last session does, with a core idle meanwhile, so smaller
 * sessions end it sooner.
 */
export const SESSION_PAGES = 250;

/** What a session needs of each page. */
export type SessionPage = Pick<ReadModelPage, 'path' | 'title' | 'city' | 'description' | 'markdown'>;

/**
 * The pages to index: all at hand (in any order), or their number and a reader of consecutive
 * ones in path order, called as each session starts, so a large site's text is never in memory
 * all at once.
 */
export type PageSource = readonly SessionPage[] | { readonly length: number; read(from: number, to: number): SessionPage[] };

function readPages(pages: PageSource, from: number, to: number): SessionPage[] {
  const slice = 'read' in pages ? pages.read(from, to) : pages.slice(from, to);
  return slice.map(({ path: p, title, city, description, markdown }) => ({ path: p, title, city, description, markdown }));
}

export interface SessionTask {
  pages: SessionPage[];
  /** Where the session's bundle is written. */
  bundle: string;
}

export interface SessionResult {
  /** The indexed text of each page, in order. */
  texts: string[];
  /** Folded word → pages of the session it appears in (title included). */
  df: [string, number][];
  /** Pagefind page id (its fragment's name in the session's bundle) → the page's path. */
  fragments: [id: string, url: string][];
  /** Each page's title stems and heading stems (`sessionStems`), in order. */
  stems: string[];
}

/** Runs one session somewhere: in this thread (the default) or in a build worker (the pipeline). */
export type SessionRunner = (task: SessionTask) => Promise<SessionResult>;

function fail(what: string, errors: string[]): never {
  throw new Error(`pagefind ${what}: ${errors.join('; ')}`);
}

const FRAGMENT = /^fragment\/([^/]+)\.pf_fragment$/;

/**
 * Pagefind page id → record URL, from the fragments of a bundle (single or grouped), read while
 * the session still holds them in memory: reading them back from disk after the merge would
 * lengthen the stage's single-threaded end.
 */
function fragmentUrls(files: { path: string; content: Uint8Array }[]): [string, string][] {
  const out: [string, string][] = [];
  for (const file of files) {
    const id = FRAGMENT.exec(file.path)?.[1];
    if (id === undefined) continue;
    const json = JSON.parse(decodePayload(file.content, file.path).toString('utf8')) as { url?: string } | Record<string, { url: string }>;
    if (typeof json.url === 'string') out.push([id, json.url]);
    else for (const [grouped, fragment] of Object.entries(json as Record<string, { url: string }>)) out.push([grouped, fragment.url]);
  }
  return out;
}

/** Writes Pagefind's files (paths relative to the bundle) under `bundle`, but those only browsers use. */
function writeBundle(bundle: string, files: { path: string; content: Uint8Array }[]): void {
  const root = path.resolve(bundle);
  const made = new Set<string>();
  for (const file of files) {
    if (BROWSER_ONLY.includes(file.path)) continue;
    const target = path.resolve(root, file.path);
    if (!target.startsWith(root + path.sep)) throw new Error(`pagefind getFiles: a file outside the bundle: ${file.path}`);
    const dir = path.dirname(target);
    if (!made.has(dir)) { mkdirSync(dir, { recursive: true }); made.add(dir); }
    writeFileSync(target, file.content);
  }
}

/**
 * Pagefind's binary allocates with jemalloc, which returns freed runs to the kernel and faults
 * fresh 4 KB pages in for the next ones, so much of its main thread's time goes to the kernel
 * (page faults and `madvise`). Asking for transparent huge pages for its heap (the kernel's
 * default THP mode, `madvise`, gives them only to who asks) saves most of those faults.
 * Children inherit the thread's environment; a configuration the user set is left alone. Kernels without THP ignore it.
 */
const JEMALLOC_CONF = '_RJEM_MALLOC_CONF';
process.env[JEMALLOC_CONF] ??= 'thp:always,metadata_thp:always';

/**
 * Stops this thread's Pagefind process. Sessions keep it between them (each session deletes its
 * own index): a process per session would fault its heap in afresh each time. The owner of the
 * sessions calls this once none runs (a session under way would fail with "Pagefind backend closed"), and
 * while this thread lives on; it returns once the process's exit is collected (Pagefind's close()
 * does not wait for it: backend-exit.ts), so no zombie or orphan outlives the thread and the
 * process's CPU time is in the build's own accounts.
 */
export async function endSessions(): Promise<void> {
  await pagefind.close();
  await backendsExited();
}

/**
 * One Pagefind index of `pages`, written to `bundle`, by this thread's Pagefind process (each
 * worker thread has its own, so sessions in two workers run side by side; two sessions in one
 * thread share it, each with its own index). The process runs on until `endSessions`.
 */
export async function indexSession({ pages, bundle }: SessionTask): Promise<SessionResult> {
  const texts = pages.map(indexedText);
  const stems = pages.map(sessionStems);
  const df = new Map<string, number>();
  pages.forEach((page, i) => {
    for (const w of new Set(words(`${page.title} ${texts[i]}`))) df.set(w, (df.get(w) ?? 0) + 1);
  });
  const created = await pagefind.createIndex({ forceLanguage: 'es' });
  if (!created.index) fail('createIndex', created.errors);
  const index = created.index;
  let fragments: [string, string][];
  try {
    // Records go to Pagefind's process in order, a window at a time: awaiting each reply before
    // sending the next would make the stage a chain of round trips.
    for (let i = 0; i < pages.length; i += RECORD_WINDOW) {
      const batch = pages.slice(i, i + RECORD_WINDOW);
      const added = await Promise.all(batch.map((page, k) => index.addCustomRecord({
        url: page.path,
        content: texts[i + k]!,
        language: 'es',
        meta: { title: page.title },
        filters: page.city ? { city: [page.city] } : {},
      })));
      added.forEach((a, k) => { if (a.errors.length) fail(`addCustomRecord ${batch[k]!.path}`, a.errors); });
    }
    // Not `writeFiles`: Pagefind answers it before its last writes reach the disk (its tokio file
    // writes are never flushed), and the session then stops the process, so a file could be left
    // empty. The bundle is taken in memory and written here, whole, before the process is stopped.
    const got = await index.getFiles();
    if (got.errors.length) fail('getFiles', got.errors);
    writeBundle(bundle, got.files);
    fragments = fragmentUrls(got.files);
  } finally {
    // Frees the session's records in Pagefind's process, which the next session reuses.
    await index.deleteIndex().catch(() => null);
  }
  return { texts, df: [...df], fragments, stems };
}

/** Folded word → stem, kept by each thread across its sessions (the sites' words recur). */
const stemMemo = new Map<string, string>();

/**
 * The stems search matches a page's title and headings on (the headings field counts the
 * description too), as one line: the title's stems, a newline, the headings' — the stems carry
 * neither spaces nor newlines.
 */
function sessionStems(page: SessionPage): string {
  return `${fieldStems(page.title, stemMemo).join(' ')}\n${fieldStems(`${headingText(page.markdown)} ${page.description}`, stemMemo).join(' ')}`;
}

const stemList = (line: string) => (line === '' ? [] : line.split(' '));

export async function buildSearchIndex(opts: {
  pages: PageSource;
  outDir: string;
  siteUrl: string;
  /** The compiled search lexicon (default: the empty one). */
  lexicon?: CompiledLexicon;
  sessionPages?: number;
  /**
   * Runs the sessions; the caller ends them (`endSessions` where they ran) after this returns.
   * Default: one after the other in this thread, ended here.
   */
  runSession?: SessionRunner;
  /**
   * Ends the sessions' Pagefind processes, called once the last session has ended: the merge
   * and the files after it need nothing from them, and each holds its memory until stopped.
   */
  endSessions?: () => Promise<void>;
  /** Sessions run at once (with a runner that spreads them over workers). */
  parallel?: number;
  /** Makes the common words' answers in `parts` at once (default: in this thread, one part). */
  answers?: { make: AnswersMaker; parts: number };
  /** Makes the postings in `parts` at once (default: in this thread, one part). */
  postings?: PostingsOptions;
  /** Pages indexed so far, after each session. */
  progress?: (done: number) => void;
}): Promise<{ indexed: number }> {
  const { outDir, siteUrl } = opts;
  // Pages go in by path: the sidecar stores them in that order, as the sessions' order.
  const pages: PageSource = 'read' in opts.pages ? opts.pages : [...opts.pages].sort(byPath);
  const sessionPages = opts.sessionPages ?? SESSION_PAGES;
  if (!opts.runSession) {
    try {
      return await buildSearchIndex({ ...opts, runSession: indexSession, parallel: 1, endSessions });
    } finally {
      await endSessions();
    }
  }
  const run = opts.runSession;
  const parallel = Math.max(1, opts.parallel ?? 1);
  const bundle = path.join(outDir, PAGEFIND_DIR);
  await fs.rm(outDir, { recursive: true, force: true });
  await fs.mkdir(outDir, { recursive: true });

  const slices: { from: number; to: number }[] = [];
  for (let i = 0; i < pages.length; i += sessionPages) slices.push({ from: i, to: Math.min(pages.length, i + sessionPages) });
  const sessionsDir = path.join(outDir, '.sessions');
  const dirs = slices.length === 1 ? [bundle] : slices.map((_, i) => path.join(sessionsDir, String(i)));
  // The sidecar takes each session's pages as the merge takes the session, in page order, so the
  // sessions' texts need no keeping and only the vocabulary's part is left for the stage's end.
  const sidecar = createSidecarWriter(outDir);
  const ended = new Map<number, { slice: SessionPage[]; result: SessionResult }>();
  let indexed = 0;
  let lastPath: string | null = null;
  const toSidecar = (index: number, renamed?: Map<string, string>) => {
    const { slice, result } = ended.get(index)!;
    ended.delete(index);
    const idOf = new Map<string, string>();
    for (const [id, url] of result.fragments) idOf.set(url, renamed?.get(id) ?? id);
    const added = new Set(slice.map((page) => page.path));
    for (const url of idOf.keys()) if (!added.has(url)) throw new Error(`pagefind returned a page that was not added: ${url}`);
    indexed += result.fragments.length;
    slice.forEach((page, k) => {
      const id = idOf.get(page.path);
      if (id === undefined) return;
      if (lastPath !== null && !(lastPath < page.path)) throw new Error(`pages to index must come in path order: ${page.path} after ${lastPath}`);
      lastPath = page.path;
      const [title = '', heads = ''] = result.stems[k]!.split('\n');
      sidecar.add({ id, path: page.path, text: result.texts[k]!, titleStems: stemList(title), headStems: stemList(heads) });
    });
  };
  // Each session's bundle is read into the merge as soon as it and those before it are done.
  const merger = slices.length > 1 ? createMerger(slices.length, bundle, toSidecar) : null;
  try {
    // Each session's word counts are summed as it ends: a session's list is as long as its
    // vocabulary, and hundreds of sessions' lists would outweigh the sum.
    const df = new Map<string, number>();
    let next = 0;
    let done = 0;
    await Promise.all(Array.from({ length: Math.min(parallel, slices.length) }, async () => {
      for (let i = next++; i < slices.length; i = next++) {
        const slice = readPages(pages, slices[i]!.from, slices[i]!.to);
        const result = await run({ pages: slice, bundle: dirs[i]! });
        for (const [w, n] of result.df) df.set(w, (df.get(w) ?? 0) + n);
        ended.set(i, { slice, result });
        if (merger) merger.add(i, dirs[i]!);
        else toSidecar(i);
        opts.progress?.(done += slice.length);
      }
    }));
    await opts.endSessions?.();
    if (merger) {
      await merger.finish();
      await fs.rm(sessionsDir, { recursive: true, force: true });
    }
    sidecar.finish({ site_url: siteUrl, vocabulary: [...df].sort((a, b) => (a[0] < b[0] ? -1 : 1)) });
    await writePostings(outDir, opts.postings);
    await writeWordAnswers(outDir, undefined, opts.answers);
    await fs.writeFile(path.join(outDir, LEXICON_FILE), JSON.stringify(opts.lexicon ?? compileLexicon()));
    const realWords = realWordsFilters();
    await fs.writeFile(path.join(outDir, SPANISH_WORDS_FILE), realWords.spanish);
    await fs.writeFile(path.join(outDir, ENGLISH_WORDS_FILE), realWords.english);
    return { indexed };
  } finally {
    sidecar.close();
  }
}
