/**
 * Child processes of a benchmark run: the real server (`server/index.ts`, exactly what `npm start`
 * runs), the bare node:http baseline, and helpers to read a child's memory from /proc.
 */
import { bundle, SERVER_BUNDLE } from '../../scripts/bundle-server.ts';
import { startScript, type StartScript } from '../../scripts/lib/start-script.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../server/config.ts';

export interface Child {
  name: string;
  url: string;
  proc: ChildProcess;
  /** Current and peak resident set size in bytes (/proc/<pid>/status VmRSS, VmHWM). */
  memory(): { rss: number; peak: number };
  /** CPU time the process has used so far (user + system), in seconds. */
  cpuSeconds(): number;
  send(message: unknown): Promise<unknown>;
  close(): Promise<void>;
}

/** VmRSS and VmHWM of a process, in bytes (0 when /proc is not available). */
export function procMemory(pid: number | undefined): { rss: number; peak: number } {
  if (pid === undefined) return { rss: 0, peak: 0 };
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

/**
 * Resident memory of a process and all its descendants (e.g. the build and the Pagefind binary
 * it drives), summed, in bytes, with the largest single process. 0 when /proc is not available.
 */
export function treeRss(rootPid: number): { total: number; largest: number; largestName: string } {
  const parent = new Map<number, number>();
  const name = new Map<number, string>();
  let entries: string[] = [];
  try { entries = fs.readdirSync('/proc'); } catch { return { total: 0, largest: 0, largestName: '' }; }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      parent.set(Number(e), Number(stat.slice(close + 2).split(' ')[1]));
      name.set(Number(e), stat.slice(stat.indexOf('(') + 1, close));
    } catch { /* gone meanwhile */ }
  }
  const tree = new Set([rootPid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, ppid] of parent) if (!tree.has(pid) && tree.has(ppid)) { tree.add(pid); grew = true; }
  }
  let total = 0;
  let largest = 0;
  let largestName = '';
  for (const pid of tree) {
    const { rss } = procMemory(pid);
    total += rss;
    if (rss > largest) { largest = rss; largestName = name.get(pid) ?? ''; }
  }
  return { total, largest, largestName };
}

/** Clock ticks per second of /proc/<pid>/stat (`getconf CLK_TCK`; 100 on Linux). */
const CLK_TCK = 100;

/** User + system CPU seconds of a process (NaN when /proc is not available). */
export function procCpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
  } catch {
    return Number.NaN;
  }
}

/**
 * Starts `node <nodeArgs> <entry>` (through tsx when `entry` is TypeScript) with an IPC channel
 * and waits for its `{ ready, url }` message (server/index.ts sends it once listening). Its
 * stderr is kept to explain a failure.
 */
export async function startChild(name: string, entry: string, env: Record<string, string>, nodeArgs: readonly string[] = [], timeoutMs = 120_000): Promise<Child> {
  const loader = entry.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const proc = spawn(process.execPath, [...nodeArgs, ...loader, entry], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-4000); });
  const pending = new Map<number, (value: unknown) => void>();
  let nextId = 1;
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => { proc.kill('SIGKILL'); reject(new Error(`${name} did not start within ${timeoutMs} ms\n${stderr}`)); }, timeoutMs);
    proc.on('message', (m: { ready?: boolean; url?: string; reply?: number; value?: unknown }) => {
      if (m.ready && m.url) { clearTimeout(timer); resolve(m.url); }
      if (m.reply !== undefined) { pending.get(m.reply)?.(m.value); pending.delete(m.reply); }
    });
    proc.once('exit', (code, signal) => { clearTimeout(timer); reject(new Error(`${name} exited (${code ?? signal}) before listening\n${stderr}`)); });
  });
  return {
    name,
    url,
    proc,
    memory: () => procMemory(proc.pid),
    cpuSeconds: () => procCpuSeconds(proc.pid),
    send(message) {
      const id = nextId++;
      return new Promise((resolve) => { pending.set(id, resolve); proc.send({ id, ...(message as object) }); });
    },
    async close() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
/**
 * The real server — the bundle `bundleServer` (scripts/bundle-server.ts) wrote, as `npm start`
 * does first — with the start script's environment and Node options, quiet, on an ephemeral loopback port. `nodeArgs` are added (e.g. `--cpu-prof --cpu-prof-dir=…`: a
 * profile is written when the server exits). `serve` replaces the start script's own environment
 * and options (the start-options section varies them).
 */
export function startServer(name: string, env: Record<string, string>, nodeArgs: readonly string[] = [], serve: StartScript = startScript()): Promise<Child> {
  return startChild(name, SERVER_BUNDLE, { ...serve.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env },
    [...serve.options, ...nodeArgs]);
}

/** The baseline runs compiled like the server (no tsx in either process). */
const BASELINE_BUNDLE = path.join(ROOT, 'var', 'bench', 'baseline-server.mjs');

export async function startBaseline(): Promise<Child> {
  await bundle(path.join(ROOT, 'bench', 'http', 'baseline-server.ts'), BASELINE_BUNDLE);
  return startChild('baseline', BASELINE_BUNDLE, {});
}
