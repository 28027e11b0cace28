/**
 * Writes a 200 (or 304) of an API operation from a representation: the encoding the client
 * accepts (made now when it is the first to ask for it), its strong ETag, `If-None-Match` → 304
 * with the same headers and no body, and no body for HEAD (Node drops it; Content-Length stays
 * that of GET). Everything is written with one `writeHead`, after the headers the caller
 * collected in `headers` (header-list.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { JSON_CONTENT_TYPE } from './json.ts';
import type { Representation } from '../read-model/types.ts';
import { makeDynamicRepresentation, negotiateEncoding, representationBytes, type Encoding } from '../compression.ts';
import { keptWith } from '../kept-with.ts';
import { ownBytes } from '../own-bytes.ts';
import { ifNoneMatchHits } from './conditional.ts';
import type { HeaderList } from './header-list.ts';

export function sendRepresentation(
  req: IncomingMessage,
  res: ServerResponse,
  rep: Representation,
  cacheControl: string,
  contentType = JSON_CONTENT_TYPE,
  headers: HeaderList = [],
): void {
  const enc = rep.gzip === null && rep.br === null ? null : negotiateEncoding(req.headers['accept-encoding']);
  let variant = enc === 'br' ? rep.br : enc === 'gzip' ? rep.gzip : null;
  if (variant === undefined) variant = rep.encode!(enc!);
  headers.push('Cache-Control', cacheControl, 'ETag', variant === null ? rep.etag : variant.etag);
  if (ifNoneMatchHits(req.headers['if-none-match'], rep)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  const body = variant === null ? rep.body : variant.body;
  headers.push('Content-Type', contentType);
  if (variant !== null) headers.push('Content-Encoding', enc!);
  headers.push('Content-Length', '' + body.length);
  res.writeHead(200, headers);
  res.end(body);
}

/** Serialized bodies of shared response objects, per encoding, kept as long as the object lives. */
const serialized = new WeakMap<object, { body: Buffer; reps: Map<Encoding | null, Representation> }>();
/** Heap bytes of a serialized entry besides its bodies. */
const SERIALIZED_BYTES = 128;

/**
 * A per-request value that its producer hands out again, frozen, for the same request (search
 * results: see SearchEngine.search): serialized, hashed and compressed on first use only. The
 * bytes kept with it are told to the cache that holds it (kept-with.ts).
 */
export function sendSerialized(req: IncomingMessage, res: ServerResponse, value: object, cacheControl: string, headers: HeaderList = []): void {
  let entry = serialized.get(value);
  if (entry === undefined) {
    entry = { body: ownBytes(Buffer.from(JSON.stringify(value))), reps: new Map() };
    serialized.set(value, entry);
    keptWith(value, SERIALIZED_BYTES + entry.body.length);
  }
  const enc = negotiateEncoding(req.headers['accept-encoding']);
  let rep = entry.reps.get(enc);
  if (rep === undefined) {
    rep = makeDynamicRepresentation(entry.body, enc);
    entry.reps.set(enc, rep);
    // Its identity body is the entry's, already told.
    keptWith(value, representationBytes(rep) - rep.body.length);
  }
  sendRepresentation(req, res, rep, cacheControl, JSON_CONTENT_TYPE, headers);
}
