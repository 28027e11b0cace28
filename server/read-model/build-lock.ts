/**
 * The lock a build holds on its read-model folder (build-scripts/lock.ts takes it): a file
 * holding the owner's pid. Read here too, so a server starting while another process builds
 * waits for that build instead of starting a second one (ensure-built.ts).
 */
import fs from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = '.build.lock';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid of a live process holding the build lock of `dir`, or null (none, or left by a dead one). */
export function lockOwner(dir: string): number | null {
  let owner: number;
  try {
    owner = Number(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8'));
  } catch {
    return null;
  }
  return Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner) ? owner : null;
}
