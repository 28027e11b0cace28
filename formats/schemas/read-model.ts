/**
 * The precomputed read model written by `npm run build` and loaded by the server.
 *
 * Layout under READ_MODEL_DIR (default var/read-model):
 *   current                       {"build_id": "<id>"}, replaced atomically (write + rename) last
 *   builds/<id>/manifest.json     ManifestSchema
 *   builds/<id>/pages.idx         the page index (formats/read-model/page-index.ts): every page's
 *                                 PageIndexEntrySchema fields, by path, binary: what a server loads
 *                                 (the page bodies stay on disk until asked for)
 *   builds/<id>/pages.pack        every page's JSON (as in pages/), back to back: what a server reads
 *   builds/<id>/pages/<slug>.json ReadModelPageSchema, one per published page
 *   builds/<id>/company/<section>.json  CompanyInfo for each get_company_info section
 *   builds/<id>/search/           the search index (formats/search/index-file.ts; search stage)
 */
import { z } from 'zod';
import { CitySlugSchema } from './cities.ts';

/**
 * 2: `search/` holds the compiled search lexicon and the real-words filters, which the server needs.
 * 3: the manifest names the build's content (`content_id`), from which cursors are signed;
 *    `pages.ndjson` indexes the pages in `pages.pack`, so a server loads without opening every page file.
 * 4: the page index is binary (`pages.idx`), without headings: the search index holds their stems.
 * 5: `search/postings.json` and `postings.bin` (formats/search/postings-format.ts), which the server
 *    searches instead of Pagefind's bundle.
 * 6: postings format 2: each word's record in parts (a summary per page apart from the locations,
 *    checkpoints to reach one page), so a term is scored without decoding its locations.
 * 7: the search index is the project's own (formats/search/index-file.ts): index.bin, postings.bin;
 *    the build's static site holds Pagefind's bundle (`site/pagefind/`, formats/pagefind-bundle.ts).
 * 8: Pagefind's bundle follows the build, beside the builds (`pagefind/<id>/`, named by
 *    `pagefind/current`), no longer in its site: an older model is rebuilt so that one is written.
 */
export const READ_MODEL_SCHEMA_VERSION = 8;

export const PAGE_KINDS = ['home', 'service', 'city', 'service-city', 'guide', 'info'] as const;

export const ReadModelPageSchema = z.object({
  /** Site path, lower-case, with leading and trailing slash: `/servicios/fontaneria/madrid/`. */
  path: z.string().regex(/^\/(?:[a-z0-9-]+\/)*$/),
  /** Canonical URL on SITE_URL at build time. */
  url: z.url(),
  /** Unique per build; `[a-z0-9-]`. Rule: path segments without a leading servicios|ciudades|guias, joined by `-`; `inicio` for home. */
  slug: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/),
  title: z.string().min(1),
  description: z.string(),
  city: z.union([CitySlugSchema, z.literal('')]),
  kind: z.enum(PAGE_KINDS),
  /** Main content only, links absolute, no menus, footer or asides. */
  markdown: z.string().min(1),
  /** sha256 hex of title + "\n" + markdown: changes only when the page's content does. */
  hash: z.string().regex(/^[0-9a-f]{64}$/),
});

export const PAGE_INDEX_FILE = 'pages.idx';
export const PAGE_PACK_FILE = 'pages.pack';

/**
 * One page of the page index: a page without its Markdown (its JSON is read from `pages.pack` when
 * asked for, and checked against `hash` then).
 */
export const PageIndexEntrySchema = ReadModelPageSchema.omit({ url: true, markdown: true }).extend({
  /** Where the page's JSON starts in `pages.pack`, and its length, in bytes. */
  offset: z.number().int().nonnegative(),
  length: z.number().int().positive(),
});

/** The head of `pages.idx`: its page count and the cities and kinds its pages name by number. */
export const PageIndexHeadSchema = z.object({
  pages: z.number().int().nonnegative(),
  cities: z.array(ReadModelPageSchema.shape.city),
  kinds: z.array(ReadModelPageSchema.shape.kind),
}).strict();

export const ManifestSchema = z.object({
  schema_version: z.literal(READ_MODEL_SCHEMA_VERSION),
  build_id: z.string().regex(/^[A-Za-z0-9_-]+$/),
  /**
   * SHA-256 hex of what the build serves (build-scripts/content-id.ts): the same content built
   * anywhere has the same id, whatever its `build_id` and `created_at`.
   */
  content_id: z.string().regex(/^[0-9a-f]{64}$/),
  created_at: z.iso.datetime(),
  site_url: z.url(),
  counts: z.object({
    pages: z.number().int().positive(),
    cities: z.number().int(),
    services: z.number().int(),
    guides: z.number().int(),
    company_sections: z.number().int(),
  }),
  timings_ms: z.record(z.string(), z.number()),
});

export const PointerSchema = z.object({ build_id: z.string().regex(/^[A-Za-z0-9_-]+$/) });

export type ReadModelPage = z.infer<typeof ReadModelPageSchema>;
export type Manifest = z.infer<typeof ManifestSchema>;
export type PageIndexEntry = z.infer<typeof PageIndexEntrySchema>;
