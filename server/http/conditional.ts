/**
 * Conditional GET (RFC 9110 §13.1.2): `If-None-Match` with one tag, a list, or `*`. The
 * comparison is the weak one the RFC prescribes for If-None-Match (a `W/` prefix is ignored), and
 * a tag of any encoding of the same body matches, since they all stand for the same content.
 */
import type { Representation } from '../read-model/types.ts';

export function ifNoneMatchHits(header: string | undefined, rep: Representation): boolean {
  if (header === undefined) return false;
  const h = header.trim();
  if (h === '*') return true;
  for (let start = 0; start < h.length;) {
    let end = h.indexOf(',', start);
    if (end === -1) end = h.length;
    let tag = h.slice(start, end).trim();
    if (tag.startsWith('W/')) tag = tag.slice(2);
    if (tag === rep.etag || tag === rep.br?.etag || tag === rep.gzip?.etag) return true;
    start = end + 1;
  }
  return false;
}
