/**
 * The runner's side of scripts/lib/test-worker.ts: worker processes, each running one file at a
 * time, reused from file to file, as many as files are run at once. A worker that dies or hangs
 * fails the file it was running with what it printed, and is replaced for the next file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FileRequest, FileResult } from './test-worker.ts';

const WORKER = fileURLToPath(new URL('./test-worker.ts', import.meta.url));

export interface WorkerPoolOptions {
  /** Environment of the workers. */
  env: NodeJS.ProcessEnv;
  /** A file still running after this long is stopped and failed. */
  timeoutMs: number;
}

export interface PooledResult { output: string; code: number | null; cpuMs: number | null }

export interface WorkerPool {
  /** Runs `file` in an idle worker, with `env` set in the worker's environment first. */
  run(file: string, env?: Record<string, string>): Promise<PooledResult>;
  /** Lets the workers go; resolves once they have exited (and their CPU time is counted). */
  close(): Promise<void>;
}

interface Worker { proc: ChildProcess; stray: string }

export function createWorkerPool(options: WorkerPoolOptions): WorkerPool {
  const idle: Worker[] = [];
  const all = new Set<Worker>();

  const start = (): Worker => {
    const proc = spawn(process.execPath, ['--import', 'tsx', WORKER], {
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: options.env,
    });
    const worker: Worker = { proc, stray: '' };
    // What the worker writes past its capture (a native warning, a crash's last words).
    proc.stdout!.on('data', (chunk: Buffer) => { worker.stray += chunk.toString(); });
    proc.stderr!.on('data', (chunk: Buffer) => { worker.stray += chunk.toString(); });
    all.add(worker);
    proc.once('exit', () => all.delete(worker));
    return worker;
  };

  return {
    run(file, env = {}) {
      const worker = idle.pop() ?? start();
      const { proc } = worker;
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          worker.stray += `\n  TIMEOUT  still running after ${options.timeoutMs / 60_000} minutes: stopped\n`;
          proc.kill('SIGKILL');
        }, options.timeoutMs);
        const onMessage = (result: FileResult) => {
          finish();
          const output = result.output + worker.stray;
          worker.stray = '';
          idle.push(worker);
          resolve({ output, code: result.code, cpuMs: result.cpuMs });
        };
        const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
          finish();
          // Let the pipes give up what they still hold before the output is read.
          setImmediate(() => resolve({ output: `${worker.stray}\n  the worker process ended (${code ?? signal}) while this file ran\n`, code: code ?? 1, cpuMs: null }));
        };
        const finish = () => {
          clearTimeout(timer);
          proc.off('message', onMessage);
          proc.off('exit', onExit);
        };
        proc.on('message', onMessage);
        proc.once('exit', onExit);
        proc.send({ file, env } satisfies FileRequest);
      });
    },
    async close() {
      await Promise.all([...all].map((worker) => new Promise<void>((resolve) => {
        worker.proc.once('exit', () => resolve());
        if (worker.proc.connected) worker.proc.disconnect();
        else worker.proc.kill('SIGKILL');
      })));
    },
  };
}
