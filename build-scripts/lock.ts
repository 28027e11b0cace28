/**
 * One build at a time per read-model folder: two builds publishing at once would prune each
 * other's output. The lock file holds the owner's pid; a lock left by a dead process is taken over.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { LOCK_FILE, lockOwner } from '../server/read-model/build-lock.ts';
import { BuildError } from './errors.ts';

export async function acquireLock(outDir: string): Promise<() => Promise<void>> {
  const file = path.join(outDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await fs.writeFile(file, String(process.pid), { flag: 'wx' });
      return () => fs.rm(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = lockOwner(outDir);
      if (owner !== null) {
        throw new BuildError('start', undefined, `another build (pid ${owner}) is writing ${outDir}`);
      }
      await fs.rm(file, { force: true });
    }
  }
  throw new BuildError('start', undefined, `cannot take the build lock ${file}`);
}
