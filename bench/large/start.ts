/**
 * `node --import tsx bench/large/start.ts <READ_MODEL_DIR> [runs]`: the start of the real server
 * (as `npm start` runs it) on a read model already built, e.g. one of the large section's kept
 * aside: ready (process start to the first 200 of read_page), RSS 5 s later, and RSS 5 s after
 * 5 s of wrk on a hot read_page and 5 s on search_pages. One JSON line a run. The page read is
 * one every generated site has.
 */
import { load } from '../http/load.ts';
import { startServer } from '../lib/processes.ts';
import { bundleServer } from '../../scripts/bundle-server.ts';
import { firstOk } from './run-large.ts';

const [dir, runs = '3'] = process.argv.slice(2);
if (!dir) throw new Error('usage: bench/large/start.ts <READ_MODEL_DIR> [runs]');
const SETTLE_MS = 5_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
const page = `/wp-json/agentes/v1/read_page?url=${encodeURIComponent('/servicios/fontaneria/madrid/')}`;
const headers = { Accept: 'application/json', 'Accept-Encoding': 'gzip, deflate, br' };

await bundleServer();
for (let run = 0; run < Number(runs); run++) {
  const started = performance.now();
  const server = await startServer('start', { READ_MODEL_DIR: dir, RATE_LIMIT_ANONYMOUS: '1000000000', RATE_LIMIT_WINDOW: '3600' });
  try {
    await firstOk(server.url + page);
    const readyMs = Math.round(performance.now() - started);
    await sleep(SETTLE_MS);
    const rssAtStart = mb(server.memory().rss);
    await load(server.url, { method: 'GET', path: page, headers }, { tool: 'wrk', connections: 10, seconds: 5, expectStatus: 200 });
    await load(server.url, { method: 'GET', path: '/wp-json/agentes/v1/search_pages?query=fontanero%20madrid', headers }, { tool: 'wrk', connections: 10, seconds: 5, expectStatus: 200 });
    await sleep(SETTLE_MS);
    process.stdout.write(JSON.stringify({ run, readyMs, rssAtStartMb: rssAtStart, rssAfterLoadMb: mb(server.memory().rss) }) + '\n');
  } finally {
    await server.close();
  }
}
