/**
 * Pages: each page's Markdown (converted by the crawl's workers from the same parse, see
 * tasks/page-read.ts and build-scripts/markdown/), hashed with its title, makes the read-model page
 * (`readModelPages`; a page whose conversion failed fails here, named), written as
 * `pages/<slug>.json`, packed into `pages.pack` and indexed in `pages.ndjson` (`writePages`, page-index.ts). The pipeline writes them beside the search and site
 * stages, which need only the pages in memory: written first, they would keep a core idle
 * (BENCHMARKS.md note 6).
 */
import type { BuildContext, CrawledPage, PageMeta, ReadModelPage } from '../context.ts';
import { BuildError, messageOf } from '../errors.ts';
import { inSlices } from '../slices.ts';
import { createPageWriter } from '../page-index.ts';
import { pageHash } from '../../server/read-model/page-hash.ts';

export const STAGE = 'pages';

function toPage(meta: PageMeta, markdown: string): ReadModelPage {
  const { hasH1: _hasH1, ...fields } = meta;
  return { ...fields, markdown, hash: pageHash(meta.title, markdown) };
}

export function readModelPages(crawled: CrawledPage[], metas: PageMeta[]): ReadModelPage[] {
  return crawled.map((page, i) => {
    if (page.markdownError !== undefined) throw new BuildError(STAGE, page.path, page.markdownError);
    if (page.markdown === null) throw new BuildError(STAGE, page.path, 'the page was not converted');
    return toPage(metas[i]!, page.markdown);
  });
}

export async function writePages(ctx: BuildContext, pages: ReadModelPage[]): Promise<ReadModelPage[]> {
  const writer = createPageWriter(ctx.stagingDir);
  await inSlices(pages, (page) => {
    try {
      writer.add(page);
    } catch (err) {
      throw new BuildError(STAGE, page.path, messageOf(err), { cause: err });
    }
  }, ctx.progress);
  writer.finish();
  return pages;
}
