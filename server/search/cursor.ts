/**
 * search_pages cursors: 12 URL-safe characters, base64url of 9 bytes — the offset of the next
 * result (2 bytes, big-endian) and the first 7 bytes of HMAC-SHA256(build key, offset ‖ city ‖
 * normalized query). A cursor therefore only opens the next page of the query and city it was
 * issued for, on a build of the content that issued it; anything else fails the MAC and is
 * rejected (400), never answered with a wrong page.
 *
 * The build key is derived, not stored: HMAC-SHA256(CURSOR_SECRET, the build's content id). Every
 * server holding a build of the same content, on any machine, with the same secret (or none),
 * signs and accepts the same cursors, so servers behind one load balancer are interchangeable.
 *
 * The limit is not bound: the offset counts results, not pages, so a client may change `limit`
 * while walking and still gets every result exactly once.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const OFFSET_BYTES = 2;
const MAC_BYTES = 7;
const SHAPE = /^[A-Za-z0-9_-]{12}$/;
/** Offsets fit in two bytes; result lists are capped to this many entries. */
export const MAX_OFFSET = 0xffff;

/** The key a build's cursors are signed with: `secret` may be '' (cursors then bind the content alone). */
export function cursorKey(secret: string, contentId: string): Buffer {
  return createHmac('sha256', secret).update(`agentes search_pages cursor\u0000${contentId}`).digest();
}

export class CursorCodec {
  constructor(private readonly key: Buffer) {}

  private mac(offset: number, scope: string): Buffer {
    return createHmac('sha256', this.key).update(`${offset}\u0000${scope}`).digest().subarray(0, MAC_BYTES);
  }

  /** `scope`: what the cursor is bound to (city and normalized query). */
  encode(offset: number, scope: string): string {
    if (!Number.isInteger(offset) || offset < 1 || offset > MAX_OFFSET) throw new RangeError(`cursor offset ${offset}`);
    const buf = Buffer.alloc(OFFSET_BYTES + MAC_BYTES);
    buf.writeUInt16BE(offset, 0);
    this.mac(offset, scope).copy(buf, OFFSET_BYTES);
    return buf.toString('base64url');
  }

  /** The offset a cursor carries, or null when it is malformed, tampered with or not issued for `scope` here. */
  decode(cursor: string, scope: string): number | null {
    if (!SHAPE.test(cursor)) return null;
    const buf = Buffer.from(cursor, 'base64url');
    if (buf.length !== OFFSET_BYTES + MAC_BYTES) return null;
    const offset = buf.readUInt16BE(0);
    if (offset < 1) return null;
    return timingSafeEqual(buf.subarray(OFFSET_BYTES), this.mac(offset, scope)) ? offset : null;
  }
}
