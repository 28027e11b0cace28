/**
 * A pool of worker threads running one task module (see `serveTasks`), so the CPU-bound part of
 * the build — parsing and converting every page — uses every core instead of one.
 *
 * - `run(task)` resolves with the task's result; results come back in whatever order workers
 *   finish, so callers that need an order await them in that order (crawl.ts, validate.ts).
 * - A task that throws rejects with an Error carrying its message; the stage turns it into the
 *   usual BuildError naming stage and page. The pool itself goes on.
 * - A worker that dies (uncaught error, exit) breaks the pool: every pending and later task is
 *   rejected, and the other workers are stopped.
 * - `broadcast(task)` runs a task once in every worker, beside whatever each is doing (a stage
 *   ending a state each worker keeps).
 * - `close()` stops the workers; the pipeline calls it when the build ends, failed or not.
 * Workers are only referenced while they have work, so an idle pool never keeps Node alive.
 */
import os from 'node:os';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { compiledTaskModule } from './compile.ts';

export interface Pool<T, R> {
  readonly size: number;
  run(task: T): Promise<R>;
  broadcast(task: T): Promise<R[]>;
  close(): Promise<void>;
}

type Reply<R> = { id: number; ok: true; result: R } | { id: number; ok: false; error: string };

interface Pending<T, R> {
  id: number;
  task: T;
  resolve(value: R): void;
  reject(err: Error): void;
}

interface Slot<T, R> {
  worker: Worker;
  running: Map<number, Pending<T, R>>;
}

/** Tasks handed to one worker at a time: a second one waits in its queue, so it never idles between replies. */
const PER_WORKER = 2;

export function defaultPoolSize(): number {
  return Math.max(1, os.availableParallelism());
}

/** Starts `size` workers (default: one per core) running the task module `script` (compile.ts). */
export function createPool<T, R>(script: URL, options: { size?: number; resourceLimits?: ResourceLimits } = {}): Pool<T, R> {
  const size = options.size ?? defaultPoolSize();
  const entry = compiledTaskModule(script);
  const queue: Pending<T, R>[] = [];
  const slots: Slot<T, R>[] = [];
  let nextId = 0;
  let broken: Error | null = null;

  const fail = (err: Error) => {
    if (broken) return;
    broken = err;
    for (const slot of slots) {
      for (const p of slot.running.values()) p.reject(err);
      slot.running.clear();
      void slot.worker.terminate();
    }
    for (const p of queue.splice(0)) p.reject(err);
  };

  const dispatch = () => {
    while (queue.length > 0) {
      let best: Slot<T, R> | undefined;
      for (const slot of slots) if (slot.running.size < PER_WORKER && (!best || slot.running.size < best.running.size)) best = slot;
      if (!best) return;
      send(best, queue.shift()!);
    }
  };

  const send = (slot: Slot<T, R>, p: Pending<T, R>) => {
    if (slot.running.size === 0) slot.worker.ref();
    slot.running.set(p.id, p);
    slot.worker.postMessage({ id: p.id, task: p.task });
  };

  for (let i = 0; i < size; i++) {
    const worker = new Worker(entry, options.resourceLimits ? { resourceLimits: options.resourceLimits } : {});
    const slot: Slot<T, R> = { worker, running: new Map() };
    worker.unref();
    worker.on('message', (reply: Reply<R>) => {
      const p = slot.running.get(reply.id);
      if (!p) return;
      slot.running.delete(reply.id);
      if (slot.running.size === 0) worker.unref();
      if (reply.ok) p.resolve(reply.result);
      else p.reject(new Error(reply.error));
      dispatch();
    });
    worker.on('error', (err) => fail(new Error(`a build worker failed: ${err.message}`, { cause: err })));
    worker.on('exit', (code) => fail(new Error(`a build worker stopped (exit code ${code})`)));
    slots.push(slot);
  }

  return {
    size,
    run(task) {
      if (broken) return Promise.reject(broken);
      return new Promise<R>((resolve, reject) => {
        queue.push({ id: nextId++, task, resolve, reject });
        dispatch();
      });
    },
    broadcast(task) {
      if (broken) return Promise.reject(broken);
      return Promise.all(slots.map((slot) => new Promise<R>((resolve, reject) => send(slot, { id: nextId++, task, resolve, reject }))));
    },
    async close() {
      const error = new Error('the build worker pool was closed');
      const workers = slots.map((s) => s.worker);
      fail(broken ?? error);
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
