/**
 * Slow and idle clients cannot exhaust a server process (`server/index.ts`, real timeouts):
 * clients trickling their headers are cut off by headersTimeout (10 s, checked every second)
 * with a JSON 408, connections that never send anything are closed the same way, kept-alive
 * connections after keepAliveTimeout (5 s), and all the while a normal request is answered at
 * once. Raw sockets, loopback only; the file runs as long as those timeouts.
 */
import net from 'node:net';
import { execFileSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TIMEOUTS } from '../../server/main.ts';
import { sharedReadModel } from '../helpers/read-model.ts';
import { serverEnv, startServers, stopAll, stubSite, type ServerProcess } from './helpers/cluster.ts';
import { request } from '../helpers/http.ts';
import { percentile, sleep } from './helpers/load.ts';
import { waitUntil } from '../helpers/wait.ts';

const IDLE = 1200;
const KEPT_ALIVE = 100;
const TRICKLERS = 20;

interface Tracked { socket: net.Socket; openedAt: number; closedAt: number | null; received: string }

function open(port: number): Promise<Tracked> {
  return new Promise((resolve, reject) => {
    const t: Tracked = { socket: net.connect(port, '127.0.0.1'), openedAt: 0, closedAt: null, received: '' };
    t.socket.setNoDelay(true);
    t.socket.on('data', (d: Buffer) => { t.received += d.toString('latin1'); });
    t.socket.on('error', () => {});
    t.socket.on('close', () => { t.closedAt = performance.now(); });
    t.socket.once('connect', () => { t.openedAt = performance.now(); resolve(t); });
    t.socket.once('error', reject);
  });
}

async function openMany(port: number, n: number): Promise<Tracked[]> {
  const out: Tracked[] = [];
  // In batches, so the listen backlog never overflows into SYN retries.
  for (let i = 0; i < n; i += 200) out.push(...await Promise.all(Array.from({ length: Math.min(200, n - i) }, () => open(port))));
  return out;
}

function fdLimit(): number {
  return Number(execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim()) || Infinity;
}

test('trickled headers are cut off by headersTimeout; 1,200+ idle sockets do not slow a normal request', async () => {
  const limit = fdLimit();
  assert.ok(limit >= 2 * (IDLE + KEPT_ALIVE + TRICKLERS) + 200, `open-file limit ${limit} too low for this test (ulimit -n)`);
  const fixture = await sharedReadModel();
  const site = await stubSite();
  let servers: ServerProcess[] = [];
  const all: Tracked[] = [];
  // Cleared in `finally` too: a failed assertion must not leave it running, holding the test process open.
  let trickle: NodeJS.Timeout | undefined;
  try {
    servers = await startServers(1, serverEnv({ SITE_URL: fixture.siteUrl, READ_MODEL_DIR: fixture.dir, DIST_DIR: site.distDir, RATE_LIMIT_ANONYMOUS: '1000000', LOG_LEVEL: 'error' }));
    const server = servers[0]!;

    // Slowloris: a header line per second, never the blank line that ends them.
    const tricklers = await openMany(server.port, TRICKLERS);
    for (const t of tricklers) t.socket.write('GET /wp-json/agentes/v1/get_company_info HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    trickle = setInterval(() => {
      for (const t of tricklers) if (t.closedAt === null) t.socket.write(`X-Slow-${Math.floor(Math.random() * 1e6)}: y\r\n`);
    }, 1000);

    // Idle connections that never send a byte, and kept-alive ones idle after one answer.
    const idle = await openMany(server.port, IDLE);
    const kept = await openMany(server.port, KEPT_ALIVE);
    all.push(...tricklers, ...idle, ...kept);
    for (const t of kept) t.socket.write('GET /wp-json/agentes/v1/get_company_info?section=contact HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await waitUntil('the kept-alive sockets\' answers', () => kept.every((t) => t.received.startsWith('HTTP/1.1 200')));
    const answeredAt = performance.now();

    // Meanwhile, normal requests (new connections) are served at once.
    const times: number[] = [];
    for (let i = 0; i < 40; i++) {
      const r = await request(`${server.url}/wp-json/agentes/v1/read_page?url=fontaneria`, { timeoutMs: 3000 });
      assert.is(r.status, 200);
      times.push(r.ms);
      await sleep(100);
    }
    // A busy machine stalls the odd request, not the median: the bounds catch a server the slow clients hold up.
    assert.ok(percentile(times, 50) < 50 && Math.max(...times) < 5000, `normal requests: p50 ${percentile(times, 50).toFixed(1)} ms, max ${Math.max(...times).toFixed(0)} ms`);

    // The server closes every slow or idle connection by headersTimeout + one check interval; the
    // wait is bounded far beyond, for a busy machine, and the times are checked below.
    const open_ = await waitUntil('every slow or idle connection closed', () => all.every((t) => t.closedAt !== null), { timeoutMs: TIMEOUTS.headersMs * 6 })
      .then(() => [], () => all.filter((t) => t.closedAt === null));
    clearInterval(trickle);
    assert.is(open_.length, 0, `${open_.length} connections still open`);
    for (const t of tricklers) {
      const held = t.closedAt! - t.openedAt;
      // Slack for timers that fire late on a busy machine.
      assert.ok(held >= TIMEOUTS.headersMs - 100 && held <= TIMEOUTS.headersMs + TIMEOUTS.checkMs + 5000, `trickler held ${held.toFixed(0)} ms`);
      assert.match(t.received, /^HTTP\/1\.1 408 Request Timeout\r\n/);
      const body = JSON.parse(t.received.slice(t.received.indexOf('\r\n\r\n') + 4));
      assert.equal(body, { code: 'agentes_request_timeout', message: body.message, data: { status: 408, hint: body.data.hint } });
    }
    for (const t of idle) assert.ok(t.closedAt! - t.openedAt >= TIMEOUTS.headersMs - 100, 'idle sockets get the whole headersTimeout');
    for (const t of kept) {
      const idleFor = t.closedAt! - answeredAt;
      assert.ok(idleFor <= TIMEOUTS.keepAliveMs + TIMEOUTS.checkMs + 5000, `kept-alive socket closed after ${idleFor.toFixed(0)} ms idle`);
    }

    // Still healthy.
    assert.is((await request(`${server.url}/wp-json/agentes/v1/get_company_info`)).status, 200);
    assert.ok(server.alive());
    assert.equal(await server.stop(), { code: 0, signal: null });
    const heldFor = tricklers.map((t) => t.closedAt! - t.openedAt);
    console.log(`  slow clients: ${TRICKLERS} tricklers cut off after ${Math.min(...heldFor).toFixed(0)}–${Math.max(...heldFor).toFixed(0)} ms (408 JSON); `
      + `${IDLE} idle + ${KEPT_ALIVE} kept-alive sockets closed; normal requests meanwhile p50 ${percentile(times, 50).toFixed(1)} ms, max ${Math.max(...times).toFixed(0)} ms`);
  } finally {
    clearInterval(trickle);
    for (const t of all) t.socket.destroy();
    await stopAll(servers);
    await site.remove();
  }
});

test.run();
