/**
 * Micro-benchmarks of the hot functions, in this process, on the current read model of the
 * sample site: the quota check (memory store, Redis), URL normalisation + lookup, search per query
 * (warm and cold word), cursor encode/decode and Markdown conversion per page (tinybench), plus
 * two workloads measured call by call:
 *   - search: 200 common queries with Zipf-skewed repetition on a freshly opened engine (the
 *     in-process p50/p99 target), with the first occurrence of each query reported apart;
 *   - Markdown: every page of the built sample site, parse + convert, pages per CPU-second.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Bench } from 'tinybench';
import { htmlToMarkdown, parseHtml, hastToMarkdown } from '../../build-scripts/markdown/index.ts';
import { parseConfig } from '../../server/config.ts';
import { createLogger } from '../../server/log.ts';
import { anonymousSubject, createQuotaStep } from '../../server/quota/ratelimit.ts';
import { loadModel } from '../../server/read-model/holder.ts';
import { currentBuildDir } from '../../formats/read-model/pointer.ts';
import { createPageResolver } from '../../server/read-model/url.ts';
import { CursorCodec } from '../../server/search/cursor.ts';
import { readIndexFile } from '../../formats/search/index-file.ts';
import { coalesceHits } from '../../server/stores/coalesce-hits.ts';
import { withFallback } from '../../server/stores/fallback.ts';
import { createMemoryStore } from '../../server/stores/memory.ts';
import { createRedisStore } from '../../server/stores/redis.ts';
import type { Store } from '../../server/stores/types.ts';
import { CITY_SLUGS, type CityFilter } from '../../formats/schemas/cities.ts';
import { startRedisServer } from '../../scripts/lib/redis-server.ts';
import { median, percentile } from '../lib/stats.ts';
import { evaluate, type Report as RelevanceReport } from '../../scripts/lib/search-relevance.ts';
import { commonQueries, realisticQueries, zipfTraffic } from './queries.ts';

export interface MicroTask { name: string; meanUs: number; p50Us: number; p99Us: number; opsPerSecond: number; samples: number }

export interface SearchMix {
  queries: number;
  calls: number;
  p50Ms: number;
  p99Ms: number;
  /** The first call of each distinct query (nothing cached for it yet). */
  firstP50Ms: number;
  firstP99Ms: number;
  firstMaxMs: number;
  /** Server-process RSS growth over the mix, bytes. */
  rssGrowth: number;
}

export interface MarkdownThroughput {
  pages: number;
  passes: number;
  /**
   * Parse + convert, pages per second of CPU time (one core): the fastest pass — noise from other
   * processes only ever adds time to CPU-bound code — and the median pass; and per second of wall
   * time (median).
   */
  cpuPagesPerSecond: number;
  cpuPagesPerSecondMedian: number;
  wallPagesPerSecond: number;
  /** Parse alone, pages per CPU-second. */
  parseCpuPagesPerSecond: number;
}

export interface MicroReport { tasks: MicroTask[]; searchMix: SearchMix; markdown: MarkdownThroughput; relevance: RelevanceReport }

const CITIES: CityFilter[] = ['todas', ...CITY_SLUGS];


function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Built sample-site pages (dist/client/**\/index.html) with their URLs. */
function samplePages(siteUrl: string): Array<{ html: string; url: string }> {
  const dir = path.join(parseConfig().distDir, 'client');
  const files = (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('index.html')).sort();
  return files.map((f) => ({ html: fs.readFileSync(path.join(dir, f), 'utf8'), url: `${siteUrl}/${path.dirname(f) === '.' ? '' : path.dirname(f) + '/'}` }));
}

function markdownThroughput(pages: Array<{ html: string; url: string }>, passes: number): MarkdownThroughput {
  const cpu: number[] = [];
  const wall: number[] = [];
  const parse: number[] = [];
  for (let pass = 0; pass < passes; pass++) {
    let c = cpuMs();
    let t = performance.now();
    for (const p of pages) htmlToMarkdown(p.html, { baseUrl: p.url });
    cpu.push((pages.length * 1000) / (cpuMs() - c));
    wall.push((pages.length * 1000) / (performance.now() - t));
    c = cpuMs();
    t = performance.now();
    for (const p of pages) parseHtml(p.html);
    parse.push((pages.length * 1000) / (cpuMs() - c));
  }
  return {
    pages: pages.length, passes, cpuPagesPerSecond: Math.max(...cpu), cpuPagesPerSecondMedian: median(cpu),
    wallPagesPerSecond: median(wall), parseCpuPagesPerSecond: median(parse),
  };
}

export async function runMicro(opts: { quick: boolean; log(line: string): void }): Promise<MicroReport> {
  const config = parseConfig({ ...process.env, LOG_LEVEL: 'silent' });
  const buildDir = await currentBuildDir(config.readModelDir);
  if (buildDir === null) throw new Error('no read model: run `npm run build` first');
  const log = createLogger('silent');
  const redis = await startRedisServer();
  const stores: Store[] = [];
  try {
    opts.log('micro: loading the read model');
    const model = await loadModel(config, buildDir);
    const engine = model.search;

    // The search workload first, on the engine as the server opens it: the common queries, then
    // the realistic set (what people and agents type) as the long tail.
    const queries = [...commonQueries(200), ...realisticQueries()];
    const traffic = zipfTraffic(queries, opts.quick ? 5000 : 20_000);
    const seen = new Set<string>();
    const all: number[] = [];
    const first: number[] = [];
    const rss0 = process.memoryUsage().rss;
    opts.log(`micro: search mix, ${traffic.length} calls over ${queries.length} queries`);
    for (const q of traffic) {
      const t = performance.now();
      await engine.search({ query: q.query, city: q.city, limit: 8 });
      const ms = performance.now() - t;
      all.push(ms);
      const key = q.city + '|' + q.query;
      if (!seen.has(key)) { seen.add(key); first.push(ms); }
    }
    all.sort((a, b) => a - b);
    first.sort((a, b) => a - b);
    const searchMix: SearchMix = {
      queries: seen.size, calls: all.length,
      p50Ms: percentile(all, 50), p99Ms: percentile(all, 99),
      firstP50Ms: percentile(first, 50), firstP99Ms: percentile(first, 99), firstMaxMs: first[first.length - 1] ?? Number.NaN,
      rssGrowth: process.memoryUsage().rss - rss0,
    };

    const memory = createMemoryStore();
    const redisStore = await createRedisStore({ url: redis.url, keyPrefix: 'bench-micro', log });
    stores.push(memory, redisStore);
    const quotaConfig = { rateLimit: { anonymous: 1e9, identified: 1e9, windowSeconds: 60 }, siteUrl: config.siteUrl };
    // The stack the server composes at start (server/main.ts).
    const quotaStep = (store: Store) =>
      createQuotaStep({ config: quotaConfig, quotaCounter: withFallback({ primary: coalesceHits(store), fallback: createMemoryStore(), log }) });
    const quotaMemory = quotaStep(memory);
    const quotaRedis = quotaStep(redisStore);
    const subject = anonymousSubject('203.0.113.7');

    const resolve = createPageResolver(config.siteUrl);
    const some = model.pages.find((p) => p.kind === 'service-city') ?? model.pages[0]!;
    const canonical = some.url;
    const messy = `  ${config.siteUrl.toUpperCase()}/${some.path.slice(1, -1).toUpperCase()}/index.html?utm_source=x#precios `;
    for (const input of [canonical, some.slug, messy]) {
      if (resolve(model, input) !== some) throw new Error(`URL resolver did not find ${some.path} from "${input}"`);
    }

    const codec = new CursorCodec(Buffer.alloc(32, 7));
    const scope = 'todas\u0000fontanero madrid';
    const cursor = codec.encode(8, scope);

    // Cold words: vocabulary words no search has asked for yet, one per call, most frequent first.
    const vocabulary = [...(await readIndexFile(path.join(buildDir, 'search'))).vocabulary()];
    const searched = new Set(queries.flatMap((q) => q.query.toLowerCase().split(/\s+/)));
    const coldWords = vocabulary.filter(([w, df]) => w.length >= 4 && df >= 2 && !/\d/.test(w) && !searched.has(w))
      .sort((a, b) => b[1] - a[1]).map(([w]) => w);
    let cold = 0;
    // Words the mix has already looked up, combined into queries it never made.
    const known = [...new Set(queries.map((q) => q.query.split(' ')[0]!.toLowerCase()))].slice(0, 40);
    let pairs = 0;

    const pages = samplePages(config.siteUrl);
    const typical = pages.find((p) => p.url.endsWith('/servicios/fontaneria/madrid/')) ?? pages[0]!;

    const time = opts.quick ? 150 : 500;
    const bench = new Bench({ time, warmupTime: opts.quick ? 50 : 150 });
    bench
      .add('quota check (memory store)', () => { quotaMemory.count(subject, []); })
      .add('quota check (Redis store)', async () => { await quotaRedis.count(subject, []); })
      .add('URL normalisation + lookup (canonical URL)', () => { resolve(model, canonical); })
      .add('URL normalisation + lookup (slug)', () => { resolve(model, some.slug); })
      .add('URL normalisation + lookup (messy URL)', () => { resolve(model, messy); })
      .add('search (cached query)', async () => { await engine.search({ query: 'fontanero madrid', city: 'todas', limit: 8 }); })
      .add('search (new query, known words)', async () => {
        const n = pairs++;
        await engine.search({ query: `${known[n % known.length]} ${known[Math.floor(n / known.length) % known.length]}`, city: CITIES[n % CITIES.length]!, limit: 8 });
      })
      .add('search (cold word: first search of a word)', async () => {
        const w = coldWords[cold++ % coldWords.length]!;
        await engine.search({ query: w, city: 'todas', limit: 8 });
      }, { async: true })
      .add('cursor encode', () => { codec.encode(8, scope); })
      .add('cursor decode', () => { codec.decode(cursor, scope); })
      .add('Markdown conversion (one page: fontaneria/madrid)', () => { hastToMarkdown(parseHtml(typical.html), { baseUrl: typical.url }); });
    opts.log('micro: tinybench tasks');
    await bench.run();
    const tasks: MicroTask[] = bench.tasks.map((task) => {
      const r = task.result as { latency?: { mean: number; p50: number; p99: number; samplesCount?: number }; throughput?: { mean: number } };
      const lat = r.latency;
      return {
        name: task.name,
        meanUs: (lat?.mean ?? Number.NaN) * 1000,
        p50Us: (lat?.p50 ?? Number.NaN) * 1000,
        p99Us: (lat?.p99 ?? Number.NaN) * 1000,
        opsPerSecond: r.throughput?.mean ?? Number.NaN,
        samples: lat?.samplesCount ?? 0,
      };
    });

    opts.log('micro: relevance on the realistic query set');
    const relevance = await evaluate(engine);

    opts.log(`micro: Markdown conversion of ${pages.length} pages`);
    const markdown = markdownThroughput(pages, opts.quick ? 3 : 5);
    await engine.close();
    return { tasks, searchMix, markdown, relevance };
  } finally {
    for (const s of stores) await s.close();
    await redis.close();
  }
}
