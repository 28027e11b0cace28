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

function intact(file: string, ext: SiblingExt, data: Uint8Array): boolean {
  try {
    return DECODE[ext](fs.readFileSync(file)).equals(data);
  } catch {
    return false;
  }
}

/** A file holding `data` compressed as `ext`: the cache's, when it is intact, else `encode`'s output, kept in the build's new entries. */
export function siblingFile(cache: SiblingCache, key: string, ext: SiblingExt, data: Uint8Array, encode: () => Uint8Array): string {
  cache.used.add(key);
  for (const dir of [cache.newDir, cache.dir]) {
    const file = entryFile(dir, key, ext);
    if (fs.existsSync(file) && intact(file, ext, data)) return file;
  }
  const file = entryFile(cache.newDir, key, ext);
  writeEntry(file, encode());
  return file;
}
