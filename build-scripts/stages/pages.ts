/**
 * Pages: each page's Markdown (converted by the crawl's workers from the same parse, see
 * tasks/page-read.ts and build-scripts/markdown/), hashed with its title, makes the read-model page
 * (`readModelPages`; a page whose conversion failed fails here, named), written as
 * `pages/<slug>.json` (`writePages`). The pipeline writes them beside the search and site
 * stages, which need only the pages in memory: written first, they would keep a core idle
 * (BENCHMARKS.md note 6).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { BuildContext, CrawledPage, PageMeta, ReadModelPage } from '../context.ts';
import { BuildError, messageOf } from '../errors.ts';
import { inSlices } from '../slices.ts';

export const STAGE = 'pages';

export function pageHash(title: string, markdown: string): string {
  return createHash('sha256').update(`${title}\n${markdown}`).digest('hex');
}

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
  const dir = path.join(ctx.stagingDir, 'pages');
  fs.mkdirSync(dir, { recursive: true });
  await inSlices(pages, (page) => {
    try {
      fs.writeFileSync(path.join(dir, `${page.slug}.json`), JSON.stringify(page) + '\n');
    } catch (err) {
      throw new BuildError(STAGE, page.path, messageOf(err), { cause: err });
    }
  }, ctx.progress);
  return pages;
}
