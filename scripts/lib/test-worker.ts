/**
 * A worker process of scripts/run-tests.ts: runs the uvu files it is sent, one after another, in
 * this one process, so they pay Node's and tsx's start, and the loading of the
 * modules they share, once per worker rather than once per file. Each file's
 * output is caught whole and sent back with its exit code and the CPU time it took.
 *
 * uvu queues the suites a file runs (its `test.run()`) while UVU_DEFER is set, and `exec` runs
 * and reports that queue: emptied before each file, it holds that file's suites alone.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ownCpuMs } from './cpu-time.ts';

/** A file to run, and the variables to set in this process's environment before (its tier's TEST_TIER). */
export interface FileRequest { file: string; env: Record<string, string> }
export interface FileResult { file: string; output: string; code: number; cpuMs: number | null }

declare global {
  var UVU_DEFER: number | undefined;
  var UVU_QUEUE: unknown[][];
  var UVU_INDEX: number | undefined;
}

globalThis.UVU_DEFER = 1;
const uvu = await import('uvu');

/** Routes this process's stdout and stderr into one string until the returned function is called. */
function capture(): () => string {
  let caught = '';
  const streams = [process.stdout, process.stderr] as const;
  const writes = streams.map((s) => s.write);
  for (const stream of streams) {
    stream.write = ((chunk: string | Uint8Array, encoding?: unknown, done?: unknown) => {
      caught += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
      const callback = typeof encoding === 'function' ? encoding : done;
      if (typeof callback === 'function') queueMicrotask(() => (callback as () => void)());
      return true;
    }) as typeof stream.write;
  }
  return () => {
    streams.forEach((s, i) => { s.write = writes[i]!; });
    return caught;
  };
}

/** Sets `env` in this process's environment; the returned function puts back what was there. */
function setEnv(env: Record<string, string>): () => void {
  const before = Object.keys(env).map((name) => [name, process.env[name]] as const);
  Object.assign(process.env, env);
  return () => {
    for (const [name, value] of before) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

async function runFile({ file, env }: FileRequest): Promise<FileResult> {
  const restoreEnv = setEnv(env);
  const cpuBefore = ownCpuMs();
  globalThis.UVU_QUEUE.length = 0;
  globalThis.UVU_QUEUE.push([null]);
  globalThis.UVU_INDEX = 0;
  process.exitCode = 0;
  const release = capture();
  let code: number;
  try {
    await import(pathToFileURL(path.resolve(file)).href);
    await uvu.exec();
    code = Number(process.exitCode ?? 0);
  } catch (err) {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    code = 1;
  }
  const output = release();
  restoreEnv();
  process.exitCode = 0;
  const cpuAfter = ownCpuMs();
  return { file, output, code, cpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore };
}

// One file at a time: the runner sends the next one when this one's result is in.
process.on('message', (request: FileRequest) => {
  void runFile(request).then((result) => process.send!(result));
});
process.on('disconnect', () => process.exit(process.exitCode ?? 0));
