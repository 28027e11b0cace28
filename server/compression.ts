/**
 * Content-coding of API bodies (RFC 9110 §8.4, §12.5.3). Read-model bodies are compressed once
 * (at load, or when a page is first read) and kept; only search responses, which are built per
 * request, are compressed per request, and only when they reach the threshold.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { brotliOptions, COMPRESS_MIN_BYTES } from '../formats/brotli-settings.ts';
import type { Representation, Variant } from './read-model/types.ts';
import { createLimiter } from './read-model/file-pressure.ts';
import { ownBytes } from './own-bytes.ts';

export type Encoding = 'br' | 'gzip';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Representations compressed at once. Many cold pages asked for together would otherwise keep
 * hundreds of encoders alive together, and the memory they took is not returned afterwards.
 */
const LOAD_CONCURRENCY = 4;
const bounded = createLimiter(LOAD_CONCURRENCY);

/** Strong ETag of a body: its SHA-256, base64url, cut to 128 bits. */
export function strongEtag(body: Buffer | string): string {
  return '"' + createHash('sha256').update(body).digest('base64url').slice(0, 22) + '"';
}

export const variantEtag = (etag: string, enc: Encoding): string => etag.slice(0, -1) + '-' + (enc === 'br' ? 'br' : 'gzip') + '"';

/**
 * The settings of the stored encodings, made once per body and kept: brotli 9, near-maximal on
 * Markdown, paid once per body (a per-request body gets 5).
 */
const storedBrotli = (body: Buffer) => brotliOptions(9, body.length);
const STORED_GZIP: zlib.ZlibOptions = { level: 9 };

/**
 * An encoding `out` of `body` as kept: only when it is smaller, and copied out of zlib's output
 * chunk (ownBytes), so what caches weigh by length is what they hold. Every representation's
 * bodies are kept so, the identity body too.
 */
const variantOf = (body: Buffer, out: Buffer, etag: string, enc: Encoding): Variant | null =>
  (out.length < body.length ? { body: ownBytes(out), etag: variantEtag(etag, enc) } : null);

/** Serialized body → representation with its ETags and, from 1 KB, both stored encodings, made in the threadpool. */
export async function makeRepresentation(body: Buffer, etag = strongEtag(body)): Promise<Representation> {
  body = ownBytes(body);
  if (body.length < COMPRESS_MIN_BYTES) return { body, etag, gzip: null, br: null, encode: null };
  const [br, gz] = await bounded(() => Promise.all([brotli(body, storedBrotli(body)), gzip(body, STORED_GZIP)]));
  return { body, etag, gzip: variantOf(body, gz, etag, 'gzip'), br: variantOf(body, br, etag, 'br'), encode: null };
}

/**
 * Bodies up to this size get each stored encoding on the main thread when a client first asks
 * for it (`makeLazyRepresentation`): brotli 9 of such a body costs about as much as the two
 * threadpool hops it saves on a small machine, and a client that asks for brotli never pays
 * for gzip.
 */
export const INLINE_ENCODE_MAX_BYTES = 32 * 1024;

/** One stored encoding of `body`: the bytes makeRepresentation makes, made on this thread. */
function storedVariant(body: Buffer, etag: string, enc: Encoding): Variant | null {
  return variantOf(body, enc === 'br' ? zlib.brotliCompressSync(body, storedBrotli(body)) : zlib.gzipSync(body, STORED_GZIP), etag, enc);
}

/**
 * The representation makeRepresentation makes, with each encoding made when first asked for
 * (`encode`) and then kept; `encoded` is told after each (the hot set weighs it again).
 */
export function makeLazyRepresentation(body: Buffer, etag = strongEtag(body), encoded?: (rep: Representation) => void): Representation {
  body = ownBytes(body);
  if (body.length < COMPRESS_MIN_BYTES) return { body, etag, gzip: null, br: null, encode: null };
  const rep: Representation = {
    body,
    etag,
    gzip: undefined,
    br: undefined,
    encode: (enc) => {
      const variant = storedVariant(body, etag, enc);
      rep[enc] = variant;
      encoded?.(rep);
      return variant;
    },
  };
  return rep;
}

/**
 * A per-request body (search results): same shape, compressed synchronously with fast settings.
 * Kept as long as the response it serializes (respond.ts), so its bytes are owned too.
 */
export function makeDynamicRepresentation(body: Buffer, encoding: Encoding | null): Representation {
  body = ownBytes(body);
  const etag = strongEtag(body);
  if (encoding === null || body.length < COMPRESS_MIN_BYTES) return { body, etag, gzip: null, br: null, encode: null };
  if (encoding === 'br') {
    return { body, etag, gzip: null, br: { body: ownBytes(zlib.brotliCompressSync(body, brotliOptions(5, body.length))), etag: variantEtag(etag, 'br') }, encode: null };
  }
  return { body, etag, gzip: { body: ownBytes(zlib.gzipSync(body, { level: 6 })), etag: variantEtag(etag, 'gzip') }, br: null, encode: null };
}

/** Bytes a representation holds: its bodies, and a little for its objects and ETags. */
export const representationBytes = (r: Representation): number =>
  REPRESENTATION_BYTES + r.body.length + (r.gzip?.body.length ?? 0) + (r.br?.body.length ?? 0);
const REPRESENTATION_BYTES = 256;

let lastHeader: string | undefined;
let lastChoice: Encoding | null = null;

/**
 * The preferred coding the client accepts (`br` over `gzip` at equal weight), or null for
 * identity. Honours q-values, `q=0` refusals and `*`. Clients send the same header on every
 * request, so the last answer is remembered.
 */
export function negotiateEncoding(header: string | undefined): Encoding | null {
  if (header === undefined || header === '') return null;
  if (header === lastHeader) return lastChoice;
  let br = -1;
  let gz = -1;
  let star = -1;
  for (const part of header.split(',')) {
    const semi = part.indexOf(';');
    const name = (semi === -1 ? part : part.slice(0, semi)).trim().toLowerCase();
    let q = 1;
    if (semi !== -1) {
      const m = /(?:^|;)\s*q\s*=\s*([0-9.]+)/i.exec(part.slice(semi));
      if (m) q = Number(m[1]);
      if (!Number.isFinite(q)) q = 0;
    }
    if (name === 'br') br = q;
    else if (name === 'gzip' || name === 'x-gzip') gz = q;
    else if (name === '*') star = q;
  }
  if (br === -1) br = star === -1 ? 0 : star;
  if (gz === -1) gz = star === -1 ? 0 : star;
  const choice: Encoding | null = br > 0 && br >= gz ? 'br' : gz > 0 ? 'gzip' : null;
  lastHeader = header;
  lastChoice = choice;
  return choice;
}
