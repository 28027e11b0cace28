/**
 * `node --expose-gc --import tsx bench/large/search-tree.ts <tree> <read-model dir> <build dir> [calls]`:
 * the in-process search measurement of the large-sites section (`searchLatencies`: the bench's
 * Zipf mix, 5,000 calls by default) run with the code of another checkout (`<tree>`, e.g. a
 * `git archive` of main) on a build of a format it reads, printing besides p50/p99 the search
 * CPU and the process's memory after a GC with the model still open: before/after figures of a
 * search change on one model.
 */
import path from 'node:path';
import { searchModulesOf } from '../lib/tree.ts';

const [root, readModel, buildDir] = process.argv.slice(2).map((p) => path.resolve(p));
if (!root || !readModel || !buildDir) throw new Error('usage: search-tree.ts <tree> <read-model dir> <build dir> [calls]');
const { parseConfig, loadModel, SearchPagesParams, searchPages, commonQueries, realisticQueries, zipfTraffic, percentile } = await searchModulesOf(root);
const calls = Number(process.argv[5] ?? 5000);

const opened = performance.now();
const model = await loadModel({ ...parseConfig(), readModelDir: readModel }, buildDir);
const openMs = performance.now() - opened;
const traffic: { query: string; city: string }[] = zipfTraffic([...commonQueries(), ...realisticQueries()], calls);
const times: number[] = [];
const cpu = process.cpuUsage();
for (const q of traffic) {
  const t = performance.now();
  await searchPages(model.search, SearchPagesParams.parse({ query: q.query, city: q.city }));
  times.push(performance.now() - t);
}
const used = process.cpuUsage(cpu);
times.sort((a, b) => a - b);
(globalThis as { gc?: () => void }).gc?.();
const m = process.memoryUsage();
const mb = (n: number) => Math.round(n / 2 ** 20);
console.log(JSON.stringify({
  calls, distinct: new Set(traffic.map((q) => `${q.city}|${q.query}`)).size, openMs: Math.round(openMs),
  p50: +percentile(times, 50).toFixed(3), p99: +percentile(times, 99).toFixed(3), max: +times[times.length - 1]!.toFixed(1),
  cpuMs: Math.round((used.user + used.system) / 1000),
  rssMB: mb(m.rss), heapMB: mb(m.heapUsed), heapTotalMB: mb(m.heapTotal), externalMB: mb(m.external),
}));
await model.close();
