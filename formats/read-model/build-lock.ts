/**
 * The lock a build holds on its read-model folder (build-scripts/lock.ts takes it): a file
 * holding the owner's pid, created whole (linked into place with its pid already written), so a
 * reader never sees it empty. Read here too, so a server starting while another process builds
 * waits for that build instead of starting a second one (ensure-built.ts).
 */
import fs from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = '.build.lock';
/** A lock file without a pid in it counts as held for this long (a writer of another kind), then as left behind. */
const UNREADABLE_GRACE_MS = 10_000;
/** lockOwner's answer for a held lock whose pid cannot be read. */
export const UNKNOWN_OWNER = 0;

/** A lock owner as messages name it. */
export const ownerName = (owner: number): string => (owner === UNKNOWN_OWNER ? 'starting' : `pid ${owner}`);

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid written in a lock file, or null when there is none to read. */
export function pidIn(file: string): number | null {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8'));
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * The pid of a live process holding the build lock of `dir`; UNKNOWN_OWNER for a fresh lock
 * file whose pid cannot be read; null when there is none, or it was left by a dead process.
 */
export function lockOwner(dir: string): number | null {
  const file = path.join(dir, LOCK_FILE);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return null;
  }
  const owner = pidIn(file);
  if (owner === null) return Date.now() - stat.mtimeMs < UNREADABLE_GRACE_MS ? UNKNOWN_OWNER : null;
  return owner !== process.pid && isAlive(owner) ? owner : null;
}

/**
 * The lock of `dir` is there and its owner is gone. Such a file is removed by a take-over only,
 * so it is still the same file when the take-over removes it; a lock that is absent or changing
 * hands is not left behind (its remover would delete the next owner's).
 */
export function leftBehind(dir: string): boolean {
  const file = path.join(dir, LOCK_FILE);
  const pid = pidIn(file);
  if (pid !== null) return pid !== process.pid && !isAlive(pid);
  let before: fs.Stats;
  let after: fs.Stats;
  try {
    before = fs.statSync(file);
    if (pidIn(file) !== null) return false;
    after = fs.statSync(file);
  } catch {
    return false;
  }
  // The same file with no pid in it throughout: written by another kind of writer, or never finished.
  return before.ino === after.ino && Date.now() - after.mtimeMs >= UNREADABLE_GRACE_MS;
}
