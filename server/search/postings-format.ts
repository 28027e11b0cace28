/**
 * The postings files the build writes from Pagefind's index (build-scripts/pagefind/postings-writer.ts)
 * and the server searches (postings-search.ts), so no Pagefind code runs in the server:
 *
 *   search/postings.json  PostingsHeaderSchema: format, page and word counts, meta field names and
 *                         where each section of postings.bin starts and how long it is.
 *   search/postings.bin   sections, each read whole at open but the records:
 *     ids          Pagefind's page ids (fragment hashes), by page number, one a line (UTF-8)
 *     wordCounts   Uint32 (little-endian) per page: Pagefind's word count of the page
 *     vocabulary   Pagefind's index words (stems, no diacritics) in byte order, one a line (UTF-8)
 *     tokens       the words of the indexed texts (`text.split(' ')`), each once, one a line (UTF-8):
 *                  token id n is line n − 1 (0: no word at that position)
 *     offsets      Float64 (little-endian) per word and one more: where its record starts in records
 *     records      per word, read by offset when a search needs it, unsigned LEB128 varints:
 *                    variant count V, then V forms (byte length, UTF-8 bytes);
 *                    then V + 1 page lists (the word's own form first, then each variant's):
 *                      page count, then per page: page number (delta from the list's previous
 *                      page), location count, per location its weight, word position and the
 *                      token id of the text's word there, meta field count, the ids of the meta
 *                      fields the page has the word in.
 */
import { z } from 'zod';

export const POSTINGS_HEADER_FILE = 'postings.json';
export const POSTINGS_FILE = 'postings.bin';
export const POSTINGS_FORMAT = 1;

const Section = z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]);

export const PostingsHeaderSchema = z.object({
  format: z.literal(POSTINGS_FORMAT),
  /** The Pagefind version whose index (and so whose scoring) the postings reproduce. */
  pagefind: z.literal('1.5.2'),
  pages: z.number().int().nonnegative(),
  words: z.number().int().nonnegative(),
  tokens: z.number().int().nonnegative(),
  /** Pagefind's meta field names, by field id. */
  fields: z.array(z.string()),
  sections: z.object({ ids: Section, wordCounts: Section, vocabulary: Section, tokens: Section, offsets: Section, records: Section }),
});

export type PostingsHeader = z.infer<typeof PostingsHeaderSchema>;
export type PostingsSection = keyof PostingsHeader['sections'];
