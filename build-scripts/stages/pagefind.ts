/**
 * Pagefind: Pagefind's own bundle of every published page (build-scripts/pagefind-bundle.ts),
 * published in the build's static site as `site/pagefind/`, so clients search the site from a CDN
 * without the API. Its text files get gzip and brotli siblings as the site's do.
 *
 * Pagefind indexes in a process of its own, so the stage runs beside search, pages and validate,
 * this thread only feeding it records. The bundle is written to a folder of its own and moved into
 * `site/` once the site stage has ended: that stage creates `site/` and refuses any file already
 * there, so nothing may be written inside it before it is done.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BUNDLE_DIR } from '../../formats/pagefind-bundle.ts';
import type { BuildContext } from '../context.ts';
import { writePagefindBundle, type PagefindBundleResult } from '../pagefind-bundle.ts';
import type { PageSource } from '../search-index/search-index.ts';
import { SITE_DIR, writeWithSiblings } from './site.ts';

export const STAGE = 'pagefind';

/** Where the bundle is written in the staging folder until `site/` is complete. */
const STAGED_BUNDLE = '.pagefind';

/** `pages`: every page of the read model; `siteStaged`: the site stage, settled once it has ended. */
export async function pagefindBundle(ctx: BuildContext, pages: PageSource, siteStaged: Promise<unknown>): Promise<PagefindBundleResult> {
  const staged = path.join(ctx.stagingDir, STAGED_BUNDLE);
  const result = await writePagefindBundle({
    pages, outDir: staged, writeFile: writeWithSiblings, progress: ctx.progress, signal: ctx.signal,
  });
  if (result.indexed !== pages.length) throw new Error(`the bundle holds ${result.indexed} pages of ${pages.length}`);
  await siteStaged;
  const target = path.join(ctx.stagingDir, SITE_DIR, BUNDLE_DIR);
  // A `pagefind/` the built site carried (an earlier Pagefind run over dist/) is not this build's.
  fs.rmSync(target, { recursive: true, force: true });
  fs.renameSync(staged, target);
  return result;
}
