/**
 * Conditional GET (RFC 9110 §13.1.2): `If-None-Match` with one tag, a list, or `*`. The
 * comparison is the weak one the RFC prescribes for If-None-Match (a `W/` prefix is ignored), and
 * a tag of any encoding of the same body matches, since they all stand for the same content.
 */
import { variantEtag, type Encoding } from '../compression.ts';
import type { Representation } from '../read-model/types.ts';

/**
 * An encoding not made yet is matched by the tag it will have: bodies made lazily are text of
 * 1 KB or more, which both codings always make smaller, so it would be there.
 */
function variantHit(tag: string, rep: Representation, enc: Encoding): boolean {
  const variant = rep[enc];
  return variant === undefined ? tag === variantEtag(rep.etag, enc) : tag === variant?.etag;
}

export function ifNoneMatchHits(header: string | undefined, rep: Representation): boolean {
  if (header === undefined) return false;
  const h = header.trim();
  if (h === '*') return true;
  for (let start = 0; start < h.length;) {
    let end = h.indexOf(',', start);
    if (end === -1) end = h.length;
    let tag = h.slice(start, end).trim();
    if (tag.startsWith('W/')) tag = tag.slice(2);
    if (tag === rep.etag || variantHit(tag, rep, 'br') || variantHit(tag, rep, 'gzip')) return true;
    start = end + 1;
  }
  return false;
}
