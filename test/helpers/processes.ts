/**
 * This process's Pagefind children (Linux, /proc), for tests that check who starts and stops
 * them. A stopped process takes a moment to exit, then stays a zombie until the thread that
 * started it collects its exit (a thread that ended first never does).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Pids of this process's Pagefind children that have not exited (with `zombies`: or not been collected). */
export function pagefindChildren({ zombies = false } = {}): string[] {
  const pids: string[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let stat: string;
    try { stat = readFileSync(`/proc/${pid}/stat`, 'utf8'); } catch { continue; }
    const [, comm, state, ppid] = /^\d+ \((.*)\) (\S+) (\d+)/.exec(stat) ?? [];
    if (ppid === String(process.pid) && comm?.startsWith('pagefind') && (zombies || state !== 'Z')) pids.push(pid);
  }
  return pids;
}

/**
 * Whether every Pagefind child (but those in `except`) has exited within `timeoutMs` (with
 * `zombies`: been collected). An exit takes milliseconds on an idle machine, over a second on a
 * busy one (seen): the bound only keeps a process that never exits from hanging the test.
 */
export async function pagefindChildrenGone({ zombies = false, except = [] as string[], timeoutMs = 30_000 } = {}): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (pagefindChildren({ zombies }).some((pid) => !except.includes(pid))) {
    if (performance.now() > deadline) return false;
    await sleep(20);
  }
  return true;
}
