/**
 * Search: the Pagefind index of the published pages, with the city as a filter, written to
 * `search/` of this build (see build-scripts/pagefind/search-index.ts for the index itself). Its
 * sessions run in the build's workers, as many at once as there are workers, each worker with
 * its own Pagefind process (Pagefind indexes on one core), kept from one session to the next and
 * stopped when the stage ends. The pool places sessions beside the validate checks, so two can
 * share a worker and its process for a while. The postings and the answers of common words are
 * made by the workers too, a share each. The search lexicon (build-scripts/lexicon/) is
 * compiled first, so a content error in it fails the build before any indexing; what it holds
 * that is valid but likely unmeant (lint.ts) is reported as warnings.
 */
import path from 'node:path';
import type { BuildContext } from '../context.ts';
import { compileLexicon, LexiconError } from '../lexicon/compile.ts';
import { lintLexicon } from '../lexicon/lint.ts';
import { BuildError } from '../errors.ts';
import { buildSearchIndex, type PageSource } from '../pagefind/search-index.ts';

export const STAGE = 'search';

/** `pages` in path order; `paths`, the set of their paths, which the lexicon's entries must name. */
export async function search(ctx: BuildContext, pages: PageSource, paths: ReadonlySet<string>): Promise<{ indexed: number }> {
  ctx.progress(0, pages.length);
  let lexicon;
  try {
    lexicon = compileLexicon({ contentDir: ctx.contentDir, paths });
  } catch (err) {
    if (err instanceof LexiconError) throw new BuildError(STAGE, undefined, `search lexicon: ${err.message}`);
    throw err;
  }
  for (const warning of lintLexicon(lexicon)) ctx.warn(`search lexicon: ${warning}`);
  let result: { indexed: number };
  try {
    result = await buildSearchIndex({
      pages, outDir: path.join(ctx.stagingDir, 'search'), siteUrl: ctx.siteUrl, lexicon,
      runSession: (task) => ctx.workers.index(task), parallel: ctx.workers.size,
      endSessions: () => ctx.workers.endSessions(),
      answers: { make: ctx.workers.answers, parts: ctx.workers.size },
      postings: { make: ctx.workers.postings, parts: ctx.workers.size },
      progress: (done) => ctx.progress(done, pages.length),
    });
  } finally {
    await ctx.workers.endSessions();
  }
  ctx.progress(result.indexed, pages.length);
  if (result.indexed !== pages.length) {
    throw new Error(`the index holds ${result.indexed} pages of ${pages.length}`);
  }
  return result;
}
