/** What the server holds in memory of one read-model build. Implemented by the loader. */
import type { Encoding } from '../compression.ts';
import type { Manifest, PageIndexEntry } from '../../formats/schemas/read-model.ts';
import type { CompanySection, Section } from '../../formats/schemas/resources.ts';
import type { SearchEngine } from '../search/index.ts';

/** One content-coding of a body, with its own strong ETag. */
export interface Variant {
  body: Buffer;
  etag: string;
}

/**
 * A 200 body serialized once (at load, or for a page when first asked for), with its strong ETag
 * and, for bodies of 1 KB or more, its gzip and brotli encodings. Each encoding is a different
 * representation and has its own strong ETag (RFC 9110 §8.8.3): `"<hash>"`, `"<hash>-gzip"`,
 * `"<hash>-br"`.
 */
export interface Representation {
  body: Buffer;
  /** Strong ETag of `body`. */
  etag: string;
  /**
   * null: not stored (a body under 1 KB, or an encoding that would not be smaller); undefined:
   * not made yet, `encode` makes it when a client first asks for it (compression.ts).
   */
  gzip: Variant | null | undefined;
  br: Variant | null | undefined;
  /** Makes and keeps the encoding a client asked for; null for a representation made whole. */
  encode: ((enc: Encoding) => Variant | null) | null;
}

/**
 * A published page as the server holds it: its index entry (no Markdown, no body: those are read
 * from the build's page files when asked for, page-store.ts), with `url` recomposed on the running
 * server's SITE_URL from `path`.
 */
export interface LoadedPage extends Readonly<PageIndexEntry> {
  readonly url: string;
}

/** Pages by one of their keys (path, slug). */
export interface PageLookup {
  get(key: string): LoadedPage | undefined;
  has(key: string): boolean;
}

/** A page's full Markdown on this server's SITE_URL, and its headings with where each section starts (parts.ts). */
export interface PageText {
  markdown: string;
  sections: Section[];
}

export interface LoadedModel {
  manifest: Manifest;
  pages: readonly LoadedPage[];
  /** Normalized site path → page. The only way read_page finds a page. */
  byPath: PageLookup;
  bySlug: PageLookup;
  /** get_company_info bodies, serialized once at load. */
  company: Readonly<Record<CompanySection, Representation>>;
  /**
   * The read_page body of `page` from `offset` (0, or a part start: read-model/parts.ts), from the
   * hot set or prepared from the page's file (page-store.ts).
   */
  partOf(page: LoadedPage, offset: number): Representation | Promise<Representation>;
  /** The page's full Markdown and sections, from the hot set or its file. */
  textOf(page: LoadedPage): PageText | Promise<PageText>;
  /** The page's Markdown representation (`Accept: text/markdown`), ETag `"md-<hash>"`. */
  markdownOf(page: LoadedPage): Representation | Promise<Representation>;
  /** The build's search index, opened at load (server/search). */
  search: SearchEngine;
  /** The build's static site (`builds/<id>/site`), or null for a build without one. */
  siteDir: string | null;
  /** Closes the search engine and the page pack: once no request is served from this model. */
  close(): Promise<void>;
}

/** Holds the current model; `current()` is a plain field read so a swap is one reference write. */
export interface ModelHolder {
  current(): LoadedModel;
}
