/**
 * Pages: each page's Markdown (converted by the crawl's workers from the same parse, see
 * tasks/page-read.ts and build-scripts/markdown/, and left in the build's spill), hashed with its
 * title, makes the read-model page, written as `pages/<slug>.json`, packed into `pages.pack` and
 * indexed in `pages.idx` (page-index.ts). Pages are made one at a time, in path order, and
 * dropped once written: only their index entries stay in memory. The pipeline writes them beside
 * the search and site stages.
 */
import type { PageIndexEntry } from '../../formats/schemas/read-model.ts';
import type { BuildContext, CrawledPage, PageMeta, ReadModelPage } from '../context.ts';
import { BuildError, messageOf } from '../errors.ts';
import { inSlices } from '../slices.ts';
import { createPageWriter } from '../page-index.ts';
import type { IndexPage } from '../search-index/page-terms.ts';
import { pageHash } from '../../formats/read-model/page-hash.ts';
import type { TextSpill } from '../text-spill.ts';

export const STAGE = 'pages';

export function toPage(meta: PageMeta, markdown: string): ReadModelPage {
  const { hasH1: _hasH1, ...fields } = meta;
  return { ...fields, markdown, hash: pageHash(meta.title, markdown) };
}

/** Fails on the first page, by path, whose conversion failed: before any page is written. */
export function checkConverted(crawled: readonly CrawledPage[]): void {
  for (const page of crawled) {
    if (page.markdownError !== undefined) throw new BuildError(STAGE, page.path, page.markdownError);
    if (page.markdown === null) throw new BuildError(STAGE, page.path, 'the page was not converted');
  }
}

/** The read-model pages, `crawled[i]` with `metas[i]`, made from the spill when asked for. */
export interface ReadModelPages {
  readonly length: number;
  page(i: number): ReadModelPage;
  /** What the search index needs of pages `from` to `to` (excluded). */
  read(from: number, to: number): IndexPage[];
}

/** Reading stops, throwing its reason, once `signal` is aborted: the search index reads no more. */
export function pageSource(spill: TextSpill, crawled: readonly CrawledPage[], metas: readonly PageMeta[], signal?: AbortSignal): ReadModelPages {
  checkConverted(crawled);
  const markdownOf = (i: number) => spill.get(crawled[i]!.markdown!);
  return {
    length: crawled.length,
    page: (i) => toPage(metas[i]!, markdownOf(i)),
    read(from, to) {
      signal?.throwIfAborted();
      const out: IndexPage[] = [];
      for (let i = from; i < to; i++) {
        const { path, title, city, description } = metas[i]!;
        out.push({ path, title, city, description, markdown: markdownOf(i) });
      }
      return out;
    },
  };
}

/** Writes every page of `pages`; returns their index entries, by path. */
export async function writePages(ctx: BuildContext, pages: Pick<ReadModelPages, 'length' | 'page'>): Promise<PageIndexEntry[]> {
  const writer = createPageWriter(ctx.stagingDir);
  const order = Array.from({ length: pages.length }, (_, i) => i);
  await inSlices(order, (i) => {
    const page = pages.page(i);
    try {
      writer.add(page);
    } catch (err) {
      throw new BuildError(STAGE, page.path, messageOf(err), { cause: err });
    }
  }, ctx.progress);
  return writer.finish();
}
