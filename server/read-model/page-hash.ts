/** A page's content hash: what the build writes into each page and the server checks a page file against. */
import { createHash } from 'node:crypto';

/** sha256 hex of title + "\n" + Markdown: changes only when the page's content does. */
export function pageHash(title: string, markdown: string): string {
  return createHash('sha256').update(`${title}\n${markdown}`).digest('hex');
}
