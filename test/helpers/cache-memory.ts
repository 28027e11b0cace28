/**
 * A child process that drives one of the server's byte-bounded caches well past its bound with
 * compressed variants, and prints what the process holds before and after (after full GCs, so
 * it needs --expose-gc), and what the cache says it weighs, as one JSON line:
 *
 *   node --expose-gc --import tsx test/helpers/cache-memory.ts <pages|pages-http|search|excerpts|memo> <bound MB> <count>
 *
 * - pages: the read model's hot set (page-store.ts) over the fixture's long guide: `count`
 *   distinct read_page offsets, each asked for with gzip and with br, the later half with
 *   parts long enough to be compressed in the threadpool.
 * - pages-http: the same through the whole server (READ_MODEL_CACHE_MB = the bound), parts of
 *   the default size; the server does not say what its hot set weighs.
 * - search: the search engine's ranked lists (engine.ts) behind a real HTTP server answering
 *   with respond.ts's `sendSerialized`: `count` distinct queries, each under three limits and
 *   three encodings.
 * - excerpts: `count` search excerpts kept, each cut from a distinct page text of about 1 MB.
 * - memo: memo.ts's `memoize` bounded at `count` entries, given twice as many keys, each an
 *   address cut from a distinct header-sized string.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sendSerialized } from '../../server/http/respond.ts';
import { memoize } from '../../server/memo.ts';
import { PageIndex } from '../../formats/read-model/page-index.ts';
import { isPartStart } from '../../server/read-model/parts.ts';
import { createPageStore } from '../../server/read-model/page-store.ts';
import { buildPath } from '../../formats/read-model/pointer.ts';
import type { Representation } from '../../server/read-model/types.ts';
import { PAGE_INDEX_FILE, PAGE_PACK_FILE } from '../../formats/schemas/read-model.ts';
import { CITY_SLUGS } from '../../formats/schemas/cities.ts';
import { SearchPagesParams } from '../../server/schemas/params.ts';
import { buildExcerpt, splitWords } from '../../server/search/excerpt.ts';
import { openSearch } from '../../server/search/index.ts';
import { words } from '../../formats/search/text.ts';
import { buildFixtureIndex, FIXTURE_CURSOR_KEY, pageInfo } from '../server/search/fixtures.ts';
import { sharedReadModel } from './read-model.ts';
import { startTestServer } from './server.ts';

export interface CacheMemoryReport {
  /** process.memoryUsage() after full GCs, before and after the drive. */
  before: NodeJS.MemoryUsage;
  after: NodeJS.MemoryUsage;
  /** What the cache says it holds at the end, and its bound (bytes). */
  weight: number;
  bound: number;
  /** Entries asked for. */
  entries: number;
}

/** The report of a drive run in a child process (the test process has no `gc`). */
export async function driveInChild(mode: 'pages' | 'search' | 'excerpts' | 'memo', boundMb: number, count: number): Promise<CacheMemoryReport> {
  const args = ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), mode, String(boundMb), String(count)];
  const { stdout } = await promisify(execFile)(process.execPath, args, { maxBuffer: 1 << 20 });
  return JSON.parse(stdout) as CacheMemoryReport;
}

/** Growth of what a report's process held in ArrayBuffers (Buffers included) over the drive. */
export const bufferGrowth = (r: CacheMemoryReport) => r.after.arrayBuffers - r.before.arrayBuffers;

const settled = (): NodeJS.MemoryUsage => {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with --expose-gc');
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage();
};

/** Every stored encoding of `rep` made, as clients asking with gzip and with br would have them made. */
const encodeAll = (rep: Representation) => {
  for (const enc of ['gzip', 'br'] as const) if (rep[enc] === undefined) rep.encode!(enc);
};

async function drivePages(bound: number, count: number): Promise<CacheMemoryReport> {
  const fixture = await sharedReadModel();
  const dir = buildPath(fixture.dir, fixture.buildId);
  const index = await PageIndex.open(path.join(dir, PAGE_INDEX_FILE));
  const at = index.findSlug(fixture.longPage.slug);
  const long = { ...index.entry(at), url: fixture.siteUrl + index.path(at) };
  const markdown = fixture.longPage.markdown;
  // Parts under the inline-encoding size (encodings made when asked for), then over it (made in the threadpool).
  const stores = [2_000, 40_000].map(async (maxChars) =>
    createPageStore({ pack: await fs.open(path.join(dir, PAGE_PACK_FILE), 'r'), rebase: (s) => s, maxChars, cacheBytes: bound / 2 }));
  const [short, large] = await Promise.all(stores);
  const before = settled();
  let offset = 1;
  for (let i = 0; i < count; i++, offset++) {
    while (!isPartStart(markdown, offset)) offset++;
    const store = i < count / 2 ? short! : large!;
    encodeAll(await store.partOf(long, offset));
  }
  const after = settled();
  const weight = short!.cachedBytes + large!.cachedBytes;
  await Promise.all([short!.close(), large!.close()]);
  return { before, after, weight, bound, entries: count };
}

async function drivePagesHttp(bound: number, count: number): Promise<CacheMemoryReport> {
  const fixture = await sharedReadModel();
  const server = await startTestServer({ fixture, env: { READ_MODEL_CACHE_MB: String(bound / 2 ** 20), RATE_LIMIT_ANONYMOUS: '1000000' } });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const { port } = new URL(server.origin);
    const markdown = fixture.longPage.markdown;
    const get = (offset: number, encoding: string) => new Promise<void>((resolve, reject) => {
      const qs = new URLSearchParams({ url: fixture.longPage.url, offset: String(offset) });
      const req = http.get({ host: '127.0.0.1', port, path: `/wp-json/agentes/v1/read_page?${qs}`, agent, headers: { 'accept-encoding': encoding } }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`${qs}: ${res.statusCode}`));
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
    });
    const before = settled();
    let offset = 1;
    for (let i = 0; i < count; i++, offset++) {
      while (!isPartStart(markdown, offset)) offset++;
      await get(offset, 'gzip');
      await get(offset, 'br');
    }
    const after = settled();
    return { before, after, weight: NaN, bound, entries: count };
  } finally {
    agent.destroy();
    await server.close();
  }
}

/** `count` excerpts of distinct texts of about 1 MB each, kept (the bound is not used). */
async function driveExcerpts(bound: number, count: number): Promise<CacheMemoryReport> {
  const kept: string[] = [];
  const before = settled();
  for (let i = 0; i < count; i++) {
    const text = Array.from({ length: 100_000 }, (_, k) => `palabra${(k * 7 + i) % 1000}`).join(' ');
    kept.push(buildExcerpt(splitWords(text), [[50_000 + i]]));
  }
  const after = settled();
  return { before, after, weight: kept.reduce((n, e) => n + 2 * e.length, 0), bound, entries: kept.length };
}

/** A memoized function past its bound (`count` entries) with keys cut from distinct 16 KB strings (a header's size). */
async function driveMemo(bound: number, count: number): Promise<CacheMemoryReport> {
  const fn = memoize((key) => ({ subject: `ip:${key}` }), count);
  const before = settled();
  for (let i = 0; i < 2 * count; i++) {
    const header = `${'x'.repeat(16 * 1024)}, 2001:db8:${(i >> 16).toString(16)}:${(i & 0xffff).toString(16)}::1`;
    fn(header.split(', ')[1]!);
  }
  const after = settled();
  // Used after the reading, so the memo is alive when it is taken.
  return { before, after, weight: fn('::1') === fn('::1') ? count : 0, bound, entries: 2 * count };
}

async function driveSearch(bound: number, count: number): Promise<CacheMemoryReport> {
  const built = await buildFixtureIndex();
  const engine = await openSearch(built.dir, pageInfo(built.pages), FIXTURE_CURSOR_KEY, { textCacheBytes: 1 << 20, warmMaxPages: 0, cacheBytes: bound });
  // Distinct queries that find pages: words of the fixture's titles and descriptions, alone and
  // in pairs, without a city and with each.
  const vocabulary = [...new Set(built.pages.flatMap((p) => words(`${p.title} ${p.description}`)).filter((w) => w.length > 3))];
  const queries: Array<{ query: string; city?: string }> = [];
  for (const city of [undefined, ...CITY_SLUGS]) {
    const within = city === undefined ? {} : { city };
    for (const a of vocabulary) queries.push({ query: a, ...within });
    for (let i = 0; i + 1 < vocabulary.length; i++) queries.push({ query: `${vocabulary[i]} ${vocabulary[i + 1]}`, ...within });
  }
  if (queries.length < count) throw new Error(`only ${queries.length} distinct queries`);
  const server = http.createServer((req, res) => {
    const params = new URLSearchParams(req.url!.slice(req.url!.indexOf('?') + 1));
    const input = SearchPagesParams.parse({ query: params.get('query'), limit: Number(params.get('limit')), ...(params.has('city') ? { city: params.get('city') } : {}) });
    sendSerialized(req, res, engine.search(input), 'public, max-age=300');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const { port } = server.address() as AddressInfo;
    const get = (query: { query: string; city?: string }, limit: number, encoding: string) => new Promise<void>((resolve, reject) => {
      const qs = new URLSearchParams({ ...query, limit: String(limit) });
      const req = http.get({ host: '127.0.0.1', port, path: `/search?${qs}`, agent, headers: encoding ? { 'accept-encoding': encoding } : {} }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`${qs}: ${res.statusCode}`));
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
    });
    const before = settled();
    for (const query of queries.slice(0, count)) {
      for (const limit of [8, 16, 25]) for (const encoding of ['', 'gzip', 'br']) await get(query, limit, encoding);
    }
    const after = settled();
    return { before, after, weight: engine.held.cacheBytes, bound, entries: count };
  } finally {
    agent.destroy();
    await new Promise((resolve) => server.close(resolve));
    await engine.close();
    await built.remove();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [mode, mb, count] = process.argv.slice(2);
  const drives: Record<string, typeof drivePages> = { pages: drivePages, 'pages-http': drivePagesHttp, search: driveSearch, excerpts: driveExcerpts, memo: driveMemo };
  const drive = drives[mode!];
  if (drive === undefined) throw new Error(`mode: one of ${Object.keys(drives).join(', ')}`);
  const report = await drive(Number(mb) * 2 ** 20, Number(count));
  process.stdout.write(JSON.stringify(report) + '\n');
  process.exit(0);
}
