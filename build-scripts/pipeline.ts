/**
 * The read-model build: astro → (site | crawl → extract → company → (search | pages → validate))
 * → publish → pagefind. Everything is written to a staging folder; only publish makes it
 * visible, so a failure at any point leaves the published model (the `current` pointer) alone.
 * Pagefind's bundle, which cannot be updated in part and takes longest, follows the publish
 * (stages/pagefind.ts): the previous bundle is served until it is whole.
 *
 * Memory does not grow with the site's text: the crawl's workers convert each page as they read
 * it and the crawl leaves its Markdown in a spill file (text-spill.ts); the pages stage then makes
 * each read-model page from it, in path order, writes it and keeps its index entry only, and each
 * search session reads its own pages from the spill when it starts. Runs go side by side so the
 * cores do all of it at once: site, which only reads the built site, on the main thread beside
 * everything else; search, whose page analysis runs in the workers, beside pages and validate
 * (whose checks go to the workers between the search's slices).
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
import { crawl, type CrawlResult } from './stages/crawl.ts';
import { codeVersion } from './cache/code-version.ts';
import { previousBuild, recordCodeVersion } from './cache/previous-build.ts';
import { adoptEntries, pruneEntries, versionFolder } from './cache/store.ts';
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
  /** Reuse nothing from earlier builds: Astro renders every page and loads every entry, and every page is read and every file compressed afresh (`--full`). */
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
  /** Why the Pagefind bundle, which follows the publish, was not published; the read model was. */
  bundleError?: string;
  /** Milliseconds per stage, in running order (publish included). */
  timings: Record<string, number>;
  totalMs: number;
  peakRssBytes: number;
}

const STAGE_ORDER = ['astro', 'crawl', 'extract', 'company', 'pages', 'search', 'validate', 'site', 'publish', 'pagefind'];

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

/** Earlier builds' kept work, under the read-model folder, beside `builds/`. */
const CACHE_DIR = 'cache';

const cacheSummary = ({ keys, hits, damaged }: CrawlResult['cache']): string =>
  keys.size === 0 ? '' : `, ${hits} from the cache${damaged ? `, ${damaged} unreadable cache entr${damaged === 1 ? 'y' : 'ies'} read again` : ''}`;

/** The stages that take the built site's listing: site and crawl. */
const SITE_LISTING_USERS = 2;

/**
 * The Markdown spill, beside the staging folder (publish's prune removes a crashed build's): it
 * serves the Pagefind bundle, which follows the publish, and is removed after it.
 */
const spillFile = (outDir: string, buildId: string) => path.join(outDir, BUILDS_DIR, `.staging-${buildId}.spill`);

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
  const spillOf = (): TextSpill => (spill ??= createTextSpill(spillFile(outDir, buildId)));
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
    const version = codeVersion();
    const cacheOf = (kind: string, what: string) => ({
      dir: versionFolder(path.join(outDir, CACHE_DIR, kind), version, { full: options.full === true, what, log }),
      newDir: path.join(stagingDir, `.new-${kind}`),
    });
    const pageReads = ctx.pageReadCache = cacheOf('page-reads', 'every page read');
    const siblings = ctx.siblingCache = { ...cacheOf('siblings', 'every site file compressed'), used: new Set<string>() };
    const pageTerms = ctx.pageTermsCache = cacheOf('page-terms', 'every page analysed for search');
    let termKeys = new Set<string>();
    recordCodeVersion(stagingDir, version);
    if (!options.full) ctx.previousBuild = await previousBuild(outDir, version);
    if (!options.skipAstro) {
      await stage('astro', (c) => astroBuild(c, root, { full: options.full }), (r) => `${r.pages} pages built, ${r.rendered.length} rendered`);
    }
    workers.start();
    let sections: Awaited<ReturnType<typeof company>> | undefined;
    let cacheKeys = new Set<string>();
    let entries: Awaited<ReturnType<typeof writePages>> = [];
    let pages: ReturnType<typeof pageSource> | undefined;
    await sideBySide(abort,
      () => stage('site', (c) => copySite(c), (r) => `${r.files} files staged, ${r.siblings} gzip/brotli siblings written`),
      async () => {
        const crawled = await stage('crawl', (c) => crawl(c), (r) => `${r.pages.length} pages${cacheSummary(r.cache)}`);
        cacheKeys = crawled.cache.keys;
        const metas = await stage('extract', (c) => extract(c, crawled.pages), (r) => `${r.length} pages`);
        const source = pages = pageSource(spillOf(), crawled.pages, metas, abort.signal);
        sections = await stage('company', (c) => company(c, metas), () => `${COMPANY_SECTIONS.length} sections`);
        await sideBySide(abort,
          async () => {
            const indexed = await stage('search', (c) => search(c, source, new Set(metas.map((m) => m.path))), (r) => `${r.indexed} pages indexed${r.cache ? `, ${r.cache.hits} from the cache` : ''}`);
            termKeys = indexed.cache?.keys ?? termKeys;
          },
          async () => {
            entries = await stage('pages', (c) => writePages(c, source), (r) => `${r.length} pages`);
            await stage('validate', (c) => validate(c, entries), () => 'all JSON valid');
          },
        );
      },
    );
    adoptEntries(pageReads);
    adoptEntries(siblings);
    adoptEntries(pageTerms);

    const id = await contentId({ siteUrl, pages: entries, company: sections!, searchDir: path.join(stagingDir, 'search') });
    const manifest = createManifest({ buildId, contentId: id, siteUrl, pages: entries, timings: inStageOrder(timings) });
    const published = await stage('publish', (c) => publish(c, manifest), (r) =>
      `current → ${buildId}${r.removed.length ? `, removed ${r.removed.length} old build(s)` : ''}`);
    // Published: what no page of it uses is dropped; a failure here costs only reads next time.
    try {
      pruneEntries(pageReads.dir, cacheKeys);
      pruneEntries(siblings.dir, siblings.used);
      pruneEntries(pageTerms.dir, termKeys);
    } catch (err) {
      ctx.warn(`cache: not pruned: ${messageOf(err)}`);
    }
    // The read model is live; the bundle follows it, and failing leaves the previous one served.
    let bundleError: string | undefined;
    try {
      await stage('pagefind', (c) => pagefindBundle(c, pages!), (r) => `${r.indexed} pages indexed, ${r.files} files in ${r.parts} part(s), served at /pagefind/`);
    } catch (err) {
      bundleError = `pagefind: ${messageOf(err)}; the read model ${buildId} is published, /pagefind/ still serves the previous bundle`;
      log(bundleError);
    } finally {
      spill?.remove();
    }
    return {
      buildId,
      buildDir: buildPath(outDir, buildId),
      previous: published.previous,
      manifest,
      warnings,
      timings: inStageOrder(timings),
      totalMs: Math.round(performance.now() - started),
      ...(bundleError === undefined ? {} : { bundleError }),
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

