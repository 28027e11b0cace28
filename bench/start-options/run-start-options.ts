/**
 * Start-options section: is each option `npm start` gives the server worth keeping? Servers on one
 * snapshot of the read model, started with the start script's options, with none, with each alone
 * and with each left out (two copies of each, so the spread between identical processes shows),
 * take the same mix of reads in rounds whose order rotates. Reported per variant: resident memory
 * once idle after the start and after the load, CPU per request as a ratio to the start script's
 * servers within each round, and the p99 latency.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { bundleServer } from '../../scripts/bundle-server.ts';
import { load, type LoadTool } from '../http/load.ts';
import { startScript } from '../../scripts/lib/start-script.ts';
import { startServer, type Child } from '../lib/processes.ts';
import { longAndShort, snapshotReadModel } from '../lib/read-model-snapshot.ts';
import { median } from '../lib/stats.ts';
import { variants } from './variants.ts';

export interface StartOptionsOptions {
  rounds: number;
  seconds: number;
  connections: number;
  tool: LoadTool;
  log: (line: string) => void;
}

export interface StartOptionsRow {
  variant: string;
  /** One figure per copy, bytes. */
  rssAtStart: number[];
  rssAfterLoad: number[];
  /** Median over rounds of (CPU per request ÷ the start script's in the same round). */
  cpuRatio: number;
  cpuUsPerRequest: number;
  p99Ms: number;
}

export interface StartOptionsReport {
  rows: StartOptionsRow[];
  rounds: number;
  seconds: number;
  copies: number;
}

const COPIES = 2;
/** V8's memory reducer acts some seconds after a process goes quiet. */
const SETTLE_MS = 15_000;
const API = '/wp-json/agentes/v1';
const HEADERS = { accept: 'application/json', 'accept-encoding': 'gzip, deflate, br', 'user-agent': 'agentes-bench' };

/** Searches, page reads in JSON, Markdown and HTML, the company: the reads agents make most. */
function mix(pages: { longSlug: string; shortSlug: string }): string[] {
  const search = (q: Record<string, string>) => `${API}/search_pages?${new URLSearchParams(q)}`;
  return [
    search({ query: 'el termo gotea' }), search({ query: 'fontanero urgente', city: 'madrid' }), search({ query: 'humedad en la pared' }),
    search({ query: 'cuánto cuesta pintar un piso' }), `${API}/read_page?url=${pages.longSlug}`, `${API}/read_page?url=${pages.shortSlug}`,
    `${API}/get_company_info`, '/', '/servicios/',
  ];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runStartOptions(opts: StartOptionsOptions): Promise<StartOptionsReport> {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-bench-'));
  const servers: Array<{ variant: string; child: Child }> = [];
  try {
    const model = await snapshotReadModel(path.join(tmp, 'read-model'));
    const paths = mix(await longAndShort(model.pagesDir));
    const env = { READ_MODEL_DIR: model.dir, RATE_LIMIT_WINDOW: '3600', RATE_LIMIT_ANONYMOUS: '1000000000', RATE_LIMIT_IDENTIFIED: '1000000000' };
    await bundleServer();
    const list = variants(startScript());
    opts.log(`start-options: ${list.length} variants × ${COPIES} servers (${list.map((v) => v.name).join('; ')})`);
    for (const v of list) {
      for (let copy = 0; copy < COPIES; copy++) servers.push({ variant: v.name, child: await startServer(`${v.name} #${copy + 1}`, env, [], v.script) });
    }
    await sleep(SETTLE_MS);
    const rssAtStart = servers.map((s) => s.child.memory().rss);

    const cpu: number[][] = servers.map(() => []);
    const p99: number[][] = servers.map(() => []);
    const request = { method: 'GET' as const, path: paths[0]!, headers: HEADERS, rotate: paths };
    for (let round = 0; round < opts.rounds; round++) {
      opts.log(`start-options: round ${round + 1}/${opts.rounds} (load average ${os.loadavg()[0]!.toFixed(2)})`);
      for (let i = 0; i < servers.length; i++) {
        const at = (i + round * COPIES) % servers.length;
        const child = servers[at]!.child;
        const before = child.cpuSeconds();
        const r = await load(child.url, request, { connections: opts.connections, seconds: opts.seconds, tool: opts.tool, expectStatus: 200 });
        if (r.unexpected > 0) throw new Error(`start-options: ${child.name} gave ${r.unexpected} unexpected answers`);
        cpu[at]!.push(((child.cpuSeconds() - before) * 1e6) / r.count);
        p99[at]!.push(r.p99);
      }
    }
    await sleep(SETTLE_MS);
    const rssAfterLoad = servers.map((s) => s.child.memory().rss);

    const serversOf = (variant: string) => servers.flatMap((s, i) => (s.variant === variant ? [i] : []));
    const meanCpu = (indices: readonly number[], round: number) => indices.reduce((a, i) => a + cpu[i]![round]!, 0) / indices.length;
    // A round's ratio is taken against the start script's servers in that round.
    const reference = serversOf(list[0]!.name);
    const rows = list.map((v): StartOptionsRow => {
      const mine = serversOf(v.name);
      const ratios = Array.from({ length: opts.rounds }, (_, round) => meanCpu(mine, round) / meanCpu(reference, round));
      return {
        variant: v.name,
        rssAtStart: mine.map((i) => rssAtStart[i]!),
        rssAfterLoad: mine.map((i) => rssAfterLoad[i]!),
        cpuRatio: median(ratios),
        cpuUsPerRequest: median(mine.flatMap((i) => cpu[i]!)),
        p99Ms: median(mine.flatMap((i) => p99[i]!)),
      };
    });
    return { rows, rounds: opts.rounds, seconds: opts.seconds, copies: COPIES };
  } finally {
    await Promise.all(servers.map((s) => s.child.close()));
    await fs.rm(tmp, { recursive: true, force: true });
  }
}
