/**
 * Large-sites section: for each size (10,000 and 100,000 pages by default), a site generated from
 * the built sample site (build/generate-site.ts), its read-model stage (time, and peak memory
 * summed over the build and Pagefind processes), then the real server on that model, started as
 * `npm start` starts it:
 *   - ready: process start to the first 200 of read_page;
 *   - RSS after start (+ settle) and after the load (+ settle): cold reads, a hot page, and the
 *     search mix below over HTTP, one call at a time;
 *   - cold read_page: one request each, one at a time (one connection), to pages never asked
 *     for before (so not in the hot set), end to end over loopback HTTP: p50 / p99;
 *   - search_pages in-process on the same model: the realistic Zipf mix of the micro section,
 *     each query's first call included, then the same on the sample site's model, so the growth
 *     ratio compares like with like;
 *   - a publish under load: a second build of the same pages (hard links, new id) is pointed to
 *     while the load tool reads a page; the time from the pointer switch to `read model swapped`,
 *     and the answers that failed meanwhile.
 * Generated sites and builds go under var/bench/ and are removed at the end.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { parseConfig, ROOT } from '../../server/config.ts';
import { loadModel } from '../../server/read-model/holder.ts';
import { PageIndex } from '../../formats/read-model/page-index.ts';
import { buildPath, writePointer } from '../../formats/read-model/pointer.ts';
import { PAGE_INDEX_FILE } from '../../formats/schemas/read-model.ts';
import { SearchPagesParams } from '../../server/schemas/params.ts';
import { searchPages } from '../../server/search/index.ts';
import { bundleServer } from '../../scripts/bundle-server.ts';
import { measure } from '../build/run-build.ts';
import { generateSite } from '../build/generate-site.ts';
import { load, type LoadTool } from '../http/load.ts';
import { startServer } from '../lib/processes.ts';
import { currentBuildId } from '../lib/read-model-snapshot.ts';
import { percentile } from '../lib/stats.ts';
import { commonQueries, realisticQueries, zipfTraffic } from '../micro/queries.ts';

export interface LargeRun {
  pages: number;
  buildMs: number;
  /** Largest sum of the build's process tree (build + Pagefind), bytes. */
  buildPeakTreeRss: number;
  readyMs: number;
  rssAtStart: number;
  rssAfterLoad: number;
  loadRps: number;
  coldP50Ms: number;
  coldP99Ms: number;
  /** Cold reads measured (each a page read for the first time). */
  coldReads: number;
  searchP50Ms: number;
  searchP99Ms: number;
  /** The same search measurement on the sample site's read model, right after: the baseline of the growth ratio. */
  sampleSearchP99Ms: number;
  swapMs: number;
  swapFailed: number;
  swapAnswers: number;
}

export interface LargeReport { runs: LargeRun[]; cacheMb: number; tool: LoadTool }

const SETTLE_MS = 5_000;
const COLD_PAGES = 1_000;
const SEARCH_CALLS = 5_000;
/** Time given to the search mix over HTTP (~11 s at 100,000 pages on an idle 2-core machine). */
const SEARCH_MIX_SECONDS = 40;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function firstOk(url: string): Promise<void> {
  for (;;) {
    const res = await fetch(url).catch(() => null);
    if (res) await res.arrayBuffer();
    if (res?.status === 200) return;
    await sleep(10);
  }
}

/** The read-model stage on a generated site of `pages` pages, measured as the build section does. */
async function buildLarge(pages: number, work: string, log: (line: string) => void) {
  const site = path.join(work, 'site', 'client');
  await generateSite(path.join(parseConfig().distDir, 'client'), site, pages);
  log(`large: read-model stage on ${pages} pages`);
  const readModel = path.join(work, 'read-model');
  const m = await measure(['--import', 'tsx', path.join(ROOT, 'bench', 'build', 'read-model-child.ts'), site, readModel], {});
  // The build's own last lines, without /usr/bin/time's report after them.
  const own = (m.stdout + m.stderr).split('\n\tCommand being timed')[0]!;
  if (m.code !== 0) throw new Error(`the read-model build failed (exit ${m.code}):\n${own.split('\n').slice(-20).join('\n')}`);
  const result = JSON.parse(m.stdout.trim().split('\n').pop()!) as { totalMs: number };
  return { readModel, buildMs: result.totalMs, buildPeakTreeRss: m.peakTreeRss };
}

/** The micro section's realistic Zipf mix of search_pages calls, in order. */
const searchMix = () => zipfTraffic([...commonQueries(), ...realisticQueries()], SEARCH_CALLS);

/** The search mix's calls as search_pages request targets. */
function searchTargets(): string[] {
  return searchMix().map((q) =>
    `/wp-json/agentes/v1/search_pages?query=${encodeURIComponent(q.query)}${q.city === 'todas' ? '' : `&city=${encodeURIComponent(q.city)}`}`);
}

export async function searchLatencies(readModel: string, buildDir: string): Promise<{ p50: number; p99: number }> {
  const config = { ...parseConfig(), readModelDir: readModel };
  const model = await loadModel(config, buildDir);
  try {
    const times: number[] = [];
    for (const q of searchMix()) {
      const t = performance.now();
      await searchPages(model.search, SearchPagesParams.parse({ query: q.query, city: q.city }));
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    return { p50: percentile(times, 50), p99: percentile(times, 99) };
  } finally {
    await model.close();
  }
}

export async function serveLarge(readModel: string, tool: LoadTool, seconds: number, log: (line: string) => void) {
  const id = await currentBuildId(readModel);
  const index = await PageIndex.open(path.join(buildPath(readModel, id), PAGE_INDEX_FILE));
  const paths = Array.from({ length: index.size }, (_, i) => index.path(i));
  const hot = paths[Math.floor(paths.length / 2)]!;
  const readPage = (p: string) => `/wp-json/agentes/v1/read_page?url=${encodeURIComponent(p)}`;
  const env = { READ_MODEL_DIR: readModel, RATE_LIMIT_ANONYMOUS: '1000000000', RATE_LIMIT_WINDOW: '3600', LOG_LEVEL: 'info' };
  const started = performance.now();
  const server = await startServer('large', env);
  let stderr = '';
  server.proc.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
  await firstOk(server.url + readPage(hot));
  const readyMs = performance.now() - started;
  try {
    await sleep(SETTLE_MS);
    const rssAtStart = server.memory().rss;
    log(`large: ${paths.length} pages: ready in ${(readyMs / 1000).toFixed(1)} s, RSS ${Math.round(rssAtStart / 2 ** 20)} MB; cold reads`);
    const headers = { Accept: 'application/json', 'Accept-Encoding': 'gzip, deflate, br' };
    const step = Math.max(1, Math.floor(paths.length / COLD_PAGES));
    const coldPaths: string[] = [];
    for (let i = 1; i < paths.length && coldPaths.length < COLD_PAGES; i += step) if (paths[i] !== hot) coldPaths.push(readPage(paths[i]!));
    // wrk, one connection, each page once: a Node client in this process would add latency tails
    // of its own, larger than the server's.
    const cold = await load(server.url, { method: 'GET', path: coldPaths[0]!, headers, paths: coldPaths }, { tool, connections: 1, seconds: Math.max(seconds, 2), expectStatus: 200 });
    if (cold.unexpected > 0) throw new Error(`cold read_page: ${cold.unexpected} of ${cold.count} answers were not 200`);
    const hotLoad = await load(server.url, { method: 'GET', path: readPage(hot), headers }, { tool, connections: 10, seconds, expectStatus: 200 });
    // The search mix of the in-process measurement, over HTTP, each call once in its Zipf order:
    // RSS after the load then holds what searches keep (word answers, rankings, texts).
    const searches = searchTargets();
    const mix = await load(server.url, { method: 'GET', path: searches[0]!, headers, paths: searches }, { tool, connections: 1, seconds: Math.max(seconds, SEARCH_MIX_SECONDS), expectStatus: 200 });
    if (mix.unexpected > 0) throw new Error(`search_pages mix: ${mix.unexpected} of ${mix.count} answers were not 200`);
    log(`large: search mix over HTTP: ${mix.count} calls, p50 ${mix.p50.toFixed(2)} ms, p99 ${mix.p99.toFixed(2)} ms`);
    await sleep(SETTLE_MS);
    const rssAfterLoad = server.memory().rss;

    // A publish under load: the same pages under a new build id, hard-linked (a copy of 100,000
    // pages' files would measure the disk), pointed to while wrk reads.
    log('large: publish under load');
    const next = `${id}-republished`;
    execFileSync('cp', ['-al', buildPath(readModel, id), buildPath(readModel, next)]);
    const during = load(server.url, { method: 'GET', path: readPage(hot), headers }, { tool, connections: 10, seconds: Math.max(seconds, 8), expectStatus: 200 });
    await sleep(1000);
    const switched = performance.now();
    await writePointer(readModel, next);
    while (!stderr.includes('"read model swapped"') && performance.now() - switched < 120_000) await sleep(5);
    const swapMs = performance.now() - switched;
    const swapLoad = await during;
    return {
      readyMs, rssAtStart, rssAfterLoad, loadRps: hotLoad.rps,
      coldP50Ms: cold.p50, coldP99Ms: cold.p99, coldReads: cold.count,
      swapMs, swapFailed: swapLoad.unexpected, swapAnswers: swapLoad.count,
      buildDir: buildPath(readModel, id),
    };
  } finally {
    await server.close();
  }
}

export async function runLarge(opts: { sizes: readonly number[]; tool: LoadTool; seconds: number; log(line: string): void }): Promise<LargeReport> {
  await bundleServer();
  const runs: LargeRun[] = [];
  for (const pages of opts.sizes) {
    const work = path.join(ROOT, 'var', 'bench', `large-${pages}`);
    await fs.rm(work, { recursive: true, force: true });
    try {
      opts.log(`large: generating a ${pages}-page site`);
      const built = await buildLarge(pages, work, opts.log);
      const served = await serveLarge(built.readModel, opts.tool, opts.seconds, opts.log);
      opts.log('large: search in-process');
      const search = await searchLatencies(built.readModel, served.buildDir);
      const sampleModel = parseConfig().readModelDir;
      const sample = await searchLatencies(sampleModel, buildPath(sampleModel, await currentBuildId(sampleModel)));
      runs.push({
        pages, buildMs: built.buildMs, buildPeakTreeRss: built.buildPeakTreeRss,
        readyMs: served.readyMs, rssAtStart: served.rssAtStart, rssAfterLoad: served.rssAfterLoad, loadRps: served.loadRps,
        coldP50Ms: served.coldP50Ms, coldP99Ms: served.coldP99Ms, coldReads: served.coldReads, searchP50Ms: search.p50, searchP99Ms: search.p99, sampleSearchP99Ms: sample.p99,
        swapMs: served.swapMs, swapFailed: served.swapFailed, swapAnswers: served.swapAnswers,
      });
    } finally {
      await fs.rm(work, { recursive: true, force: true });
    }
  }
  return { runs, cacheMb: parseConfig().readModelCacheBytes / 2 ** 20, tool: opts.tool };
}
