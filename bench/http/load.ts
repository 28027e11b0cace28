/**
 * One load run, always from a process other than the servers': `wrk` (one thread) when it is
 * installed, otherwise autocannon in this process (the servers are child processes).
 *
 * wrk is preferred because it costs a few microseconds of CPU per request: on a machine with two
 * cores the load generator shares the CPU with the server, and autocannon, itself a Node program,
 * spends about as much per request as a bare node:http server — the baseline is then bound by the
 * generator, not by itself, and every ratio is squeezed towards 1.
 *
 * With autocannon, latencies are taken from its `response` event (float milliseconds) rather than
 * its histogram, which rounds to whole milliseconds — too coarse on loopback.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /**
   * Request targets to take in turn instead of `path`, each once (the cold reads of the large
   * section: pages never asked for before); the run ends early when they are used up. Meant for
   * one connection.
   */
  paths?: readonly string[];
  /** Request targets taken in turn, round and round, for the whole run: a mix of reads. */
  rotate?: readonly string[];
}

export interface LoadOptions {
  connections: number;
  seconds: number;
  tool: LoadTool;
  /** The status every response should have; others are counted as unexpected. */
  expectStatus: number;
  /** Ends the run early when aborted (`seconds` is then the most it lasts): a load for as long as something else takes. */
  stop?: AbortSignal;
  /** Pause of each connection between its requests: a light load that leaves the cores to others. */
  delayMs?: number;
}

export type LoadTool = 'wrk' | 'autocannon';

export interface LoadResult {
  /** Responses per second over the run. */
  rps: number;
  /** Responses received. */
  count: number;
  /** Latency percentiles, milliseconds. */
  p50: number;
  p99: number;
  /** Responses without the expected status, plus connection errors and timeouts. */
  unexpected: number;
}

const run = promisify(execFile);

/** `wrk` when it is on the PATH, else autocannon. */
export async function pickTool(preferred?: LoadTool): Promise<LoadTool> {
  if (preferred) return preferred;
  try {
    await run('wrk', ['--version']).catch((err: { stdout?: string }) => {
      // wrk prints its version and usage, then exits 1.
      if (!String(err.stdout ?? '').includes('wrk')) throw err;
    });
    return 'wrk';
  } catch {
    return 'autocannon';
  }
}

export function load(origin: string, request: LoadRequest, opts: LoadOptions): Promise<LoadResult> {
  return opts.tool === 'wrk' ? loadWrk(origin, request, opts) : loadAutocannon(origin, request, opts);
}

const UNITS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function duration(text: string | undefined): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text ?? '');
  return m ? Number(m[1]) * UNITS[m[2]!]! : Number.NaN;
}

const luaString = (s: string) => '"' + s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n') + '"';

async function loadWrk(origin: string, request: LoadRequest, opts: LoadOptions): Promise<LoadResult> {
  const args = ['-t1', `-c${opts.connections}`, `-d${Math.max(1, Math.round(opts.seconds))}s`, '--latency', '--timeout', '10s'];
  for (const [name, value] of Object.entries(request.headers)) args.push('-H', `${name}: ${value}`);
  let script: string | undefined;
  if (request.method !== 'GET' || request.body !== undefined || request.paths || request.rotate || opts.delayMs) {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-wrk-'));
    script = path.join(dir, 'request.lua');
    let lua = `wrk.method = ${luaString(request.method)}\nwrk.body = ${luaString(request.body ?? '')}\n`;
    if (request.paths) {
      const list = path.join(dir, 'paths.txt');
      await fs.writeFile(list, request.paths.join('\n') + '\n');
      lua += [
        'local paths = {}',
        `for line in io.lines(${luaString(list)}) do paths[#paths + 1] = line end`,
        'local i = 0',
        'request = function()',
        '  if i < #paths then i = i + 1 end',
        '  return wrk.format(nil, paths[i])',
        'end',
        'response = function()',
        '  if i >= #paths then wrk.thread:stop() end',
        'end',
        '',
      ].join('\n');
    }
    if (request.rotate) {
      lua += [
        `local paths = { ${request.rotate.map(luaString).join(', ')} }`,
        'local i = 0',
        'request = function()',
        '  i = i % #paths + 1',
        '  return wrk.format(nil, paths[i])',
        'end',
        '',
      ].join('\n');
    }
    if (opts.delayMs) lua += `delay = function() return ${Math.round(opts.delayMs)} end\n`;
    await fs.writeFile(script, lua);
    args.push('-s', script);
  }
  args.push(origin + request.path);
  try {
    const running = run('wrk', args, { maxBuffer: 1 << 20 });
    // SIGINT: wrk stops its connections and still prints its summary.
    const onStop = () => running.child.kill('SIGINT');
    if (opts.stop?.aborted) onStop();
    opts.stop?.addEventListener('abort', onStop, { once: true });
    const { stdout } = await running.finally(() => opts.stop?.removeEventListener('abort', onStop));
    const count = Number(/(\d+) requests in ([\d.]+)(\w+)/.exec(stdout)?.[1]);
    const seconds = duration(/\d+ requests in ([\d.]+\w+)/.exec(stdout)?.[1]) / 1000;
    const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0);
    const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
    const socketErrors = errors ? errors.slice(1).reduce((a, n) => a + Number(n), 0) : 0;
    const ok = opts.expectStatus < 300 ? count - non2xx : non2xx;
    return {
      rps: count / seconds,
      count,
      p50: duration(/^\s+50%\s+(\S+)/m.exec(stdout)?.[1]),
      p99: duration(/^\s+99%\s+(\S+)/m.exec(stdout)?.[1]),
      unexpected: count - ok + socketErrors,
    };
  } finally {
    if (script) await fs.rm(path.dirname(script), { recursive: true, force: true });
  }
}

async function loadAutocannon(origin: string, request: LoadRequest, opts: LoadOptions): Promise<LoadResult> {
  let latencies = new Float64Array(1 << 16);
  let n = 0;
  let unexpected = 0;
  const instance = autocannon({
    url: origin + request.path,
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
    ...(request.paths ? { requests: request.paths.map((p) => ({ path: p })), amount: request.paths.length } : {}),
    // autocannon goes round its request list on each connection.
    ...(request.rotate ? { requests: request.rotate.map((p) => ({ path: p })) } : {}),
    connections: opts.connections,
    duration: opts.seconds,
    timeout: 10,
    ...(opts.delayMs ? { overallRate: Math.max(1, Math.round((opts.connections * 1000) / opts.delayMs)) } : {}),
  });
  opts.stop?.addEventListener('abort', () => instance.stop(), { once: true });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    if (n === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[n++] = responseTime;
    if (statusCode !== opts.expectStatus) unexpected++;
  });
  const result = await instance;
  const sorted = latencies.subarray(0, n).sort();
  const at = (p: number) => (n === 0 ? Number.NaN : sorted[Math.min(n - 1, Math.ceil((p / 100) * n) - 1)]!);
  return { rps: n / result.duration, count: n, p50: at(50), p99: at(99), unexpected: unexpected + result.errors };
}
