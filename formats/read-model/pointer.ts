/**
 * The read model's `current` pointer: `{"build_id": "<id>"}` naming the build folder under
 * `builds/`. The build is the only writer and replaces it with write-temp + rename, so a reader
 * sees the old pointer or the new one, never a partial file.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { PointerSchema } from '../schemas/read-model.ts';

export const POINTER_FILE = 'current';
export const BUILDS_DIR = 'builds';

export function pointerPath(readModelDir: string): string {
  return path.join(readModelDir, POINTER_FILE);
}

export function buildPath(readModelDir: string, buildId: string): string {
  return path.join(readModelDir, BUILDS_DIR, buildId);
}

/** The current build id, or null when no build was ever published. Throws on a corrupt pointer. */
export async function readPointer(readModelDir: string): Promise<string | null> {
  let raw: string;
  try {
    raw = await fs.readFile(pointerPath(readModelDir), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const parsed = PointerSchema.safeParse(JSON.parse(raw));
  if (!parsed.success) throw new Error(`${pointerPath(readModelDir)} is not a read-model pointer`);
  return parsed.data.build_id;
}

/** The folder of the current build, or null when there is none. */
export async function currentBuildDir(readModelDir: string): Promise<string | null> {
  const id = await readPointer(readModelDir);
  return id === null ? null : buildPath(readModelDir, id);
}

/** Points `current` at `buildId` atomically: durable temp file, rename over, directory synced. */
export async function writePointer(readModelDir: string, buildId: string): Promise<void> {
  const target = pointerPath(readModelDir);
  const temp = `${target}.${process.pid}.${Date.now()}.tmp`;
  const body = JSON.stringify(PointerSchema.parse({ build_id: buildId })) + '\n';
  const handle = await fs.open(temp, 'w');
  try {
    await handle.writeFile(body);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.rename(temp, target);
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw err;
  }
  await syncDir(readModelDir);
}

async function syncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try { await handle.sync(); } catch { /* some filesystems refuse fsync on directories */ } finally { await handle.close(); }
}
