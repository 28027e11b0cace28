/**
 * `npm test`'s runner. Several uvu files run at once, and each file's output is printed whole
 * when it ends; the totals of every file close the run as uvu's do, then the time each tier and
 * the slowest files took. A file runs in a worker process that runs other files before and
 * after it (scripts/lib/test-worker.ts), so they share its start and the loading of
 * the modules they import; each file closes what it opens, and its servers, ports, Redis servers,
 * processes and browsers are its own.
 *
 *   node --import tsx scripts/run-tests.ts                       every tier
 *   node --import tsx scripts/run-tests.ts --tier unit           one tier (unit, server, e2e; test/tiers.ts)
 *   node --import tsx scripts/run-tests.ts test/server/mcp       the files under a folder
 *   node --import tsx scripts/run-tests.ts [dir] [pattern]       as uvu takes them
 *   --jobs N                                                     files at once (TEST_JOBS; default: cores + 1)
 *   --isolate                                                    every file in a process of its own
 *   --typecheck                                                  `npm run typecheck` too, as one more check
 *
 * The sample site is built once, before any file that may read it starts; unit files run while
 * it builds. The typecheck starts once it is built (both write Astro's generated types), and
 * files that run Astro in the project root wait for the typecheck to end. The e2e files start
 * first, as the longest; of the files that drive a browser one runs at a time (test/tiers.ts).
 *
 * A file fails the run when uvu counts a failure, when it exits without its totals, and when a
 * suite ran fewer tests than it has with no failure to show for it: uvu swallows an error thrown
 * in a `before` or `after` hook (its runner returns from a `finally`) and prints `(0 / 6)`.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { alone, astroInRoot, oneAtATime, tierOf, TIERS, type Tier } from '../test/tiers.ts';
import { ownCpuMs } from './lib/cpu-time.ts';
import { createWorkerPool, type WorkerPool } from './lib/test-worker-pool.ts';

const SUITE_FILE = /\.(?:test|spec)\.[cm]?[jt]s$/;
const COUNT = /\((\d+) \/ (\d+)\)\s*$/;
// eslint-disable-next-line no-control-regex
const COLOUR = /\x1b\[[0-9;]*m/g;
/** A file still running after this long is stopped and failed: CI must end. */
const FILE_TIMEOUT_MS = 20 * 60_000;

/** Suites of uvu's output that ran fewer tests than they have, beyond the ones that failed. */
export function lostSuites(output: string): { file: string; lost: number }[] {
  const lines = output.replace(COLOUR, '').split('\n');
  const lost: { file: string; lost: number }[] = [];
  let file = '(unnamed suite)';
  for (const line of lines) {
    if (SUITE_FILE.test(line.trim())) { file = line.trim(); continue; }
    const count = COUNT.exec(line);
    if (!count) continue;
    const missing = Number(count[2]) - Number(count[1]) - (line.match(/✘/g)?.length ?? 0);
    if (missing > 0) lost.push({ file, lost: missing });
  }
  return lost;
}

interface Totals { total: number; passed: number; skipped: number }

/** uvu's closing counts of one file's output, or null when it ended without them. */
export function totalsOf(output: string): Totals | null {
  const clean = output.replace(COLOUR, '');
  const read = (name: string) => {
    const m = new RegExp(`^\\s*${name}:\\s+(\\d+)`, 'm').exec(clean);
    return m ? Number(m[1]) : null;
  };
  const total = read('Total');
  const passed = read('Passed');
  if (total === null || passed === null) return null;
  return { total, passed, skipped: read('Skipped') ?? 0 };
}

export interface Options {
  dir: string;
  pattern: RegExp;
  tiers: readonly Tier[];
  jobs: number;
  /** Each file in a process of its own, as the e2e files. */
  isolate: boolean;
  /** `npm run typecheck` beside the files, reported as one check. */
  typecheck: boolean;
}

export function parseArgs(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Options {
  const positional: string[] = [];
  let tiers: Tier[] = [...TIERS];
  let jobs = Number(env.TEST_JOBS) || os.availableParallelism() + 1;
  let isolate = false;
  let typecheck = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--tier') {
      const named = (args[++i] ?? '').split(',');
      for (const t of named) if (!TIERS.includes(t as Tier)) throw new Error(`--tier takes ${TIERS.join(', ')}; got "${t}"`);
      tiers = named as Tier[];
    } else if (arg === '--isolate') {
      isolate = true;
    } else if (arg === '--typecheck') {
      typecheck = true;
    } else if (arg === '--jobs') {
      jobs = Number(args[++i]);
      if (!Number.isInteger(jobs) || jobs < 1) throw new Error('--jobs takes a whole number ≥ 1');
    } else {
      positional.push(arg);
    }
  }
  const [dir = 'test', pattern = '\\.test\\.ts$'] = positional;
  return { dir, pattern: new RegExp(pattern), tiers, jobs, isolate, typecheck };
}

/** The files to run, from the project root, in a stable order. */
export function filesOf({ dir, pattern, tiers }: Pick<Options, 'dir' | 'pattern' | 'tiers'>): string[] {
  const root = path.resolve(dir);
  if (fs.statSync(root).isFile()) return [path.relative('.', root).split(path.sep).join('/')];
  const found: string[] = [];
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const rel = path.relative(root, full).split(path.sep).join('/');
    if (rel.split('/').includes('node_modules') || !pattern.test(rel)) continue;
    found.push(path.relative('.', full).split(path.sep).join('/'));
  }
  return found.filter((f) => tiers.includes(tierOf(f))).sort();
}

interface Result {
  file: string;
  output: string;
  code: number | null;
  totals: Totals | null;
  lost: { file: string; lost: number }[];
  wallMs: number;
  /** CPU time of the file's process and the processes it waited for; null where unknown. */
  cpuMs: number | null;
}

const CPU_ON_EXIT = new URL('./lib/cpu-on-exit.ts', import.meta.url).href;

const resultOf = (file: string, output: string, code: number | null, started: number, cpuMs: number | null): Result =>
  ({ file, output, code, totals: totalsOf(output), lost: lostSuites(output), wallMs: Date.now() - started, cpuMs });

async function runPooled(pool: WorkerPool, file: string): Promise<Result> {
  const started = Date.now();
  const r = await pool.run(file, { TEST_TIER: tierOf(file) });
  return resultOf(file, `${file}\n${r.output}`, r.code, started, r.cpuMs);
}

/** The typecheck's name in the run's output and time report. */
export const TYPECHECK = 'npm run typecheck';

/** A Node process running `args` after the CPU-time preload, reported under `name`. */
function runNode(name: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<Result> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, ['--import', CPU_ON_EXIT, ...args], {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      env: { ...process.env, ...env, TEST_CPU_FD: '3' },
    });
    let output = `${name}\n`;
    let cpu = '';
    child.stdout!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => { cpu += chunk.toString(); });
    const timer = setTimeout(() => {
      output += `\n  TIMEOUT  still running after ${FILE_TIMEOUT_MS / 60_000} minutes: stopped\n`;
      child.kill('SIGKILL');
    }, FILE_TIMEOUT_MS);
    child.once('error', (err) => { output += `\n  ${err.message}\n`; });
    child.once('close', (code) => {
      clearTimeout(timer);
      const cpuMs = cpu.trim() === '' ? null : Number(cpu);
      resolve(resultOf(name, output, code, started, cpuMs));
    });
  });
}

const runFile = (file: string) => runNode(file, ['--import', 'tsx', file], { TEST_TIER: tierOf(file) });

/**
 * A command run as one check, reported under `name`: passing, it counts one test passed; failing,
 * one failed. It runs under a Node process so that its CPU time is counted as a file's is.
 */
export async function runCheck(name: string, command: readonly string[]): Promise<Result> {
  const r = await runNode(name, ['-e', `
    const [cmd, ...args] = ${JSON.stringify(command)};
    const r = require('node:child_process').spawnSync(cmd, args, { stdio: 'inherit' });
    process.exitCode = r.status ?? 1;`], {});
  const passed = r.code === 0 ? 1 : 0;
  return { ...r, output: `${r.output}  ${passed ? 'passed' : 'FAILED: see above'}\n`, totals: { total: 1, passed, skipped: 0 } };
}

const runTypecheck = () => runCheck(TYPECHECK, ['npm', 'run', '--silent', 'typecheck']);

const seconds = (ms: number | null) => (ms === null ? '    ?' : `${(ms / 1000).toFixed(1)}s`.padStart(7));

/** The time summary: per tier, then the slowest files, wall and CPU time each. */
export function timeReport(results: readonly Pick<Result, 'file' | 'wallMs' | 'cpuMs'>[], slowest = 12): string {
  let out = '\n  Time by tier (wall time summed over files, CPU time):\n';
  for (const tier of TIERS) {
    const of = results.filter((r) => r.file !== TYPECHECK && tierOf(r.file) === tier);
    if (of.length === 0) continue;
    const cpu = of.some((r) => r.cpuMs === null) ? null : of.reduce((a, r) => a + r.cpuMs!, 0);
    out += `    ${tier.padEnd(7)} ${String(of.length).padStart(3)} files ${seconds(of.reduce((a, r) => a + r.wallMs, 0))} ${seconds(cpu)}\n`;
  }
  const typecheck = results.find((r) => r.file === TYPECHECK);
  if (typecheck) out += `    typecheck         ${seconds(typecheck.wallMs)} ${seconds(typecheck.cpuMs)}\n`;
  out += `\n  Slowest files (wall, CPU):\n`;
  for (const r of [...results].sort((a, b) => b.wallMs - a.wallMs).slice(0, slowest)) {
    out += `    ${seconds(r.wallMs)} ${seconds(r.cpuMs)}  ${r.file}\n`;
  }
  return out;
}

const failed = (r: Result) => r.code !== 0 || r.totals === null || r.totals.passed + r.totals.skipped < r.totals.total || r.lost.length > 0;

/** The order files are started in: the typecheck, the browser files, since they run one after another, then the other e2e files, the longest; the rest fill the places around them. */
export function runOrder(files: readonly string[], typecheck: boolean): string[] {
  const rank = (f: string) => (f === TYPECHECK ? 0 : oneAtATime(f) ? 1 : tierOf(f) === 'e2e' ? 2 : 3);
  return [...(typecheck ? [TYPECHECK] : []), ...files].sort((a, b) => rank(a) - rank(b));
}

/**
 * The index in `queue` of the next file to start, or -1 to wait for one to end: unit files from
 * the start, the others once the sample site is built; one browser file at a time; an `alone`
 * file only with nothing else running, and nothing beside it; a file that runs Astro in the
 * project root only once the typecheck has ended.
 */
export function nextToStart(queue: readonly string[], running: readonly string[], { jobs, siteReady }: { jobs: number; siteReady: boolean }): number {
  if (running.length >= jobs || running.some(alone)) return -1;
  const browserRunning = running.some(oneAtATime);
  const typecheckPending = queue.includes(TYPECHECK) || running.includes(TYPECHECK);
  return queue.findIndex((f) =>
    (siteReady || (f !== TYPECHECK && tierOf(f) === 'unit'))
    && !(browserRunning && oneAtATime(f))
    && !(astroInRoot(f) && typecheckPending)
    && (!alone(f) || running.length === 0));
}

export interface Schedule {
  jobs: number;
  isolate: boolean;
  typecheck: boolean;
  /** Resolves once the sample site is built; null when no file needs it. */
  site: Promise<unknown> | null;
}

/** Runs `files` in `runOrder` as `nextToStart` allows, calling `done` as each ends. */
export async function runAll(files: readonly string[], { jobs, isolate, typecheck, site }: Schedule, done: (r: Result) => void): Promise<Result[]> {
  const pool = createWorkerPool({ env: process.env, timeoutMs: FILE_TIMEOUT_MS });
  const queue = runOrder(files, typecheck);
  const results: Result[] = [];
  let siteReady = site === null;
  let siteError: unknown;
  let wake: (() => void) | null = null;
  site?.then(() => { siteReady = true; }, (err: unknown) => { siteError = err ?? new Error('failed'); }).finally(() => wake?.());
  const running = new Map<string, Promise<void>>();
  const finish = (r: Result) => {
    results.push(r);
    done(r);
  };
  while (queue.length > 0 || running.size > 0) {
    if (siteError !== undefined) {
      // Every file still waiting for the site fails with the build's error.
      for (const f of queue.filter((f) => f === TYPECHECK || tierOf(f) !== 'unit')) {
        queue.splice(queue.indexOf(f), 1);
        finish(resultOf(f, `${f}\n  the sample site did not build: ${String(siteError)}\n`, 1, Date.now(), 0));
      }
    }
    const next = nextToStart(queue, [...running.keys()], { jobs, siteReady });
    if (next < 0) {
      if (queue.length === 0 && running.size === 0) break;
      await new Promise<void>((resolve) => { wake = resolve; });
      continue;
    }
    const [file] = queue.splice(next, 1) as [string];
    const run = file === TYPECHECK ? runTypecheck() : isolate ? runFile(file) : runPooled(pool, file);
    running.set(file, run.then((r) => {
      running.delete(file);
      finish(r);
      wake?.();
    }));
  }
  await pool.close();
  return results;
}

async function main(args: string[]): Promise<number> {
  const options = parseArgs(args);
  const files = filesOf(options);
  const started = Date.now();
  if (files.length === 0) {
    process.stdout.write('No test file matches.\n');
    return 1;
  }
  process.stdout.write(`${files.length} test files${options.typecheck ? ' and the typecheck' : ''}, ${options.jobs} at once\n`);
  // Built here once, so the files that read the sample site do not build it side by side.
  const site = options.typecheck || files.some((f) => tierOf(f) !== 'unit' && !f.includes('/fixtures/'))
    ? import('../test/helpers/built-site.ts').then(({ builtReadModel }) => builtReadModel())
    : null;
  const results = await runAll(files, { ...options, site }, (r) => {
    process.stdout.write(`\n${r.output}${failed(r) && r.totals === null ? `\n  ENDED WITHOUT TOTALS (exit ${r.code})\n` : ''}`);
  });

  const sum = results.reduce((a, r) => {
    // A file that ended without its totals counts as one failed test.
    const t = r.totals ?? { total: 1, passed: 0, skipped: 0 };
    return { total: a.total + t.total, passed: a.passed + t.passed, skipped: a.skipped + t.skipped };
  }, { total: 0, passed: 0, skipped: 0 });
  const failures = results.filter(failed);
  for (const r of results) {
    for (const s of r.lost) {
      process.stdout.write(`\n  LOST  ${s.lost} test(s) of ${s.file} never ran: a before/after hook failed (uvu does not report it).\n`);
    }
  }
  process.stdout.write(timeReport(results));
  const cpu = ownCpuMs();
  if (cpu !== null) process.stdout.write(`    CPU time of the whole run: ${seconds(cpu).trim()} (this runner, the sample-site build, every file)\n`);
  if (failures.length > 0) {
    process.stdout.write('\n  Failed files (run one alone: node --import tsx <file>):\n');
    for (const r of failures.sort((a, b) => a.file.localeCompare(b.file))) process.stdout.write(`    ${r.file}\n`);
  }
  process.stdout.write(`\n  Total:     ${sum.total}\n  Passed:    ${sum.passed}\n  Skipped:   ${sum.skipped}\n  Duration:  ${Date.now() - started}ms\n\n`);
  return failures.length > 0 ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await main(process.argv.slice(2));
