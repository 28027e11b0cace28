/** The Markdown report of one run: machine, HTTP table, micro-benchmarks, build, large sites, Lighthouse, target checks. */
import type { BuildReport, BuildRun } from './build/run-build.ts';
import { METRICS_ON, type HttpReport, type HttpRow } from './http/run-http.ts';
import type { MachineInfo } from './lib/machine.ts';
import { fmt, mb, median, table } from './lib/stats.ts';
import type { MicroReport } from './micro/run-micro.ts';
import type { LargeReport } from './large/run-large.ts';
import type { PublishReport } from './publish/run-publish.ts';
import type { StartOptionsReport } from './start-options/run-start-options.ts';
import type { LighthouseBenchReport } from './lighthouse/run-lighthouse.ts';
import type { Check } from './targets.ts';

export interface Results {
  machine: MachineInfo;
  command: string;
  http?: HttpReport;
  micro?: MicroReport;
  build?: BuildReport;
  large?: LargeReport;
  publish?: PublishReport;
  startOptions?: StartOptionsReport;
  lighthouse?: LighthouseBenchReport;
  checks: Check[];
  minutes: number;
}

function httpSection(http: HttpReport): string {
  const rows = http.rows.map((r) => {
    if (r.unavailable) return [r.scenario, r.store, r.unavailable, '', '', '', '', '', ''];
    return [
      r.scenario, r.store,
      fmt(r.server!.rps), fmt(r.baseline!.rps), `**${fmt(r.rpsRatio!, 2)}**`,
      `${fmt(r.server!.p99, 2)} / ${fmt(r.baseline!.p99, 2)}`, `${fmt(r.p99Ratio!, 2)}×`,
      `${fmt(r.server!.cpuUsPerRequest)} / ${fmt(r.baseline!.cpuUsPerRequest)}`, fmt(r.cpuRatio!, 2),
    ];
  });
  const m = http.memory;
  const metered = http.rows.filter((r) => r.store === METRICS_ON && r.metricsCost !== undefined);
  return [
    `### HTTP: server vs bare node:http baseline`,
    '',
    `Load: ${http.tool}, 1 thread, ${http.connections} connections, loopback; ${http.rounds} rounds × ${http.seconds} s per row and target, `
      + `baseline / memory / Redis (and, on the rows that have it, the memory-store server with metrics on) in an order rotated each round; medians over rounds. Ratios are server ÷ baseline within each round.`,
    '',
    table(['request', 'store', 'req/s', 'baseline req/s', 'ratio', 'p99 ms (server / baseline)', 'p99 ratio', 'CPU µs/req (server / baseline)', 'CPU ratio'], rows),
    '',
    ...(metered.length === 0 ? [] : [
      `Metrics on (\`METRICS_PORT\` set, memory store) against the same server with metrics off, paired within rounds (req/s on ÷ off; CPU per response off ÷ on): `
        + metered.map((r) => `${r.scenario} **${fmt(r.metricsCost!.rps, 2)}** / CPU **${fmt(r.metricsCost!.cpu, 2)}**`).join(', ') + '.',
      '',
    ]),
    `CPU ratio = baseline CPU per response ÷ server CPU per response (from /proc): the req/s ratio each would reach with a core to itself, whatever else runs on the machine.`,
    '',
    `Server RSS, memory store: ${mb(m.memory.rssJustStarted)} as it starts listening, **${mb(m.memory.rssAtStart)}** after ${http.settleSeconds} s idle, `
      + `${mb(m.memory.rssAfterLoad)} right after the load, **${mb(m.memory.rss)}** after ${http.settleSeconds} s idle, peak ${mb(m.memory.peak)}. `
      + `Redis store: ${mb(m.redis.rssJustStarted)} / **${mb(m.redis.rssAtStart)}** / ${mb(m.redis.rssAfterLoad)} / **${mb(m.redis.rss)}** / peak ${mb(m.redis.peak)}. `
      + `(Under load V8 lets garbage build up until a major GC or, once idle, its memory reducer: the peak is garbage, the settled figure what the server holds.)`,
    ...redisCycle(http),
  ].join('\n');
}

/**
 * The Redis rows against the round trip they cannot avoid: with a fixed number of connections,
 * each waiting for its answer, a request's cycle is connections ÷ req/s, and the Redis store's
 * cycle holds one round trip to Redis more than the memory store's (bench/http/redis-round-trip.ts).
 */
function redisCycle(http: HttpReport): string[] {
  const content = http.rows.filter((r) => r.group === 'content' && !r.unavailable);
  const cycle = (pick: (r: HttpRow) => number, store: 'memory' | 'redis') =>
    median(content.filter((r) => r.store === store).map((r) => (http.connections / pick(r)) * 1e6));
  const base = cycle((r) => r.baseline!.rps, 'redis');
  const mem = cycle((r) => r.server!.rps, 'memory');
  const red = cycle((r) => r.server!.rps, 'redis');
  const rtt = http.redisRoundTrip;
  if (!Number.isFinite(base + mem + red)) return [];
  return [
    '',
    `Redis rows: at ${http.connections} connections, each waiting for its answer before sending again, a request's cycle (connections ÷ req/s, median over the read_page and get_company_info rows) `
      + `was ${fmt(base)} µs on the baseline, ${fmt(mem)} µs with the memory store and ${fmt(red)} µs with Redis, ${fmt(red - mem)} µs more. `
      + `One round trip to this Redis from Node, measured alone (${rtt.samples} PINGs one at a time): p50 ${fmt(rtt.p50)} µs, p99 ${fmt(rtt.p99)} µs. `
      + `The Redis store cannot answer before Redis has counted the request; when nothing else is ready to run meanwhile, the round trip adds to the cycle whole, `
      + `and with it as the Redis store's only cost the Redis rows would read baseline ÷ (memory-store cycle + round trip) = **${fmt(base / (mem + rtt.p50), 2)}**.`,
  ];
}

function relevanceTable(micro: MicroReport): string[] {
  const pct = (n: number, of: number) => (of === 0 ? '—' : `${fmt((100 * n) / of, 1)} %`);
  const { groups, total } = micro.relevance;
  return [
    '**Search relevance** on the realistic query set (data/search-queries/realistic/, answers decided from the content before any run):',
    '',
    table(['group', 'queries with an answer', 'top-1', 'top-3', 'off-site queries with no result'],
      [...groups, total].map((g) => [g.group, String(g.answerable), pct(g.top1, g.answerable), pct(g.top3, g.answerable), g.offSite ? `${g.empty}/${g.offSite}` : '—'])),
    '',
  ];
}

function microSection(micro: MicroReport): string {
  const s = micro.searchMix;
  const md = micro.markdown;
  return [
    '### Micro-benchmarks (tinybench, in-process)',
    '',
    table(['function', 'mean µs', 'p50 µs', 'p99 µs', 'ops/s', 'samples'],
      micro.tasks.map((t) => [t.name, fmt(t.meanUs, 2), fmt(t.p50Us, 2), fmt(t.p99Us, 2), fmt(t.opsPerSecond), String(t.samples)])),
    '',
    ...relevanceTable(micro),
    `**Search, realistic mix** (${s.queries} queries: the 200 common ones — trades, services, problems, trade + city, city, typos; some with \`city\` — then the realistic set; `
      + `${s.calls} calls with Zipf-skewed repetition, on a freshly opened engine): p50 **${fmt(s.p50Ms, 3)} ms**, p99 **${fmt(s.p99Ms, 3)} ms**. `
      + `First call of each query (nothing cached for it): p50 ${fmt(s.firstP50Ms, 2)} ms, p99 ${fmt(s.firstP99Ms, 2)} ms, max ${fmt(s.firstMaxMs, 2)} ms. `
      + `RSS growth over the mix: ${mb(s.rssGrowth)}.`,
    '',
    `**Markdown conversion** (parse + convert, all ${md.pages} pages of the built sample site, ${md.passes} passes): **${fmt(md.cpuPagesPerSecond)} pages per CPU-second** `
      + `on one core in the fastest pass (median pass ${fmt(md.cpuPagesPerSecondMedian)}; ${fmt(md.wallPagesPerSecond)} pages/s of wall-clock time with the machine's load); `
      + `parsing alone ${fmt(md.parseCpuPagesPerSecond)} pages/CPU-s.`,
  ].join('\n');
}

const stageList = (b: BuildRun) => Object.entries(b.stages).map(([k, v]) => `${k} ${fmt(v / 1000, 1)} s`).join(', ');

function buildSection(build: BuildReport): string {
  const out = ['### Build'];
  if (build.full) {
    const f = build.full;
    out.push('', `**\`npm run build\`** of the sample site (${f.pages} pages): ${fmt(f.totalMs / 1000, 1)} s wall, ${fmt(f.cpuMs / 1000, 1)} s CPU (all processes), `
      + `peak RSS ${mb(f.peakTreeRss)} summed over its processes (largest then: ${f.peakTreeLargest}); largest single process ${mb(f.peakRss)}. Stages: ${stageList(f)}.`);
  }
  if (build.readModel) {
    const r = build.readModel;
    out.push('', `**Read-model stage alone** (\`buildReadModel({ skipAstro: true })\`) on a generated ${r.pages}-page site `
      + `(${mb(r.siteBytes)} of HTML, generated in ${fmt(r.generatedMs / 1000, 1)} s): **${fmt(r.totalMs / 1000, 1)} s** wall, ${fmt(r.cpuMs / 1000, 1)} s CPU (all processes), `
      + `peak RSS **${mb(r.peakTreeRss)}** summed over the build and the Pagefind binary (largest then: ${r.peakTreeLargest}); largest single process ${mb(r.peakRss)}; `
      + `the build process alone ${mb(r.buildProcessPeakRss)}. `
      + `Stages: ${stageList(r)}.`);
  }
  return out.join('\n');
}

function largeSection(large: LargeReport): string {
  return [
    '### Large sites',
    '',
    `Generated sites (bench/build/generate-site.ts), read-model stage, then the server as \`npm start\` runs it (hot set ${fmt(large.cacheMb)} MB). `
      + `Cold read_page: up to 1,000 pages never asked for before, each once, by ${large.tool} on one connection (one request at a time, loopback); the count read is in brackets. Search: the micro section's realistic Zipf mix, in-process, `
      + `5,000 calls. Publish: a second build of the same pages pointed to while ${large.tool} reads a page.`,
    '',
    table(['pages', 'read-model stage', 'peak RSS (build + Pagefind)', 'ready', 'RSS after start', 'RSS after load', 'cold read_page p50 / p99', 'search p50 / p99', 'sample site search p99', 'swap', 'failed during swap'],
      large.runs.map((r) => [
        fmt(r.pages), `${fmt(r.buildMs / 1000, 1)} s`, mb(r.buildPeakTreeRss), `${fmt(r.readyMs / 1000, 2)} s`, mb(r.rssAtStart), mb(r.rssAfterLoad),
        `${fmt(r.coldP50Ms, 2)} / ${fmt(r.coldP99Ms, 2)} ms (${fmt(r.coldReads)})`, `${fmt(r.searchP50Ms, 2)} / ${fmt(r.searchP99Ms, 2)} ms`, `${fmt(r.sampleSearchP99Ms, 2)} ms`,
        `${fmt(r.swapMs / 1000, 2)} s`, `${fmt(r.swapFailed)} of ${fmt(r.swapAnswers)}`,
      ])),
  ].join('\n');
}

const seconds = (ms: number) => `${fmt(ms / 1000, 1)} s`;
const stagesOf = (stages: Record<string, number>) => Object.entries(stages).map(([k, v]) => `${k} ${fmt(v / 1000, 1)}`).join(', ');

function publishSection(publish: PublishReport): string {
  const out = [
    '### Publish: from an edit of the sources to live',
    '',
    `A copy of the project with generated guides (bench/publish/). Live: from the edit written to the first round of a polling client in which read_page, search_pages, `
      + `the page with \`Accept: text/markdown\` and its HTML all show it (deleted: 404 and no longer found; renamed service: read_page of its service × city pages; synonym: search_pages). `
      + `Meanwhile ${publish.tool} reads one page lightly (2 connections, 20 ms between requests). Stage times (s) from the build's manifest, \`pagefind\` (after the publish) from its summary line.`,
  ];
  for (const r of publish.runs) {
    const f = r.full;
    out.push('', `**${fmt(r.pages)} pages** (${fmt(r.generatedGuides)} generated guides): full build **${seconds(f.wallMs)}** wall, ${seconds(f.cpuMs)} CPU, `
      + `peak **${mb(f.peakTreeRss)}** summed over the build and its children (largest then: ${f.peakTreeLargest}); stages: ${stagesOf(f.stages)}.`, '',
    table(['edit', 'live', '÷ full build', 'build to exit', 'pages rendered', 'peak RSS', 'stages', 'failed requests', 'problem'],
      r.edits.map((e) => [e.kind, `**${seconds(e.liveMs)}**`, `${fmt((100 * e.liveMs) / f.wallMs, 1)} %`, seconds(e.build.wallMs), fmt(e.build.rendered),
        mb(e.build.peakTreeRss), stagesOf(e.build.stages), `${fmt(e.failed)} of ${fmt(e.answers)}`, e.problem ?? '']),
    ), '',
    `Identity: \`--full\` of the edited sources into another READ_MODEL_DIR (${seconds(r.identity.full.wallMs)}): `
      + (r.identity.differences.length ? `**differs**: ${r.identity.differences.join('; ')}.` : 'same content_id and page hashes as the incremental build.'));
  }
  if (publish.runs.length >= 2) {
    const [a, b] = [...publish.runs].sort((x, y) => x.pages - y.pages).filter((_, i, all) => i === 0 || i === all.length - 1);
    out.push('', `Full build time per page, ${fmt(b!.pages)} ÷ ${fmt(a!.pages)} pages: **${fmt((b!.full.wallMs / b!.pages) / (a!.full.wallMs / a!.pages), 2)}×**.`);
  }
  return out.join('\n');
}

function startOptionsSection(r: StartOptionsReport): string {
  const both = (bytes: readonly number[]) => bytes.map((b) => fmt(b / 1024 / 1024)).join(' / ');
  return [
    '### Start options',
    '',
    `Each variant ran as ${r.copies} servers on one read model (figures per server, MB), each taking the same mix of reads for ${r.seconds} s in each of ${r.rounds} rounds. `
      + 'Memory read once idle (15 s) after the start and after the load. CPU per request: median, and its ratio to the start script\'s servers within each round (median over rounds).',
    '',
    table(['variant', 'RSS after start', 'RSS after the load', 'CPU µs / request', 'CPU ÷ start script', 'p99 ms'],
      r.rows.map((row) => [row.variant, both(row.rssAtStart), both(row.rssAfterLoad), fmt(row.cpuUsPerRequest, 1), fmt(row.cpuRatio, 2), fmt(row.p99Ms, 2)])),
  ].join('\n');
}

function lighthouseSection(lighthouse: LighthouseBenchReport): string {
  return [
    '### Lighthouse Performance',
    '',
    'Lighthouse\'s default configuration (mobile emulation, simulated slow 4G, 4× CPU slowdown) on the pages the page tests open, '
      + 'served by the real server as `npm start` runs it over the built sample site; one run per page.',
    '',
    table(['page', 'Performance', 'audits that cost points'], lighthouse.pages.map((p) => [`\`${p.path}\``, String(p.performance), p.lost.join('; ') || '—'])),
  ].join('\n');
}

function checkSection(list: readonly Check[]): string {
  return [
    '### Targets',
    '',
    table(['figure', 'value', 'target', ''], list.map((c) => [c.name, fmt(c.value, c.value < 10 ? 2 : 0) + (c.unit ?? ''), c.target, c.pass ? 'pass' : '**FAIL**'])),
  ].join('\n');
}

export function renderReport(r: Results): string {
  const m = r.machine;
  const parts = [
    `Run ${m.date} with \`${r.command}\` (${fmt(r.minutes, 1)} min). Machine: ${m.cores} cores (${m.cpu}), ${m.memoryGb} GB, Node ${m.node}; `
      + `load average ${m.loadStart.join(' / ')} at the start, ${m.loadEnd?.join(' / ') ?? '?'} at the end (1 / 5 / 15 min).`,
  ];
  if (r.http) parts.push(httpSection(r.http));
  if (r.micro) parts.push(microSection(r.micro));
  if (r.build) parts.push(buildSection(r.build));
  if (r.large) parts.push(largeSection(r.large));
  if (r.publish) parts.push(publishSection(r.publish));
  if (r.startOptions) parts.push(startOptionsSection(r.startOptions));
  if (r.lighthouse) parts.push(lighthouseSection(r.lighthouse));
  parts.push(checkSection(r.checks));
  return parts.join('\n\n') + '\n';
}
