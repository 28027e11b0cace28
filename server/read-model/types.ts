/** What the server holds in memory of one read-model build. Implemented by the loader. */
import type { Manifest, ReadModelPage } from '../schemas/read-model.ts';
import type { CompanySection } from '../schemas/resources.ts';

export interface LoadedPage extends ReadModelPage {
  /** The read_page 200 body, serialized once at load (JSON of the contract's Page). */
  body: Buffer;
  /** Strong ETag of `body`. */
  etag: string;
}

export interface LoadedModel {
  manifest: Manifest;
  pages: readonly LoadedPage[];
  /** Normalized site path → page. The only way read_page finds a page. */
  byPath: ReadonlyMap<string, LoadedPage>;
  bySlug: ReadonlyMap<string, LoadedPage>;
  /** get_company_info bodies, serialized once at load. */
  company: Readonly<Record<CompanySection, { body: Buffer; etag: string }>>;
}

/** Holds the current model; `current()` is a plain field read so a swap is one reference write. */
export interface ModelHolder {
  current(): LoadedModel;
}
