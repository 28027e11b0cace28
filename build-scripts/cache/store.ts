/**
 * The folders of what builds keep for the next (page reads, compressed siblings): entries named by
 * a hex key, sharded by its first two characters, under a folder per code version
 * (code-version.ts). A build writes the entries it makes into its staging folder; they join the
 * cache only once the build is about to be published, so a failed build leaves the cache as it was.
 * After publishing, the entries no page of the build used are pruned.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Entries of one kind: read from `dir`, made into `newDir`. */
export interface CacheFolders {
  dir: string;
  newDir: string;
}

/** The file of `key`'s entry in `dir`, with `ext` (`.json`, `.br`). */
export const entryFile = (dir: string, key: string, ext: string): string => path.join(dir, key.slice(0, 2), key.slice(2) + ext);

/**
 * The JSON entry of `key` in `dir` through `parse` (a schema's): undefined when there is none,
 * 'damaged' when it cannot be read back.
 */
export function loadJsonEntry<T>(dir: string, key: string, parse: (value: unknown) => T): T | undefined | 'damaged' {
  let text: string;
  try {
    text = fs.readFileSync(entryFile(dir, key, '.json'), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    return parse(JSON.parse(text));
  } catch {
    return 'damaged';
  }
}

/** Writes an entry whole or not at all: a build stopped midway leaves no half entry. */
export function writeEntry(file: string, data: string | Uint8Array): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, file);
}

/**
 * The folder of this code version's entries under `root`, other versions' removed (they can never
 * match again); emptied first for a full build. Says in a line why every entry is made afresh.
 */
export function versionFolder(root: string, version: string, opts: { full: boolean; what: string; log(line: string): void }): string {
  const dir = path.join(root, version);
  const others = fs.existsSync(root) ? fs.readdirSync(root).filter((name) => name !== version) : [];
  for (const name of others) fs.rmSync(path.join(root, name), { recursive: true, force: true });
  if (opts.full) {
    fs.rmSync(dir, { recursive: true, force: true });
    opts.log(`cache: full build, ${opts.what} afresh`);
  } else if (!fs.existsSync(dir)) {
    opts.log(`cache: ${others.length ? 'the build code changed' : 'none yet'}, ${opts.what} afresh`);
  }
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** Moves the entries a build made (`from`) into the cache (`dir`), replacing any there, and removes `from`. */
export function adoptEntries({ dir, newDir: from }: CacheFolders): void {
  if (!fs.existsSync(from)) return;
  for (const shard of fs.readdirSync(from)) {
    fs.mkdirSync(path.join(dir, shard), { recursive: true });
    for (const name of fs.readdirSync(path.join(from, shard))) fs.renameSync(path.join(from, shard, name), path.join(dir, shard, name));
  }
  fs.rmSync(from, { recursive: true, force: true });
}

/** Removes every file of `dir` but the entries of `keep`'s keys, so also what an interrupted write left; returns how many went. */
export function pruneEntries(dir: string, keep: ReadonlySet<string>): number {
  let removed = 0;
  let shards: string[];
  try {
    shards = fs.readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  for (const shard of shards) {
    for (const name of fs.readdirSync(path.join(dir, shard))) {
      if (!name.endsWith('.tmp') && keep.has(shard + name.slice(0, name.indexOf('.')))) continue;
      fs.rmSync(path.join(dir, shard, name), { force: true });
      removed++;
    }
  }
  return removed;
}
