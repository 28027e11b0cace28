/**
 * A buffer to keep, as one that owns exactly its bytes. zlib's outputs and small `Buffer.from`
 * results are views into a larger chunk or pool that stays alive as long as any view does, so a
 * cache that keeps such a view and weighs it by its length holds many times what it counts.
 * Copied once, when kept; a buffer that already owns its memory is returned as is.
 */
export function ownBytes(buf: Buffer): Buffer {
  if (buf.byteOffset === 0 && buf.byteLength === buf.buffer.byteLength) return buf;
  const own = Buffer.allocUnsafeSlow(buf.byteLength);
  buf.copy(own);
  return own;
}
