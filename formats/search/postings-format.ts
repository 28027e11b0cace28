/**
 * The postings files the build writes from Pagefind's index (build-scripts/pagefind/postings-writer.ts)
 * and the server searches (postings-search.ts, term-hits.ts), so no Pagefind code runs in the server:
 *
 *   search/postings.json  PostingsHeaderSchema: format, page and word counts, meta field names and
 *                         where each section of postings.bin starts and how long it is.
 *   search/postings.bin   sections, each read whole at open but the records:
 *     ids          Pagefind's page ids (fragment hashes), by page number, one a line (UTF-8)
 *     wordCounts   Uint32 (little-endian) per page: Pagefind's word count of the page
 *     vocabulary   Pagefind's index words (stems, no diacritics) in byte order, one a line (UTF-8)
 *     tokens       the words of the indexed texts (`text.split(' ')`), each once, one a line (UTF-8):
 *                  token id n is line n − 1 (0: no word at that position)
 *     offsets      Float64 (little-endian), three per word and one more: where its record's head,
 *                  summary and locations start in records (the next word's head ends them)
 *     records      per word, unsigned LEB128 varints, in three parts read apart:
 *       head       variant count V, V forms (byte length, UTF-8 bytes), the entry count of each of
 *                  the V + 1 page lists (the word's own form first, then each variant's), the
 *                  word's token table (count T, then the token ids of its locations, the ones in
 *                  most entries first), then a checkpoint at every RECORD_BLOCK-th entry of each
 *                  list: its page, and the distances from the previous checkpoint to its summary
 *                  and to its locations
 *       summary    per entry (a page of a list), what scoring needs without the locations:
 *                  page (delta from the list's previous entry); weight sum of its locations × 2,
 *                  + 1 (flagged shared) when a location's position is shared with any other
 *                  location on that page; its tokens × 2, + 1 when it has meta fields (tokens:
 *                  when T ≤ MASK_TOKENS a bit mask of table indices, else their count, then the
 *                  indices ascending); the meta field count and ids when it has some; the byte
 *                  length of its locations; when flagged shared, its shared positions (count,
 *                  then ascending deltas). Where two matched entries name one position, Pagefind's
 *                  sort decides which word it counts for: the reader scores that page from the
 *                  locations; elsewhere the sums are exact.
 *       locations  per entry, in Pagefind's order: weight, position (zigzag delta from the
 *                  entry's previous position) and the token there (1 + its index in the word's
 *                  table; 0: no word at that position)
 */
import { z } from 'zod';

export const POSTINGS_HEADER_FILE = 'postings.json';
export const POSTINGS_FILE = 'postings.bin';
export const POSTINGS_FORMAT = 2;
/** Entries between two checkpoints of a page list: what a page's lookup decodes at most per list. */
export const RECORD_BLOCK = 64;
/** A word with at most this many distinct tokens names an entry's tokens by one bit mask (a small integer). */
export const MASK_TOKENS = 30;

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
