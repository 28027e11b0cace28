/** What the server holds in memory of one read-model build. Implemented by the loader. */
import type { Manifest, ReadModelPage } from '../schemas/read-model.ts';
import type { CompanySection, Section } from '../schemas/resources.ts';
import type { SearchEngine } from '../search/index.ts';

/**
 * A 200 body serialized once at load, with its strong ETag and, for bodies of 1 KB or more, its
 * gzip and brotli encodings made at load too. Each encoding is a different representation and
 * has its own strong ETag (RFC 9110 §8.8.3): `"<hash>"`, `"<hash>-gzip"`, `"<hash>-br"`.
 */
export interface Representation {
  body: Buffer;
  /** Strong ETag of `body`. */
  etag: string;
  gzip: { body: Buffer; etag: string } | null;
  br: { body: Buffer; etag: string } | null;
}

/**
 * A published page. `url` is recomposed on the running server's SITE_URL from `path`;
 * `markdown` is the full text, `body` the read_page answer from offset 0 (its first part when
 * longer than READ_PAGE_MAX_CHARS).
 */
export interface LoadedPage extends ReadModelPage, Representation {
  /** Whether `body` carries only the first part (`truncated: true`). */
  truncated: boolean;
  /** The page's headings with where each section starts (read-model/parts.ts). */
  sections: Section[];
}

export interface LoadedModel {
  manifest: Manifest;
  pages: readonly LoadedPage[];
  /** Normalized site path → page. The only way read_page finds a page. */
  byPath: ReadonlyMap<string, LoadedPage>;
  bySlug: ReadonlyMap<string, LoadedPage>;
  /** get_company_info bodies, serialized once at load. */
  company: Readonly<Record<CompanySection, Representation>>;
  /**
   * The read_page body of `page` from `offset` (a part start, read-model/parts.ts): the page
   * itself at 0, later parts prepared on first request and kept for the most recent ones.
   */
  partOf(page: LoadedPage, offset: number): Representation | Promise<Representation>;
  /** The build's search index, opened at load (server/search). */
  search: SearchEngine;
  /** The build's static site (`builds/<id>/site`), or null for a build without one. */
  siteDir: string | null;
}

/** Holds the current model; `current()` is a plain field read so a swap is one reference write. */
export interface ModelHolder {
  current(): LoadedModel;
}
