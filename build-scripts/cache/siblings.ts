/**
 * The gzip and brotli siblings of the site's files (stages/site.ts), kept between builds by a hash
 * of the file's bytes: a file as it was gets the siblings compressing it would give, linked from
 * the cache instead of compressed again (the encoders and their settings are part of the code
 * version). An entry is used only once it decompresses to the file's bytes; else it is made again.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { entryFile, writeEntry, type CacheFolders } from './store.ts';

export interface SiblingCache extends CacheFolders {
  /** The keys of the files this build placed, kept when the cache is pruned. */
  used: Set<string>;
}

export type SiblingExt = '.gz' | '.br';

const DECODE: Record<SiblingExt, (data: Uint8Array) => Buffer> = {
  '.gz': (data) => zlib.gunzipSync(data),
  '.br': (data) => zlib.brotliDecompressSync(data),
};

export const siblingKey = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** The size of the entry in `file` when it decompresses to `data`, else undefined (none, or damaged). */
function intactSize(file: string, ext: SiblingExt, data: Uint8Array): number | undefined {
  try {
    const bytes = fs.readFileSync(file);
    return DECODE[ext](bytes).equals(data) ? bytes.length : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A file holding `data` compressed as `ext`, and its size: the cache's, when it is intact, else
 * `encode`'s output, kept in the build's new entries.
 */
export function siblingFile(cache: SiblingCache, key: string, ext: SiblingExt, data: Uint8Array, encode: () => Uint8Array): { file: string; size: number } {
  for (const dir of [cache.newDir, cache.dir]) {
    const file = entryFile(dir, key, ext);
    const size = intactSize(file, ext, data);
    if (size !== undefined) return { file, size };
  }
  const file = entryFile(cache.newDir, key, ext);
  const bytes = encode();
  writeEntry(file, bytes);
  return { file, size: bytes.length };
}
