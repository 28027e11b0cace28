/**
 * How bodies are compressed, shared by the build's precompressed site files and the server's
 * API bodies: the size below which neither compresses, and brotli's settings for a body.
 */
import zlib from 'node:zlib';

/** Below this, compression saves less than a TCP segment and costs a round of CPU. */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * Brotli text mode at `quality`. The window is sized to the body (the default, 4 MB, is allocated
 * and cleared by every encoder): the output is the same for a body that fits, and a per-request
 * encoder costs far less.
 */
export const brotliOptions = (quality: number, size: number): zlib.BrotliOptions => ({
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
    [zlib.constants.BROTLI_PARAM_LGWIN]: brotliWindowBits(size),
  },
});

/** The smallest brotli window (log2 bytes) that holds `size` bytes, within brotli's limits. */
export function brotliWindowBits(size: number): number {
  return Math.min(zlib.constants.BROTLI_MAX_WINDOW_BITS, Math.max(zlib.constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(size + 1))));
}
