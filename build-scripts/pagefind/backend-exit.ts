/**
 * Pagefind's Node API kills its backend process on `close()` without waiting for it to exit (its
 * ChildProcess is not exposed). In a build worker that ends right after, the exit is never
 * collected and the process stays a zombie of the build for as long as the build runs (seen on
 * a busy machine). The backends this thread starts are noted as they are spawned, so closing can
 * wait for their exit. Each worker thread has its own module instances, so the note is per thread.
 */
import childProcess, { type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';

const running = new Set<ChildProcess>();
const spawn = childProcess.spawn;
const isPagefind = (command: unknown) => typeof command === 'string' && path.basename(command).startsWith('pagefind');

childProcess.spawn = function watchedSpawn(this: unknown, ...args: unknown[]): ChildProcess {
  const child = (spawn as (...a: unknown[]) => ChildProcess).apply(this, args);
  if (isPagefind(args[0])) {
    running.add(child);
    child.once('exit', () => running.delete(child));
  }
  return child;
} as typeof childProcess.spawn;

/** Resolves once every Pagefind backend this thread started has exited and been collected. */
export async function backendsExited(): Promise<void> {
  await Promise.all([...running].map((child) => {
    if (child.exitCode !== null || child.signalCode !== null) return undefined;
    // Pagefind unrefs its process; waiting for the exit must keep this thread's loop alive.
    child.ref();
    return once(child, 'exit');
  }));
}
