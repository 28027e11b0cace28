/**
 * One build at a time per read-model folder: two builds publishing at once would prune each
 * other's output, and one's astro stage would replace the site another is copying. The lock file
 * holds the owner's pid and appears with it (a link of a file written first). A lock left by a
 * dead process is removed under a second lock, the take-over's, so that a taker never removes a
 * lock another process has just taken.
 */
import fs from 'node:fs/promises';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { leftBehind, LOCK_FILE, lockOwner, ownerName, pidIn } from '../formats/read-model/build-lock.ts';
import { BuildError } from './errors.ts';

const ATTEMPTS = 5;
/** A take-over lock older than this was left by a taker that died. */
const TAKE_OVER_STALE_MS = 10_000;

const held = (outDir: string, owner: number) =>
  new BuildError('start', undefined, `another build (${ownerName(owner)}) is writing ${outDir}`);

const exists = (err: unknown) => (err as NodeJS.ErrnoException).code === 'EEXIST';

export async function acquireLock(outDir: string): Promise<() => Promise<void>> {
  const file = path.join(outDir, LOCK_FILE);
  const mine = `${file}.${process.pid}`;
  await fs.writeFile(mine, String(process.pid));
  try {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      try {
        await fs.link(mine, file);
        return async () => {
          if (pidIn(file) === process.pid) await fs.rm(file, { force: true });
        };
      } catch (err) {
        if (!exists(err)) throw err;
      }
      const owner = lockOwner(outDir);
      if (owner !== null) throw held(outDir, owner);
      // Released meanwhile, or left by a dead process: removed, then taken as any free lock.
      if (existsSync(file)) await takeOver(outDir, file, mine);
    }
    throw new BuildError('start', undefined, `cannot take the build lock ${file}`);
  } finally {
    await fs.rm(mine, { force: true });
  }
}

/** Removes a dead owner's lock, holding the take-over lock meanwhile; another taker's turn is left to it. */
async function takeOver(outDir: string, file: string, mine: string): Promise<void> {
  const guard = `${file}.take-over`;
  try {
    await fs.link(mine, guard);
  } catch (err) {
    if (!exists(err)) throw err;
    try {
      if (Date.now() - statSync(guard).mtimeMs > TAKE_OVER_STALE_MS) await fs.rm(guard, { force: true });
    } catch { /* gone meanwhile */ }
    await new Promise((resolve) => setTimeout(resolve, 10));
    return;
  }
  try {
    // While the guard is held, a lock that is there and dead can only be the dead owner's.
    if (leftBehind(outDir)) await fs.rm(file, { force: true });
  } finally {
    await fs.rm(guard, { force: true });
  }
}
