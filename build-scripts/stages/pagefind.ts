/**
 * Pagefind: Pagefind's own bundle of every published page (build-scripts/pagefind-bundle.ts), for
 * clients that search the site from a CDN without the API. It runs once the build is published
 * (formats/pagefind-bundle.ts says why): written into `<read model>/pagefind/.staging-<id>/`,
 * renamed to `<id>/` once whole, then `current` is pointed at it by a new link renamed over the
 * old, so a client is served one bundle or the other, never a mix. Bundles beyond KEEP_BUNDLES go,
 * never the current one. Its text files get gzip and brotli siblings as the site's do.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BUNDLES_DIR, CURRENT_BUNDLE, currentBundle, KEEP_BUNDLES } from '../../formats/pagefind-bundle.ts';
import type { BuildContext } from '../context.ts';
import { writePagefindBundle, type PagefindBundleResult } from '../pagefind-bundle.ts';
import type { PageSource } from '../search-index/search-index.ts';
import { writeWithSiblings } from './site.ts';
import { pruneNewest } from '../files.ts';

export const STAGE = 'pagefind';

const STAGING = '.staging-';

/** `pages`: every page of the build just published. */
export async function pagefindBundle(ctx: BuildContext, pages: PageSource): Promise<PagefindBundleResult> {
  const root = path.join(ctx.outDir, BUNDLES_DIR);
  const staged = path.join(root, `${STAGING}${ctx.buildId}`);
  fs.mkdirSync(root, { recursive: true });
  let result: PagefindBundleResult;
  try {
    result = await writePagefindBundle({ pages, outDir: staged, writeFile: writeWithSiblings, progress: ctx.progress, signal: ctx.signal });
    if (result.indexed !== pages.length) throw new Error(`the bundle holds ${result.indexed} pages of ${pages.length}`);
    fs.renameSync(staged, path.join(root, ctx.buildId));
  } catch (err) {
    fs.rmSync(staged, { recursive: true, force: true });
    throw err;
  }
  pointAt(root, ctx.buildId);
  await pruneNewest(root, KEEP_BUNDLES, [currentBundle(root)]);
  return result;
}

function pointAt(root: string, id: string): void {
  const link = path.join(root, `.${CURRENT_BUNDLE}-${id}`);
  fs.rmSync(link, { force: true });
  fs.symlinkSync(id, link);
  fs.renameSync(link, path.join(root, CURRENT_BUNDLE));
}
