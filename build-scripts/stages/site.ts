/**
 * Site: the built static site (with its precompressed siblings) is copied into the staged build
 * as `site/`, so the HTML is published with the read model by the same pointer switch. Running
 * servers serve the site of the model they hold; `astro build` rewriting `dist/` in place never
 * reaches them.
 *
 * Astro's own files are copied (it may rewrite them in place, which would reach a hard link).
 * The gzip/brotli siblings precompress made are hard-linked instead: precompress only ever
 * replaces them by rename (a new file), so a published build's link keeps its bytes. They are
 * two thirds of the files, and creating files is most of this stage's cost (on the 10,000-page
 * benchmark site, `fs.cp` of 30,000 files took 18–28 s, mostly kernel time; linking the siblings
 * and copying 8 files at a time, 5–10 s). Where a link cannot be made (another file system), the
 * sibling is copied.
 */
import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { BuildContext } from '../context.ts';
import { forPage } from '../errors.ts';
import { listFiles } from '../files.ts';

export const STAGE = 'site';
export const SITE_DIR = 'site';
/** Files copied at once (libuv's pool runs four at a time; a few more keep it fed). */
const COPIES = 8;

async function place(from: string, to: string, link: boolean): Promise<void> {
  if (link) {
    try {
      await fs.link(from, to);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw err;
    }
  }
  await fs.copyFile(from, to, fs.constants.COPYFILE_EXCL);
}

/** Copies `ctx.distDir` to the build's `site/`; files in `linkable` (precompress's siblings) are hard-linked. */
export async function copySite(ctx: BuildContext, linkable: ReadonlySet<string> = new Set()): Promise<{ files: number }> {
  const target = path.join(ctx.stagingDir, SITE_DIR);
  const entries: Dirent[] = await fs.readdir(ctx.distDir, { withFileTypes: true, recursive: true });
  const rel = (e: Dirent) => path.relative(ctx.distDir, path.join(e.parentPath, e.name));
  await fs.mkdir(target);
  // Parents come before their children in readdir's recursive listing only by chance: sort by depth.
  const dirs = entries.filter((e) => e.isDirectory()).map(rel).sort((a, b) => a.split(path.sep).length - b.split(path.sep).length);
  for (const dir of dirs) await fs.mkdir(path.join(target, dir));
  const files = entries.filter((e) => !e.isDirectory());
  let next = 0;
  await Promise.all(Array.from({ length: COPIES }, async () => {
    for (let i = next++; i < files.length; i = next++) {
      const e = files[i]!;
      const from = path.join(e.parentPath, e.name);
      const to = path.join(target, rel(e));
      await forPage(STAGE, from, () => (e.isFile()
        ? place(from, to, linkable.has(from))
        // Symbolic links and the like: as fs.cp copied them.
        : fs.cp(from, to, { errorOnExist: true, force: false })));
    }
  }));
  return { files: (await listFiles(target)).length };
}
