/**
 * A private redis-server for a test file or a benchmark run: random free port, nothing on disk.
 * Fails loudly when redis-server is missing or does not start, never falls back to the machine's
 * Redis on 6379.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { freePort } from './port.ts';

export interface RedisServer {
  url: string;
  port: number;
  /** Stops the server (as an outage would); `start()` brings it back on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const sock = net.connect(port, '127.0.0.1');
      sock.once('connect', () => { sock.end(); resolve(); });
      sock.once('error', () => {
        sock.destroy();
        if (Date.now() > deadline) reject(new Error(`redis-server did not listen on ${port} within ${timeoutMs} ms`));
        else setTimeout(attempt, 25);
      });
    };
    attempt();
  });
}

export interface RedisOptions {
  /** A configuration file, read first (a sentinel needs one it can rewrite). */
  configFile?: string;
  /** More arguments: `--cluster-enabled yes`, `--replicaof …`, `--sentinel`… */
  args?: string[];
}

export async function startRedisServer(options: RedisOptions = {}): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | null = null;

  const start = async () => {
    const proc = spawn('redis-server', [
      ...(options.configFile ? [options.configFile] : []),
      '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no',
      '--protected-mode', 'no', '--loglevel', 'warning', ...(options.args ?? []),
    ], { stdio: ['ignore', 'ignore', 'pipe'] });
    const failed = new Promise<never>((_, reject) => {
      proc.once('error', (e) => reject(new Error(`cannot start redis-server (is it installed?): ${e.message}`)));
      proc.once('exit', (code) => reject(new Error(`redis-server exited with code ${code} before listening`)));
    });
    failed.catch(() => {});
    // A test that dies before its `finally` must not leave its servers behind.
    const orphaned = () => proc.kill('SIGKILL');
    process.once('exit', orphaned);
    proc.once('exit', () => process.off('exit', orphaned));
    // Listening takes milliseconds; the bound is for a server that never does, on a busy machine.
    await Promise.race([waitForPort(port, 30_000), failed]);
    child = proc;
  };

  const stop = async () => {
    const proc = child;
    child = null;
    if (!proc || proc.exitCode !== null) return;
    await new Promise<void>((resolve) => { proc.once('exit', () => resolve()); proc.kill('SIGKILL'); });
  };

  await start();
  return { url: `redis://127.0.0.1:${port}`, port, stop, start, close: stop };
}
