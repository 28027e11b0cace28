/**
 * Byte-for-byte comparison of two commits' servers: each commit's code is checked out (a detached
 * worktree under var/compare/), the site is built once with the first and both servers serve that
 * one build, each started as `npm start` starts it with the same configuration; then every request of
 * a recorded set (scripts/compare/requests.json) is sent to one and then the other, in order, and
 * every difference in status, headers or body bytes is reported, less what
 * scripts/compare/normalise.ts lists (Date, random ids and tokens, clock-derived seconds, the
 * metrics of the process itself). Exits 1 on any difference.
 *
 *   node --import tsx scripts/compare-responses.ts <commit|folder> <commit|folder>
 *     [--requests file.json] [--built folder]   (a build's read-model/ and dist/, reused)
 *     [--redis redis://127.0.0.1:6379/15]       (else the memory store; a key prefix per run and server)
 *     [--out report.md] [--keep]                (keep the worktrees and the build)
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { buildSite, checkout, npmStart, type Checkout, type StartedServer } from './compare/commit-server.ts';
import { freePort } from './lib/port.ts';
import { capture, concrete, loadRequestSet, type Captured, type RequestSet } from './compare/request-set.ts';
import { closeConnections, decodedBody, send, SITE_HOST, type Endpoint, type Recorded } from './compare/send.ts';
import { differences } from './compare/diff.ts';
import { createClient } from 'redis';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    requests: { type: 'string', default: path.join(ROOT, 'scripts', 'compare', 'requests.json') },
    built: { type: 'string' },
    redis: { type: 'string' },
    out: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
if (positionals.length !== 2) {
  console.error('usage: node --import tsx scripts/compare-responses.ts <commit|folder> <commit|folder> [--requests f] [--built d] [--redis url] [--out f] [--keep]');
  process.exit(2);
}

const runId = new Date().toISOString().replace(/[:.]/g, '-');
const runDir = path.join(ROOT, 'var', 'compare', runId);
fs.mkdirSync(runDir, { recursive: true });
const set: RequestSet = loadRequestSet(opts.requests);

/** The same for both servers: quotas small enough for the set's 429s, long parts cut, cursors signed. */
const FIXED: Record<string, string> = {
  SITE_URL: `http://${SITE_HOST}`,
  HOST: '127.0.0.1',
  READ_MODEL_WATCH: 'off',
  LOG_LEVEL: 'info',
  RATE_LIMIT_ANONYMOUS: '100',
  RATE_LIMIT_IDENTIFIED: '100',
  RATE_LIMIT_WINDOW: '3600',
  READ_PAGE_MAX_CHARS: '2000',
  TRUST_PROXY: '127.0.0.1',
  CURSOR_SECRET: 'compare-responses-fixed-secret',
};

/** The run's keys, gone with it (registered clients would otherwise stay for 180 days). */
async function forgetKeys(url: string, prefix: string): Promise<void> {
  const client = await createClient({ url }).connect();
  try {
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) if (keys.length) await client.del(keys);
  } finally {
    client.destroy();
  }
}

interface Server { checkout: Checkout; endpoint: Endpoint; started: StartedServer | null; captured: Captured }

const checkouts: Checkout[] = [];
const servers: Server[] = [];
// An interrupted run (its servers are stopped by commit-server.ts) leaves no worktree behind either.
process.once('exit', () => { if (!opts.keep) for (const co of checkouts) co.remove(); });
let exitCode = 1;
try {
  for (const [i, ref] of positionals.entries()) checkouts.push(checkout(ROOT, ref, runDir, `checkout-${'ab'[i]}`));
  const built = opts.built ? path.resolve(opts.built) : path.join(runDir, 'built');
  const buildEnv = { SITE_URL: FIXED.SITE_URL!, READ_MODEL_DIR: path.join(built, 'read-model'), DIST_DIR: path.join(built, 'dist') };
  if (!opts.built) {
    console.log(`building the site with ${checkouts[0]!.label} into ${built}…`);
    buildSite(checkouts[0]!.dir, buildEnv);
  }
  const pointer = path.join(buildEnv.READ_MODEL_DIR, 'current');
  const servedBuild = fs.readFileSync(pointer, 'utf8');

  for (const [i, co] of checkouts.entries()) {
    const endpoint = { port: await freePort(), metricsPort: await freePort() };
    const env: Record<string, string> = { ...FIXED, ...buildEnv, PORT: String(endpoint.port), METRICS_PORT: String(endpoint.metricsPort) };
    if (opts.redis) Object.assign(env, { REDIS_URL: opts.redis, KEY_PREFIX: `compare-${runId}-${'ab'[i]}` });
    const server: Server = { checkout: co, endpoint, started: null, captured: new Map() };
    servers.push(server);
    console.log(`starting ${co.label} (npm start) on port ${endpoint.port}, metrics ${endpoint.metricsPort}…`);
    server.started = await npmStart(co.dir, env, path.join(runDir, `server-${'ab'[i]}.log`));
  }
  // A commit whose read-model format differs rebuilds at start, and the two would serve different builds.
  if (fs.readFileSync(pointer, 'utf8') !== servedBuild) throw new Error('a server rebuilt the shared read model at start: the commits read different read-model formats');

  const randomsOf = (captured: Captured) => new Map([...captured].filter(([name]) => name in set.random).map(([name, value]) => [value, name]));
  const report: string[] = [];
  let sent = 0;
  let differing = 0;
  /** What the first server answered to each request of the set, to read the run by. */
  const statuses: string[] = [];
  for (const [n, spec] of set.requests.entries()) {
    const seen = new Map<number, number>();
    for (let r = 0; r < (spec.repeat ?? 1); r++) {
      const answers: Recorded[] = [];
      for (const s of servers) {
        // A value this server never gave (an answer without that field) makes the request unsendable: a difference, not a stop.
        const failed = (why: string): Recorded => ({ status: 0, statusText: why, headers: [], body: Buffer.alloc(0) });
        let res: Recorded;
        try {
          res = await send(s.endpoint, concrete(spec, s.captured)).catch((err: NodeJS.ErrnoException) => failed(`no answer: ${err.code ?? err.message}`));
        } catch (err) {
          res = failed(`not sent: ${(err as Error).message}`);
        }
        capture(spec, res, decodedBody(res), s.captured);
        answers.push(res);
      }
      sent++;
      seen.set(answers[0]!.status, (seen.get(answers[0]!.status) ?? 0) + 1);
      const found = differences(
        { res: answers[0]!, randoms: randomsOf(servers[0]!.captured) },
        { res: answers[1]!, randoms: randomsOf(servers[1]!.captured) },
        { metrics: spec.target === 'metrics' },
      );
      if (found.length === 0) continue;
      differing++;
      report.push(`### ${n + 1}. ${spec.name}${spec.repeat ? ` (${r + 1} of ${spec.repeat})` : ''}: ${answers[0]!.status} vs ${answers[1]!.status}`, '', ...found.map((d) => `- ${d}`), '');
    }
    statuses.push(`${n + 1}. ${spec.name}: ${[...seen].map(([status, count]) => (count > 1 ? `${status} ×${count}` : status)).join(', ')}`);
  }

  const summary = `${sent} requests (${set.requests.length} in the set), ${differing} with differences`;
  const head = [
    `# Responses of ${checkouts[0]!.label} vs ${checkouts[1]!.label}`, '',
    `Request set: ${path.relative(ROOT, opts.requests)}. Store: ${opts.redis ? `Redis ${opts.redis}, a key prefix per server` : 'memory'}.`,
    `Configuration: ${Object.entries(FIXED).map(([k, v]) => `${k}=${v}`).join(' ')}.`,
    'Ignored: Date; normalised as scripts/compare/normalise.ts lists: ' + Object.keys(set.random).map((k) => `<${k}>`).join(', ') + ', clock-derived seconds, process metrics.', '',
    summary, '', ...report,
  ];
  const text = [...head, '## Statuses answered by the first server', '', ...statuses].join('\n');
  const out = opts.out ? path.resolve(opts.out) : path.join(runDir, 'report.md');
  fs.writeFileSync(out, text + '\n');
  if (report.length) console.log(head.join('\n'));
  console.log(`${summary}; report: ${out}`);
  exitCode = differing === 0 ? 0 : 1;
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  exitCode = 2;
} finally {
  closeConnections();
  for (const s of servers) await s.started?.stop();
  if (opts.redis) await forgetKeys(opts.redis, `compare-${runId}-`);
  if (!opts.keep) {
    for (const co of checkouts) co.remove();
    fs.rmSync(path.join(runDir, 'built'), { recursive: true, force: true });
  }
}
process.exit(exitCode);
