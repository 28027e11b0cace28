/** A page's content hash: what the build writes into each page and the server checks a page file against. */
import { createHash } from 'node:crypto';

/** sha256 hex of title + "\n" + Markdown: changes only when the page's content does. */
export function pageHash(title: string, markdown: string): string {
  return createHash('sha256').update(`${title}\n${markdown}`).digest('hex');
}

/** Hex digits of read_page's `version`: enough that a page's successive texts never share one. */
export const PAGE_VERSION_LENGTH = 12;

/**
 * read_page's `version` of a page: its content hash, shortened. A part's `offset` counts in the
 * text its version names.
 */
export const pageVersion = (hash: string): string => hash.slice(0, PAGE_VERSION_LENGTH);
