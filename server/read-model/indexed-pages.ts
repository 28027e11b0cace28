/**
 * The pages of a loaded build as views on its page index (page-index.ts): one small object per
 * page holding its number, whose fields are decoded from the index when read, so the pages of a
 * large build cost a few dozen bytes each instead of their strings. A page's path, read on every
 * request for it (the hot set's key), is kept once decoded.
 */
import type { PageIndexEntry } from '../../formats/schemas/read-model.ts';
import type { PageIndex } from '../../formats/read-model/page-index.ts';
import type { LoadedPage, PageLookup } from './types.ts';

class IndexedPage implements LoadedPage {
  private decodedPath: string | undefined;

  constructor(private readonly index: PageIndex, private readonly siteUrl: string, readonly number: number) {}

  get path(): string { return (this.decodedPath ??= this.index.path(this.number)); }
  get url(): string { return this.siteUrl + this.path; }
  get slug(): string { return this.index.slug(this.number); }
  get title(): string { return this.index.title(this.number); }
  get description(): string { return this.index.description(this.number); }
  get city(): PageIndexEntry['city'] { return this.index.city(this.number); }
  get kind(): PageIndexEntry['kind'] { return this.index.kind(this.number); }
  get hash(): string { return this.index.hash(this.number); }
  get offset(): number { return this.index.offset(this.number); }
  get length(): number { return this.index.length(this.number); }
}

export interface IndexedPages {
  pages: readonly LoadedPage[];
  byPath: PageLookup;
  bySlug: PageLookup;
}

/** The pages of `index`, by number (path order), path and slug, their URLs on `siteUrl`. */
export function indexedPages(index: PageIndex, siteUrl: string): IndexedPages {
  const pages: LoadedPage[] = new Array<LoadedPage>(index.size);
  for (let i = 0; i < index.size; i++) pages[i] = new IndexedPage(index, siteUrl, i);
  const lookup = (find: (key: string) => number): PageLookup => ({
    get: (key) => { const i = find(key); return i < 0 ? undefined : pages[i]; },
    has: (key) => find(key) >= 0,
  });
  return { pages, byPath: lookup((key) => index.findPath(key)), bySlug: lookup((key) => index.findSlug(key)) };
}
