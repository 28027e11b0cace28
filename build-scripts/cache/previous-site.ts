/**
 * The published build's site, which this build's site shares files with: a file Astro wrote byte
 * for byte as that build holds it gets that build's file and compressed siblings linked, neither
 * written nor compressed nor checked by decompressing. Published builds are never changed, and a
 * build records the code version it was made with (code-version.ts), so only a build of the same
 * code is shared from: its siblings are the ones this code would make.
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

/** The published build's site folder when that build was made by code `version`; else undefined. */
export async function previousSite(readModelDir: string, version: string, siteDir: string): Promise<string | undefined> {
  const dir = await currentBuildDir(readModelDir).catch(() => null);
  if (dir === null) return undefined;
  let recorded: string;
  try {
    recorded = fs.readFileSync(path.join(dir, CODE_VERSION_FILE), 'utf8').trim();
  } catch {
    return undefined;
  }
  return recorded === version && fs.existsSync(path.join(dir, siteDir)) ? path.join(dir, siteDir) : undefined;
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
