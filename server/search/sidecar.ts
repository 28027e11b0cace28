/**
 * What the search stage writes into `builds/<id>/search/` besides Pagefind's bundle, and the one
 * schema both sides use for it:
 *
 *   search/pagefind/     Pagefind's bundle (pagefind.js, wasm, meta, index/filter/fragment chunks)
 *   search/search.json   SidecarSchema: per Pagefind page id the site path and the byte length of
 *                        its indexed text in texts.txt, the build's vocabulary with page counts
 *                        (typo correction, stop-junk checks).
 *   search/texts.txt     the exact text indexed for each page (excerpts are cut from it, so no
 *                        fragment is loaded per query), UTF-8, in the order of search.json's pages,
 *                        each followed by a newline: servers read a page's text by its offset
 *                        instead of holding every text in memory.
 *   search/lexicon.json  the search lexicon, compiled (server/schemas/lexicon.ts)
 *   search/words-es.bloom, words-en.bloom  the real-words filters, Spanish and English (bloom.ts)
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

export const SIDECAR_FILE = 'search.json';
export const TEXTS_FILE = 'texts.txt';
export const PAGEFIND_DIR = 'pagefind';
export const LEXICON_FILE = 'lexicon.json';
export const SPANISH_WORDS_FILE = 'words-es.bloom';
export const ENGLISH_WORDS_FILE = 'words-en.bloom';
/** 3: texts in texts.txt, read by offset (2 held them in search.json). */
export const SIDECAR_FORMAT = 3;

export const SidecarSchema = z.object({
  format: z.literal(SIDECAR_FORMAT),
  site_url: z.url(),
  pages: z.array(z.object({
    /** Pagefind's page id (its fragment hash), as search results return it. */
    id: z.string().min(1),
    path: z.string().regex(/^\/(?:[a-z0-9-]+\/)*$/),
    /**
     * UTF-8 bytes of the content given to Pagefind (single spaces, so Pagefind's word locations
     * index `text.split(' ')`), stored in texts.txt.
     */
    bytes: z.number().int().nonnegative(),
  })),
  /** Folded word (text.ts) and the number of pages it appears in, title included. */
  vocabulary: z.array(z.tuple([z.string().min(1), z.number().int().positive()])),
});

export type Sidecar = z.infer<typeof SidecarSchema>;

/** Where each page's text starts in texts.txt, one more entry than pages (the file's end). */
export function textOffsets(pages: Sidecar['pages']): Float64Array {
  const out = new Float64Array(pages.length + 1);
  pages.forEach((p, i) => { out[i + 1] = out[i]! + p.bytes + 1; });
  return out;
}

export async function readSidecar(searchDir: string): Promise<Sidecar> {
  return SidecarSchema.parse(JSON.parse(await fs.readFile(path.join(searchDir, SIDECAR_FILE), 'utf8')));
}

/** The sidecar with every page's text (tools and tests; servers read texts one at a time). */
export async function readIndexedPages(searchDir: string): Promise<Array<Sidecar['pages'][number] & { text: string }>> {
  const sidecar = await readSidecar(searchDir);
  const texts = await fs.readFile(path.join(searchDir, TEXTS_FILE));
  const at = textOffsets(sidecar.pages);
  return sidecar.pages.map((p, i) => ({ ...p, text: texts.toString('utf8', at[i]!, at[i]! + p.bytes) }));
}
