/** What the server holds in memory of one read-model build. Implemented by the loader. */
import type { Manifest, ReadModelPage } from '../schemas/read-model.ts';
import type { CompanySection } from '../schemas/resources.ts';
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
 * `markdown` is the full text, `body` the read_page answer (cut when longer than
 * READ_PAGE_MAX_CHARS).
 */
export interface LoadedPage extends ReadModelPage, Representation {
  /** Whether `body` carries a cut text (`truncated: true`). */
  truncated: boolean;
}

export interface LoadedModel {
  manifest: Manifest;
  pages: readonly LoadedPage[];
  /** Normalized site path → page. The only way read_page finds a page. */
  byPath: ReadonlyMap<string, LoadedPage>;
  bySlug: ReadonlyMap<string, LoadedPage>;
  /** get_company_info bodies, serialized once at load. */
  company: Readonly<Record<CompanySection, Representation>>;
  /** The build's search index, opened at load (server/search). */
  search: SearchEngine;
  /** The build's static site (`builds/<id>/site`), or null for a build without one. */
  siteDir: string | null;
}

/** Holds the current model; `current()` is a plain field read so a swap is one reference write. */
export interface ModelHolder {
  current(): LoadedModel;
}
