/** Small file helpers the stages share. */
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Every file under `dir` (recursive), as absolute paths, skipping dot-folders. Synchronous: the
 * promise API takes a round trip to libuv's pool per folder (BENCHMARKS.md note 6), and this
 * runs at the start of the build, when nothing else can run.
 */
export function listFiles(dir: string): string[] {
  const entries = fsSync.readdirSync(dir, { withFileTypes: true, recursive: true });
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

export async function writeJson(file: string, value: unknown): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, JSON.stringify(value) + '\n');
}

export async function readJson(file: string): Promise<unknown> {
  return JSON.parse(await fs.readFile(file, 'utf8'));
}
