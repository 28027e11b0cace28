/**
 * Site: the built static site is copied into the staged build as `site/`, and every text file of
 * 1 KB or more gets gzip and brotli siblings there (`x.html.gz`, `x.html.br`), which sirv serves
 * as they are (server/routes/site.ts) instead of compressing per request. A sibling that would
 * not be smaller is not written. Running servers serve the site of the model they hold, so it is
 * published with the read model by the same pointer switch; `dist/` is left as Astro wrote it
 * (`astro build` rewriting it in place never reaches a published build). A file as the published
 * build holds it is linked from there with its siblings (cache/previous-build.ts).
 *
 * Why one synchronous pass (each file read once; its copy and siblings written from those bytes):
 * this stage creates three files per page, and creating files is, after compression, most of its
 * cost; a file written through fs.promises costs round trips to libuv's pool besides. The pass runs on the main thread beside all the other stages, in slices
 * (slices.ts): it needs nothing from them, and fills the time the main thread waits on workers.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { brotliOptions, COMPRESS_MIN_BYTES } from '../../formats/brotli-settings.ts';
import type { BuildContext } from '../context.ts';
import { BuildError, messageOf } from '../errors.ts';
import { inSlices } from '../slices.ts';
import { BUNDLE_PATH } from '../../formats/pagefind-bundle.ts';
import { siblingFile, siblingKey, type SiblingCache, type SiblingExt } from '../cache/siblings.ts';
import { linked, sameFile } from '../cache/previous-build.ts';

export const STAGE = 'site';
export const SITE_DIR = 'site';
export const EXTENSIONS = ['.html', '.css', '.js', '.mjs', '.json', '.xml', '.txt', '.svg', '.md', '.webmanifest'];

/**
 * gzip 6 and brotli 6: higher levels make the files at most a few points smaller for many times
 * the CPU, redone on every build.
 */
const ENCODERS: readonly (readonly [ext: SiblingExt, encode: (data: Uint8Array) => Buffer])[] = [
  ['.gz', (data) => zlib.gzipSync(data, { level: 6 })],
  ['.br', (data) => zlib.brotliCompressSync(data, brotliOptions(6, data.length))],
];

function compressible(file: string): boolean {
  return EXTENSIONS.some((ext) => file.endsWith(ext));
}

/**
 * Writes `to` (a new file) and, for a text file of COMPRESS_MIN_BYTES or more, its gzip and brotli
 * siblings that are smaller than it, linked from `cache` when it has them; returns how many
 * siblings were written. `shared`, a published build's file holding `data` made by the same code
 * (cache/previous-build.ts), is linked instead, with its siblings. The Pagefind stage writes its
 * files through it too.
 */
export function writeWithSiblings(to: string, data: Uint8Array, cache?: SiblingCache, shared?: string): number {
  if (shared === undefined) fs.writeFileSync(to, data, { flag: 'wx' });
  else fs.linkSync(shared, to);
  if (data.length < COMPRESS_MIN_BYTES || !compressible(to)) return 0;
  const key = cache && siblingKey(data);
  // Kept when the cache is pruned, also when the siblings come from the shared build.
  if (cache && key) cache.used.add(key);
  let written = 0;
  for (const [ext, encode] of ENCODERS) {
    if (shared !== undefined && linked(shared + ext, to + ext)) {
      // As the shared build placed it.
    } else if (cache && key) {
      const { file, size } = siblingFile(cache, key, ext, data, () => encode(data));
      if (size >= data.length) continue;
      fs.linkSync(file, to + ext);
    } else {
      const out = encode(data);
      if (out.length >= data.length) continue;
      fs.writeFileSync(to + ext, out, { flag: 'wx' });
    }
    written++;
  }
  return written;
}

export interface SiteResult {
  files: number;
  /** Gzip and brotli siblings written. */
  siblings: number;
}

export async function copySite(ctx: BuildContext): Promise<SiteResult> {
  const target = path.join(ctx.stagingDir, SITE_DIR);
  const entries = ctx.siteEntries();
  const rel = (e: fs.Dirent) => path.relative(ctx.distDir, path.join(e.parentPath, e.name));
  fs.mkdirSync(target);
  // A Pagefind bundle an earlier Pagefind run left in `dist/` is not the build's: the build's own
  // follows the publish, served at the same path from the read-model folder.
  const isBundle = (f: string) => f.split(path.sep)[0] === BUNDLE_PATH.slice(1, -1);
  // Parents come before their children in readdir's recursive listing only by chance: sort by depth.
  const dirs = entries.filter((e) => e.isDirectory()).map(rel).filter((d) => !isBundle(d)).sort((a, b) => a.split(path.sep).length - b.split(path.sep).length);
  await inSlices(dirs, (dir) => fs.mkdirSync(path.join(target, dir)), () => {}, ctx.signal);
  const all = entries.filter((e) => !e.isDirectory());
  // Siblings an older build left in `dist/` are made again from the file they belong to.
  const sources = new Set(all.map(rel));
  const stale = (f: string) => (f.endsWith('.gz') || f.endsWith('.br')) && compressible(f.slice(0, -3)) && sources.has(f.slice(0, -3));
  const files = all.filter((e) => !stale(rel(e)) && !isBundle(rel(e)));

  let siblings = 0;
  await inSlices(files, (entry) => {
    const from = path.join(entry.parentPath, entry.name);
    const to = path.join(target, rel(entry));
    try {
      if (entry.isFile()) {
        const data = fs.readFileSync(from);
        const shared = ctx.previousBuild === undefined ? undefined : sameFile(path.join(ctx.previousBuild, SITE_DIR, rel(entry)), data);
        siblings += writeWithSiblings(to, data, ctx.siblingCache, shared);
      }
      // Symbolic links and the like: as fs.cp copies them.
      else fs.cpSync(from, to, { errorOnExist: true, force: false });
    } catch (err) {
      throw new BuildError(STAGE, from, messageOf(err), { cause: err });
    }
  }, ctx.progress, ctx.signal);
  return { files: files.length, siblings };
}
