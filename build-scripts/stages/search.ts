/**
 * Search: the search index of the published pages (build-scripts/search-index/), written to
 * `search/` of this build. The pages are analysed in the build's workers, a slice at a time, as
 * many at once as there are workers, beside the pages and validate stages. The search lexicon
 * (build-scripts/lexicon/) is compiled first, so a content error in it fails the build before any
 * indexing; what it holds that is valid but likely unmeant (lint.ts) is reported as warnings.
 */
import path from 'node:path';
import type { BuildContext } from '../context.ts';
import { compileLexicon, LexiconError } from '../lexicon/compile.ts';
import { lintLexicon } from '../lexicon/lint.ts';
import { BuildError } from '../errors.ts';
import { buildSearchIndex, type PageSource } from '../search-index/search-index.ts';

export const STAGE = 'search';

/** `pages` in path order; `paths`, the set of their paths, which the lexicon's entries must name. */
export async function search(ctx: BuildContext, pages: PageSource, paths: ReadonlySet<string>): Promise<{ indexed: number; cache?: { keys: Set<string>; hits: number } }> {
  ctx.progress(0, pages.length);
  let lexicon;
  try {
    lexicon = compileLexicon({ contentDir: ctx.contentDir, paths });
  } catch (err) {
    if (err instanceof LexiconError) throw new BuildError(STAGE, undefined, `search lexicon: ${err.message}`);
    throw err;
  }
  for (const warning of lintLexicon(lexicon)) ctx.warn(`search lexicon: ${warning}`);
  const result = await buildSearchIndex({
    pages, outDir: path.join(ctx.stagingDir, 'search'), siteUrl: ctx.siteUrl, lexicon,
    runSlice: (task) => ctx.workers.index(task), parallel: ctx.workers.size,
    progress: (done) => ctx.progress(done, pages.length),
    ...(ctx.previousBuild === undefined ? {} : { sharedFrom: path.join(ctx.previousBuild, 'search') }),
    ...(ctx.pageTermsCache === undefined ? {} : { cache: ctx.pageTermsCache }),
  });
  if (result.indexed !== pages.length) throw new Error(`the index holds ${result.indexed} pages of ${pages.length}`);
  return result;
}
