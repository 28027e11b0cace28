/**
 * The published build, which this build shares files with when both are made by the same code:
 * a site file Astro wrote byte for byte as that build holds it gets that build's file and
 * compressed siblings linked, neither written nor compressed nor checked by decompressing
 * (stages/site.ts); the search index's real-words filters, made from the locked word lists alone,
 * are linked too (search-index.ts). Published builds are never changed, and a build records the
 * code version it was made with (code-version.ts), so only a build of the same code is shared
 * from: its files are the ones this code would make.
 */
import fs from 'node:fs';
import path from 'node:path';
import { currentBuildDir } from '../../formats/read-model/pointer.ts';

/** In each build's folder: the code version its files were made with. */
export const CODE_VERSION_FILE = 'code-version';

/** Records the code version a staged build is made with. */
export function recordCodeVersion(stagingDir: string, version: string): void {
  fs.writeFileSync(path.join(stagingDir, CODE_VERSION_FILE), `${version}\n`);
}

/** The published build's folder when that build was made by code `version`; else undefined. */
export async function previousBuild(readModelDir: string, version: string): Promise<string | undefined> {
  const dir = await currentBuildDir(readModelDir).catch(() => null);
  if (dir === null) return undefined;
  let recorded: string;
  try {
    recorded = fs.readFileSync(path.join(dir, CODE_VERSION_FILE), 'utf8').trim();
  } catch {
    return undefined;
  }
  return recorded === version ? dir : undefined;
}

/** Links `from` as `to`; false when there is no `from`. */
export function linked(from: string, to: string): boolean {
  try {
    fs.linkSync(from, to);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/** `file` when it holds exactly `data`; else undefined (other bytes, or no such file). */
export function sameFile(file: string, data: Uint8Array): string | undefined {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  return bytes.equals(data) ? file : undefined;
}
