/**
 * Real server processes for the reliability tests: the server as `npm start` runs it (bundled,
 * see test/helpers/server-command.ts), each on an ephemeral loopback port, reporting readiness
 * over IPC. Their stderr (the JSON log lines) is kept so tests can assert what was logged and
 * that nothing crashed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../../../server/config.ts';
import { sharedReadModel } from '../../helpers/read-model.ts';
import { serverCommand } from '../../helpers/server-command.ts';

export interface Exit { code: number | null; signal: NodeJS.Signals | null }

export interface ServerProcess {
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  pid: number;
  child: ChildProcess;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** The JSON log lines so far. */
  logs(): Array<{ level: string; msg: string; [k: string]: unknown }>;
  /** Resolves when a log line whose message matches appears (also one already written). */
  waitForLog(msg: RegExp, timeoutMs?: number): Promise<void>;
  /** Resolves when the process exits. */
  exited: Promise<Exit>;
  alive(): boolean;
  /** SIGTERM, then SIGKILL after `killAfterMs`; resolves with the exit. */
  stop(killAfterMs?: number): Promise<Exit>;
}

/** Environment every test server gets; tests add theirs on top. */
export function serverEnv(extra: Record<string, string>): Record<string, string> {
  return {
    PORT: '0',
    HOST: '127.0.0.1',
    // Reached at 127.0.0.1, which a fixture's SITE_URL does not name (server/net/host.ts).
    ALLOWED_HOSTS: '127.0.0.1',
    LOG_LEVEL: 'info',
    RATE_LIMIT_ANONYMOUS: '',
    RATE_LIMIT_IDENTIFIED: '',
    RATE_LIMIT_WINDOW: '',
    TRUST_PROXY: '',
    KEY_PREFIX: '',
    REDIS_URL: '',
    REDIS_CLUSTER_NODES: '',
    REDIS_SENTINELS: '',
    REDIS_SENTINEL_NAME: '',
    READ_MODEL_WATCH: '',
    ...extra,
  };
}

/**
 * A server process. `descriptorLimit` starts it under `ulimit -n` in a shell that then execs Node,
 * so the process (and nothing else) has that many file descriptors.
 */
export async function startServerProcess(env: Record<string, string>, startTimeoutMs = 30_000, descriptorLimit?: number): Promise<ServerProcess> {
  const command = [process.execPath, ...await serverCommand()];
  const [file, args] = descriptorLimit === undefined
    ? [command[0]!, command.slice(1)]
    : ['/bin/sh', ['-c', `ulimit -n ${descriptorLimit} && exec "$0" "$@"`, ...command]];
  const child = spawn(file, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  const waiters = new Set<() => void>();
  child.stderr!.on('data', (c: Buffer) => {
    stderr += c.toString();
    for (const w of waiters) w();
  });
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const logs = () => stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => {
    try { return JSON.parse(l); } catch { return { level: 'raw', msg: l }; }
  });
  const alive = () => child.exitCode === null && child.signalCode === null;

  const proc = (url: string): ServerProcess => ({
    url,
    port: Number(new URL(url).port),
    pid: child.pid!,
    child,
    stderr: () => stderr,
    logs,
    exited,
    alive,
    waitForLog(msg, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!logs().some((l) => msg.test(l.msg))) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no log line matching ${msg} within ${timeoutMs} ms; stderr:\n${stderr.slice(-2000)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async stop(killAfterMs = 15_000) {
      if (!alive()) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      const exit = await exited;
      clearTimeout(timer);
      return exit;
    },
  });

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`server did not start in ${startTimeoutMs} ms: ${stderr}`)); }, startTimeoutMs);
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited with ${code} before it was ready: ${stderr}`)); });
    child.on('message', (m: { ready?: boolean; url?: string }) => {
      if (m.ready && m.url) { clearTimeout(timer); resolve(proc(m.url)); }
    });
  });
}

/** Starts `n` processes with the same environment. */
export async function startServers(n: number, env: Record<string, string>): Promise<ServerProcess[]> {
  return Promise.all(Array.from({ length: n }, () => startServerProcess(env)));
}

/** Stops every process (SIGTERM) and returns their exits, in order. */
export function stopAll(servers: readonly ServerProcess[]): Promise<Exit[]> {
  return Promise.all(servers.map((s) => s.stop()));
}

/**
 * `npm start` builds first when the site is missing; a stub site (one page) is enough for tests
 * of the API, OAuth and MCP.
 */
export async function stubSite(): Promise<{ distDir: string; remove(): Promise<void> }> {
  const distDir = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-dist-'));
  await fs.mkdir(path.join(distDir, 'client'));
  await fs.writeFile(path.join(distDir, 'client', 'index.html'), '<!doctype html><html lang="es"><title>stub</title></html>');
  return { distDir, remove: () => fs.rm(distDir, { recursive: true, force: true }) };
}

/**
 * `n` processes serving the shared read-model fixture (beside a stub site) with `env` (the
 * caller's REDIS_URL among it). `close` stops them and removes the site.
 */
export async function startFixtureServers(n: number, env: Record<string, string>): Promise<{ servers: ServerProcess[]; close(): Promise<void> }> {
  const fixture = await sharedReadModel();
  const site = await stubSite();
  try {
    const servers = await startServers(n, serverEnv({ SITE_URL: fixture.siteUrl, READ_MODEL_DIR: fixture.dir, DIST_DIR: site.distDir, ...env }));
    return { servers, close: async () => { await stopAll(servers); await site.remove(); } };
  } catch (err) {
    await site.remove();
    throw err;
  }
}
