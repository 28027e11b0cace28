/**
 * The read-model build: astro → (site | crawl → extract → company → (search | pagefind | pages →
 * validate)) → publish. Everything is written to a staging folder; only the last stage makes it
 * visible, so a failure at any point leaves the published model (the `current` pointer) alone.
 *
 * Memory does not grow with the site's text: the crawl's workers convert each page as they read
 * it and the crawl leaves its Markdown in a spill file (text-spill.ts); the pages stage then makes
 * each read-model page from it, in path order, writes it and keeps its index entry only, and each
 * search session reads its own pages from the spill when it starts. Runs go side by side so the
 * cores do all of it at once: site, which only reads the built site, on the main thread beside
 * everything else; search, whose page analysis runs in the workers, beside pages and validate
 * (whose checks go to the workers between the search's slices); pagefind, whose Pagefind process
 * indexes while this thread only feeds it, beside them too, its bundle moved into the staged site
 * only once the site stage has ended.
 * Each stage keeps its own progress, timing and failure; when one of them fails, the others stop
 * at their next step, and the build reports the first failure.
 */
import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { distDirFrom, parseSiteUrl, readModelDirFrom, ROOT, siteUrlFrom } from '../formats/settings.ts';
import { buildPath, BUILDS_DIR } from '../formats/read-model/pointer.ts';
import type { Manifest } from '../formats/schemas/read-model.ts';
import { COMPANY_SECTIONS } from '../formats/schemas/resources.ts';
import { newBuildId } from './build-id.ts';
import { contentId } from './content-id.ts';
import type { BuildContext, ProgressEvent } from './context.ts';
import { BuildError, messageOf } from './errors.ts';
import { listEntries } from './files.ts';
import { acquireLock } from './lock.ts';
import { createManifest } from './manifest.ts';
import { createBuildWorkers } from './workers.ts';
import { astroBuild } from './stages/astro.ts';
import { company } from './stages/company.ts';
import { crawl } from './stages/crawl.ts';
import { extract } from './stages/extract.ts';
import { pageSource, writePages } from './stages/pages.ts';
import { pagefindBundle } from './stages/pagefind.ts';
import { copySite } from './stages/site.ts';
import { publish } from './stages/publish.ts';
import { search } from './stages/search.ts';
import { validate } from './stages/validate.ts';
import { createTextSpill, type TextSpill } from './text-spill.ts';

export interface BuildOptions {
  /** Static site root, Astro's `dist/client` (default: DIST_DIR/client). */
  distDir?: string;
  /** Read-model root holding `current` and `builds/` (default: READ_MODEL_DIR). */
  outDir?: string;
  /** SITE_URL, an origin (default: SITE_URL or http://localhost:4321). */
  siteUrl?: string;
  /** Folder with company.json, services.json, cities.json (default: src/content). */
  contentDir?: string;
  /** Project root `astro build` runs in (default: the repository). */
  root?: string;
  /** Use the site already in `distDir` instead of running `astro build`. */
  skipAstro?: boolean;
  /** Have Astro render every page and load every entry, its caches set aside (`--full`). */
  full?: boolean;
  /** Receives whole lines: stage results, warnings, and astro's output when it fails. */
  log?: (line: string) => void;
  /** Receives the running stage's progress. */
  progress?: (event: ProgressEvent) => void;
  /** Worker threads that read and convert pages, analyse pages for search and check pages (default: one per core). */
  workers?: number;
}

export interface BuildResult {
  buildId: string;
  buildDir: string;
  /** The build `current` named before this one, or null. */
  previous: string | null;
  manifest: Manifest;
  warnings: string[];
  /** Milliseconds per stage, in running order (publish included). */
  timings: Record<string, number>;
  totalMs: number;
  peakRssBytes: number;
}

const STAGE_ORDER = ['astro', 'crawl', 'extract', 'company', 'pages', 'search', 'validate', 'site', 'pagefind', 'publish'];

/** Stage timings in the pipeline's order, whichever of the side-by-side stages finished first. */
function inStageOrder(timings: Record<string, number>): Record<string, number> {
  return Object.fromEntries(STAGE_ORDER.filter((s) => s in timings).map((s) => [s, timings[s]!]));
}

/** Runs them all; once all have stopped, throws the failure that came first, if any, after aborting `abort` at it. */
async function sideBySide(abort: AbortController, ...runs: (() => Promise<unknown>)[]): Promise<void> {
  let first: { error: unknown } | null = null;
  await Promise.all(runs.map((run) => run().catch((error: unknown) => {
    first ??= { error };
    abort.abort(error);
  })));
  if (first) throw (first as { error: unknown }).error;
}

/** The stages that take the built site's listing: site and crawl. */
const SITE_LISTING_USERS = 2;

/** The Markdown spill's name in the staging folder: removed before the build is published. */
const SPILL_FILE = '.markdown.spill';

function resolveOptions(options: BuildOptions) {
  let siteUrl: string;
  try {
    const fromEnv = siteUrlFrom(process.env);
    siteUrl = options.siteUrl === undefined ? fromEnv : parseSiteUrl(options.siteUrl);
  } catch (err) {
    throw new BuildError('start', undefined, messageOf(err));
  }
  return {
    distDir: path.resolve(options.distDir ?? path.join(distDirFrom(process.env), 'client')),
    outDir: path.resolve(options.outDir ?? readModelDirFrom(process.env)),
    siteUrl,
    contentDir: path.resolve(options.contentDir ?? path.join(ROOT, 'src', 'content')),
    root: path.resolve(options.root ?? ROOT),
  };
}

export async function buildReadModel(options: BuildOptions = {}): Promise<BuildResult> {
  const started = performance.now();
  const { distDir, outDir, siteUrl, contentDir, root } = resolveOptions(options);
  const log = options.log ?? (() => {});
  const warnings: string[] = [];
  const timings: Record<string, number> = {};
  const buildId = newBuildId();
  const stagingDir = path.join(outDir, BUILDS_DIR, `.staging-${buildId}`);
  let stageName = 'start';
  const workers = createBuildWorkers(options.workers);
  const abort = new AbortController();
  let spill: TextSpill | undefined;
  const spillOf = (): TextSpill => (spill ??= createTextSpill(path.join(stagingDir, SPILL_FILE)));
  // The site and the crawl both need the built site's listing, on the main thread, before any
  // worker has a page, and a large site's listing is slow: one listing serves both. It is
  // forgotten once both have it, so that it is freed with the site stage, not at the build's end.
  let siteEntries: Dirent[] | undefined;
  let siteEntriesTaken = 0;
  const takeSiteEntries = (): Dirent[] => {
    const entries = siteEntries ?? listEntries(distDir);
    siteEntries = ++siteEntriesTaken < SITE_LISTING_USERS ? entries : undefined;
    return entries;
  };

  const ctx: BuildContext = {
    distDir, outDir, stagingDir, siteUrl, contentDir, buildId, log, workers, signal: abort.signal,
    get spill() { return spillOf(); },
    siteEntries: takeSiteEntries,
    warn: (line) => {
      warnings.push(line);
      log(`warning: ${line}`);
    },
    progress: (done, total) => options.progress?.({ stage: stageName, done, total }),
  };

  const stage = async <T>(name: string, run: (ctx: BuildContext) => Promise<T>, summary?: (value: T) => string): Promise<T> => {
    stageName = name;
    const t = performance.now();
    options.progress?.({ stage: name, done: 0, total: undefined });
    let value: T;
    try {
      value = await run({ ...ctx, progress: (done, total) => options.progress?.({ stage: name, done, total }) });
    } catch (err) {
      if (err instanceof BuildError) throw err;
      throw new BuildError(name, undefined, messageOf(err), { cause: err });
    }
    timings[name] = Math.round(performance.now() - t);
    log(`✓ ${name.padEnd(11)} ${String(timings[name]).padStart(6)} ms${summary ? `  ${summary(value)}` : ''}`);
    return value;
  };

  await fs.mkdir(path.join(outDir, BUILDS_DIR), { recursive: true });
  const release = await acquireLock(outDir);
  try {
    await fs.mkdir(stagingDir);
    if (!options.skipAstro) {
      await stage('astro', (c) => astroBuild(c, root, { full: options.full }), (r) => `${r.pages} pages built, ${r.rendered.length} rendered`);
    }
    workers.start();
    let sections: Awaited<ReturnType<typeof company>> | undefined;
    let entries: Awaited<ReturnType<typeof writePages>> = [];
    const siteStaged = stage('site', (c) => copySite(c), (r) => `${r.files} files staged, ${r.siblings} gzip/brotli siblings written`);
    await sideBySide(abort,
      () => siteStaged,
      async () => {
        const crawled = await stage('crawl', (c) => crawl(c), (r) => `${r.pages.length} pages`);
        const metas = await stage('extract', (c) => extract(c, crawled.pages), (r) => `${r.length} pages`);
        const pages = pageSource(spillOf(), crawled.pages, metas, abort.signal);
        sections = await stage('company', (c) => company(c, metas), () => `${COMPANY_SECTIONS.length} sections`);
        await sideBySide(abort,
          () => stage('search', (c) => search(c, pages, new Set(metas.map((m) => m.path))), (r) => `${r.indexed} pages indexed`),
          () => stage('pagefind', (c) => pagefindBundle(c, pages, siteStaged), (r) => `${r.indexed} pages indexed, ${r.files} files`),
          async () => {
            entries = await stage('pages', (c) => writePages(c, pages), (r) => `${r.length} pages`);
            await stage('validate', (c) => validate(c, entries), () => 'all JSON valid');
          },
        );
      },
    );
    spill?.remove();

    const id = await contentId({ siteUrl, pages: entries, company: sections!, searchDir: path.join(stagingDir, 'search') });
    const manifest = createManifest({ buildId, contentId: id, siteUrl, pages: entries, timings: inStageOrder(timings) });
    const published = await stage('publish', (c) => publish(c, manifest), (r) =>
      `current → ${buildId}${r.removed.length ? `, removed ${r.removed.length} old build(s)` : ''}`);
    return {
      buildId,
      buildDir: buildPath(outDir, buildId),
      previous: published.previous,
      manifest,
      warnings,
      timings: inStageOrder(timings),
      totalMs: Math.round(performance.now() - started),
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
    };
  } catch (err) {
    // Workers may still be reading ahead in the staging folder: stop them before removing it.
    await workers.close();
    spill?.remove();
    await fs.rm(stagingDir, { recursive: true, force: true });
    throw err instanceof BuildError ? err : new BuildError(stageName, undefined, messageOf(err), { cause: err });
  } finally {
    await workers.close();
    await release();
  }
}

