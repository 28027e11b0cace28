/**
 * What the search stage writes into `builds/<id>/search/` besides Pagefind's bundle, and the one
 * schema both sides use for it:
 *
 *   search/pagefind/     Pagefind's bundle (pagefind.js, wasm, meta, index/filter/fragment chunks)
 *   search/search.json   SidecarSchema: per Pagefind page id the site path and the exact text
 *                        indexed (excerpts are cut from it, so no fragment is loaded per query),
 *                        the build's vocabulary with page counts (typo correction, stop-junk
 *                        checks).
 *   search/lexicon.json  the search lexicon, compiled (server/schemas/lexicon.ts)
 *   search/words-es.bloom, words-en.bloom  the real-words filters, Spanish and English (bloom.ts)
 */
import { z } from 'zod';

export const SIDECAR_FILE = 'search.json';
export const PAGEFIND_DIR = 'pagefind';
export const LEXICON_FILE = 'lexicon.json';
export const SPANISH_WORDS_FILE = 'words-es.bloom';
export const ENGLISH_WORDS_FILE = 'words-en.bloom';
/** 2: no cursor key (servers derive it from the build's content id: search/cursor.ts). */
export const SIDECAR_FORMAT = 2;

export const SidecarSchema = z.object({
  format: z.literal(SIDECAR_FORMAT),
  site_url: z.url(),
  pages: z.array(z.object({
    /** Pagefind's page id (its fragment hash), as search results return it. */
    id: z.string().min(1),
    path: z.string().regex(/^\/(?:[a-z0-9-]+\/)*$/),
    /** The content given to Pagefind: single spaces, so Pagefind's word locations index `text.split(' ')`. */
    text: z.string(),
  })),
  /** Folded word (text.ts) and the number of pages it appears in, title included. */
  vocabulary: z.array(z.tuple([z.string().min(1), z.number().int().positive()])),
});

export type Sidecar = z.infer<typeof SidecarSchema>;
