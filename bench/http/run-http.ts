/**
 * HTTP section: the real server against the bare node:http baseline, loaded alternately.
 *
 * Processes: this one (autocannon), the baseline, and four real servers on a snapshot of the
 * current read model — memory store and Redis (a private redis-server), each once with the quota
 * limits raised (so the load measures 200s) and once with a quota of one request (the 429 row),
 * and a fifth, the memory store with metrics on (METRICS_PORT), for the rows that ask for it.
 * Every round runs each row on the baseline and on both stores, in an order rotated from round to
 * round, so a change in machine load hits all three alike; ratios are taken within a round and
 * the median over rounds is reported.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { longAndShort, snapshotReadModel } from '../lib/read-model-snapshot.ts';
import { startRedisServer } from '../../scripts/lib/redis-server.ts';
import { bundleServer } from '../../scripts/bundle-server.ts';
import { startBaseline, startServer, type Child } from '../lib/processes.ts';
import { median } from '../lib/stats.ts';
import { load, type LoadRequest, type LoadResult, type LoadTool } from './load.ts';
import { redisRoundTrip, type RoundTrip } from './redis-round-trip.ts';
import { capture, scenarios, type Scenario } from './scenarios.ts';

export type Store = 'memory' | 'redis';
/** The memory-store server with metrics on (METRICS_PORT set), measured on the rows that ask for it. */
export const METRICS_ON = 'memory, metrics on';
export type Server = Store | typeof METRICS_ON;

export interface HttpOptions {
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  tool: LoadTool;
  /** Only the rows whose name matches. */
  filter?: RegExp;
  /** Write a CPU profile of each server here (written when it exits). */
  profileDir?: string;
  log(line: string): void;
}

/** Medians over the rounds of one target's runs. */
export interface Measured { rps: number; p50: number; p99: number; cpuUsPerRequest: number }

export interface HttpRow {
  scenario: string;
  group: Scenario['group'];
  store: Server;
  /**
   * With metrics on, against the same server with metrics off (memory store), paired within
   * rounds, medians over rounds: req/s on ÷ off, and CPU per response off ÷ on (what the req/s
   * ratio would be with a core to itself).
   */
  metricsCost?: { rps: number; cpu: number };
  /** The row this one must not cost more than. */
  twin?: string;
  /**
   * Server CPU per response of this row ÷ its twin's, each pair measured back to back on the same
   * server kind within a round; median over rounds.
   */
  twinCpuRatio?: number;
  /** Set when the row could not be measured (e.g. no /mcp yet). */
  unavailable?: string;
  server?: Measured;
  baseline?: Measured;
  /** Medians over rounds of server/baseline within each round. */
  rpsRatio?: number;
  p99Ratio?: number;
  /**
   * Baseline CPU per response ÷ server CPU per response (median over rounds): the throughput
   * ratio each would reach with a core to itself, whatever else the machine is running.
   */
  cpuRatio?: number;
  /** Responses that were not the expected status, over all rounds. */
  unexpected?: number;
  bodyBytes?: number;
}

/** Resident memory of a main server, bytes. */
export interface ServerMemory {
  /** As soon as it listens, with the model load's garbage. */
  rssJustStarted: number;
  /** After start and SETTLE_MS idle. */
  rssAtStart: number;
  /** Right after the last run: includes the garbage of the load not yet collected. */
  rssAfterLoad: number;
  /** After SETTLE_MS idle, once V8's memory reducer has collected that garbage. */
  rss: number;
  peak: number;
}

export interface HttpReport {
  rows: HttpRow[];
  memory: Record<Store, ServerMemory>;
  settleSeconds: number;
  /** A round trip to the benchmark's Redis from Node, measured alone after the rounds. */
  redisRoundTrip: RoundTrip;
  connections: number;
  rounds: number;
  seconds: number;
  tool: LoadTool;
}

const SETTLE_MS = 15_000;

const measured = (runs: ReadonlyArray<LoadResult & { cpuUsPerRequest: number }>): Measured => ({
  rps: median(runs.map((x) => x.rps)),
  p50: median(runs.map((x) => x.p50)),
  p99: median(runs.map((x) => x.p99)),
  cpuUsPerRequest: median(runs.map((x) => x.cpuUsPerRequest)),
});

export async function runHttp(opts: HttpOptions): Promise<HttpReport> {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-bench-'));
  const children: Child[] = [];
  const redis = await startRedisServer();
  try {
    const model = await snapshotReadModel(path.join(tmp, 'read-model'));
    const pages = await longAndShort(model.pagesDir);
    const common = { READ_MODEL_DIR: model.dir, RATE_LIMIT_WINDOW: '3600' };
    const raised = { ...common, RATE_LIMIT_ANONYMOUS: '1000000000', RATE_LIMIT_IDENTIFIED: '1000000000' };
    const limited = { ...common, RATE_LIMIT_ANONYMOUS: '1', RATE_LIMIT_IDENTIFIED: '1' };
    opts.log(`http: bundling the server as npm start does, starting the servers (read model snapshot, redis ${redis.url})`);
    await bundleServer();
    const prof = (name: string) => (opts.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.join(opts.profileDir, name)}`] : []);
    const [baseline, memory, redisMain, memoryLimited, redisLimited, metered] = await Promise.all([
      startBaseline(),
      startServer('server (memory)', raised, prof('server-memory')),
      startServer('server (redis)', { ...raised, REDIS_URL: redis.url, KEY_PREFIX: 'bench-main' }, prof('server-redis')),
      startServer('server (memory, quota used up)', limited, prof('server-memory-429')),
      startServer('server (redis, quota used up)', { ...limited, REDIS_URL: redis.url, KEY_PREFIX: 'bench-limited' }, prof('server-redis-429')),
      startServer('server (memory, metrics on)', { ...raised, METRICS_PORT: '0' }, prof('server-memory-metrics')),
    ]);
    children.push(baseline, memory, redisMain, memoryLimited, redisLimited, metered);
    const rssJustStarted = { memory: memory.memory().rss, redis: redisMain.memory().rss };
    // The model load's garbage is left to V8's memory reducer too: read "after start" once idle.
    opts.log(`http: ${SETTLE_MS / 1000} s idle, then the servers' memory after start`);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const rssAtStart = { memory: memory.memory().rss, redis: redisMain.memory().rss };
    const serversOf = (s: Scenario): Record<Store, Child> =>
      s.servers === 'main' ? { memory, redis: redisMain } : { memory: memoryLimited, redis: redisLimited };

    // Requests per server, and the baseline's copy of each response.
    const rows = scenarios(pages).filter((s) => !opts.filter || opts.filter.test(s.name));
    const plans: Array<{ scenario: Scenario; requests: Record<Store, LoadRequest>; bodyBytes: number }> = [];
    const unavailable: Scenario[] = [];
    for (const scenario of rows) {
      const servers = serversOf(scenario);
      const m = await scenario.prepare(servers.memory.url);
      const r = await scenario.prepare(servers.redis.url);
      if (m === null || r === null) { unavailable.push(scenario); continue; }
      // Used-up quota: the first request of the window is still a 200.
      if (scenario.servers === 'limited') { await capture(servers.memory.url, m); await capture(servers.redis.url, r); }
      const captured = await capture(servers.memory.url, m);
      for (const [store, req] of [['memory', m], ['redis', r]] as const) {
        const check = await capture(servers[store].url, req);
        if (check.status !== scenario.expectStatus) {
          throw new Error(`${scenario.name} (${store}): expected ${scenario.expectStatus}, got ${check.status}: ${check.body.toString().slice(0, 200)}`);
        }
      }
      await baseline.send({ route: { method: m.method, path: m.path, status: captured.status, headers: captured.headers, body: captured.body.toString('base64') } });
      plans.push({ scenario, requests: { memory: m, redis: r }, bodyBytes: captured.body.length });
    }

    type Target = 'baseline' | Server;
    type Run = LoadResult & { cpuUsPerRequest: number };
    const targetsOf = (plan: (typeof plans)[number]): Target[] =>
      (plan.scenario.metrics ? ['baseline', 'memory', 'redis', METRICS_ON] : ['baseline', 'memory', 'redis']);
    const run = async (plan: (typeof plans)[number], target: Target, seconds: number): Promise<Run> => {
      const servers = serversOf(plan.scenario);
      const child = target === 'baseline' ? baseline : target === METRICS_ON ? metered : servers[target];
      const cpu = child.cpuSeconds();
      const r = await load(child.url, target === 'baseline' || target === METRICS_ON ? plan.requests.memory : plan.requests[target], {
        connections: opts.connections, seconds, tool: opts.tool, expectStatus: plan.scenario.expectStatus,
      });
      return { ...r, cpuUsPerRequest: ((child.cpuSeconds() - cpu) * 1e6) / r.count };
    };

    if (opts.warmupSeconds > 0) {
      opts.log(`http: warm-up, ${opts.warmupSeconds} s per row and target`);
      for (const plan of plans) for (const t of targetsOf(plan)) await run(plan, t, opts.warmupSeconds);
    }
    const results = new Map<string, Record<Target, Run[]>>();
    for (const plan of plans) results.set(plan.scenario.name, { baseline: [], memory: [], redis: [], [METRICS_ON]: [] });
    // A row compared with its twin (the 429 with its 200) runs right after it on each target, so
    // the two are measured seconds apart under the same machine load and compared within a round.
    const groups: Array<typeof plans> = [];
    for (const plan of plans) {
      const twin = plan.scenario.twin;
      if (twin !== undefined && plans.some((p) => p.scenario.name === twin)) continue;
      groups.push([plan, ...plans.filter((p) => p.scenario.twin === plan.scenario.name)]);
    }
    for (let round = 0; round < opts.rounds; round++) {
      opts.log(`http: round ${round + 1}/${opts.rounds} (load average ${os.loadavg()[0]!.toFixed(2)})`);
      for (const group of groups) {
        const targets = targetsOf(group[0]!);
        const order = targets.map((_, i) => targets[(i + round) % targets.length]!);
        for (const t of order) {
          // The twin's server (quota used up) sits idle through the other rows; V8 may have dropped
          // its compiled code meanwhile (bytecode flushing, memory reducer). Both rows of a pair
          // are warmed again right before they are measured, so they start alike.
          const due = group.filter((plan) => targetsOf(plan).includes(t));
          if (due.length > 1 && opts.warmupSeconds > 0) for (const plan of due) await run(plan, t, opts.warmupSeconds);
          for (const plan of due) results.get(plan.scenario.name)![t].push(await run(plan, t, opts.seconds));
        }
      }
    }

    // V8 leaves the garbage of a load for its memory reducer, which runs after some idle seconds:
    // RSS right after the load is mostly garbage, so the settled figure is read after a wait.
    const rssAfterLoad = { memory: memory.memory().rss, redis: redisMain.memory().rss };
    opts.log('http: round trips to Redis, one at a time, alone');
    const roundTrip = await redisRoundTrip(redis.url);
    opts.log(`http: ${SETTLE_MS / 1000} s idle for V8's memory reducer before reading the servers' memory`);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

    const report: HttpRow[] = [];
    for (const scenario of rows) {
      const plan = plans.find((p) => p.scenario === scenario);
      const servers: Server[] = scenario.metrics ? ['memory', 'redis', METRICS_ON] : ['memory', 'redis'];
      for (const store of servers) {
        if (!plan) { report.push({ scenario: scenario.name, group: scenario.group, store, unavailable: scenario.unavailable ?? 'n/a' }); continue; }
        const r = results.get(scenario.name)!;
        const server = r[store];
        const base = r.baseline;
        const unexpected = server.reduce((n, x) => n + x.unexpected, 0);
        const twinOf = (twin: string, runs: Run[]) => {
          const twinRuns = results.get(twin)?.[store as Store];
          return twinRuns === undefined
            ? { twin }
            : { twin, twinCpuRatio: median(runs.map((x, i) => x.cpuUsPerRequest / twinRuns[i]!.cpuUsPerRequest)) };
        };
        report.push({
          scenario: scenario.name,
          group: scenario.group,
          store,
          ...(scenario.twin ? twinOf(scenario.twin, server) : {}),
          ...(store === METRICS_ON ? {
            metricsCost: {
              rps: median(server.map((x, i) => x.rps / r.memory[i]!.rps)),
              cpu: median(server.map((x, i) => r.memory[i]!.cpuUsPerRequest / x.cpuUsPerRequest)),
            },
          } : {}),
          server: measured(server),
          baseline: measured(base),
          rpsRatio: median(server.map((x, i) => x.rps / base[i]!.rps)),
          p99Ratio: median(server.map((x, i) => x.p99 / base[i]!.p99)),
          cpuRatio: median(server.map((x, i) => base[i]!.cpuUsPerRequest / x.cpuUsPerRequest)),
          unexpected,
          bodyBytes: plan.bodyBytes,
        });
      }
    }
    return {
      rows: report,
      memory: {
        memory: { ...memory.memory(), rssJustStarted: rssJustStarted.memory, rssAtStart: rssAtStart.memory, rssAfterLoad: rssAfterLoad.memory },
        redis: { ...redisMain.memory(), rssJustStarted: rssJustStarted.redis, rssAtStart: rssAtStart.redis, rssAfterLoad: rssAfterLoad.redis },
      },
      settleSeconds: SETTLE_MS / 1000,
      redisRoundTrip: roundTrip,
      connections: opts.connections,
      rounds: opts.rounds,
      seconds: opts.seconds,
      tool: opts.tool,
    };
  } finally {
    await Promise.all(children.map((c) => c.close().catch(() => undefined)));
    await redis.close();
    await fs.rm(tmp, { recursive: true, force: true });
  }
}
