/** Small file helpers the stages share. */
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';

/**
 * Everything under `dir` (recursive). Synchronous: the promise API takes a round trip to libuv's
 * pool per folder, and this runs at the start of the build, when nothing
 * else can run.
 */
export function listEntries(dir: string): fsSync.Dirent[] {
  return fsSync.readdirSync(dir, { withFileTypes: true, recursive: true });
}

/** The files of `entries`, a listing of `dir`, as absolute paths, skipping dot-folders. */
export function listFiles(dir: string, entries: readonly fsSync.Dirent[]): string[] {
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .filter((file) => !path.relative(dir, file).split(path.sep).some((part) => part.startsWith('.')));
}

export async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

/** Staging folders (and the files beside them) of crashed builds older than this are removed; younger ones may be running. */
const STALE_STAGING_MS = 60 * 60 * 1000;

/**
 * In `root`, a folder of builds (or of their bundles) named by build ids, which sort by time:
 * removes those beyond the newest `keepNewest`, never one of `protect`, and stale `.staging-`
 * entries. Returns the ids removed.
 */
export async function pruneNewest(root: string, keepNewest: number, protect: readonly (string | null)[]): Promise<string[]> {
  const entries = await fs.readdir(root, { withFileTypes: true });
  const ids = entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name).sort();
  const keep = new Set([...ids.slice(-keepNewest), ...protect.filter((id): id is string => id !== null)]);
  const removed = ids.filter((id) => !keep.has(id));
  for (const id of removed) await fs.rm(path.join(root, id), { recursive: true, force: true });
  for (const e of entries) {
    if (!e.name.startsWith('.staging-')) continue;
    const stat = await fs.stat(path.join(root, e.name)).catch(() => null);
    if (stat && Date.now() - stat.mtimeMs > STALE_STAGING_MS) await fs.rm(path.join(root, e.name), { recursive: true, force: true });
  }
  return removed;
}

/** The bytes of `file`, or undefined when there is no such file. */
export async function readIfExists(file: string): Promise<Buffer | undefined> {
  try {
    return await fs.readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

export async function writeJson(file: string, value: unknown): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, JSON.stringify(value) + '\n');
}

export async function readJson(file: string): Promise<unknown> {
  return JSON.parse(await fs.readFile(file, 'utf8'));
}

/** Calls `each` on every line of `file`, a chunk at a time; false when the file does not end with a line break. */
export function eachLine(file: string, each: (line: string, index: number) => void): boolean {
  const fd = fsSync.openSync(file, 'r');
  const chunk = Buffer.allocUnsafe(1 << 20);
  // A character may be cut between two chunks: the decoder keeps its first bytes for the next.
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let index = 0;
  try {
    for (let n; (n = fsSync.readSync(fd, chunk, 0, chunk.length, null)) > 0;) {
      const lines = (rest + decoder.write(chunk.subarray(0, n))).split('\n');
      rest = lines.pop()!;
      for (const line of lines) each(line, index++);
    }
  } finally {
    fsSync.closeSync(fd);
  }
  return rest + decoder.end() === '';
}
