/**
 * Writes a 200 (or 304) of an API operation from a representation: the encoding the client
 * accepts, its strong ETag, `If-None-Match` → 304 with the same headers and no body, and no body
 * for HEAD (Node drops it; Content-Length stays that of GET).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Representation } from '../read-model/types.ts';
import { makeDynamicRepresentation, negotiateEncoding, type Encoding } from './compression.ts';
import { ifNoneMatchHits } from './conditional.ts';

export function sendRepresentation(
  req: IncomingMessage,
  res: ServerResponse,
  rep: Representation,
  cacheControl: string,
  contentType = 'application/json; charset=utf-8',
): void {
  const enc = rep.gzip === null && rep.br === null ? null : negotiateEncoding(req.headers['accept-encoding']);
  const variant = enc === 'br' ? rep.br : enc === 'gzip' ? rep.gzip : null;
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('ETag', variant === null ? rep.etag : variant.etag);
  if (ifNoneMatchHits(req.headers['if-none-match'], rep)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  const body = variant === null ? rep.body : variant.body;
  res.statusCode = 200;
  res.setHeader('Content-Type', contentType);
  if (variant !== null) res.setHeader('Content-Encoding', enc!);
  res.setHeader('Content-Length', body.length);
  res.end(body);
}

/** A body built for this request (search results): serialized here, compressed when large. */
export function sendDynamic(req: IncomingMessage, res: ServerResponse, json: string, cacheControl: string): void {
  const rep = makeDynamicRepresentation(Buffer.from(json), negotiateEncoding(req.headers['accept-encoding']));
  sendRepresentation(req, res, rep, cacheControl);
}

/** Serialized bodies of shared response objects, per encoding, kept as long as the object lives. */
const serialized = new WeakMap<object, { body: Buffer; reps: Map<Encoding | null, Representation> }>();

/**
 * A per-request value that its producer hands out again, frozen, for the same request (search
 * results: see SearchEngine.search): serialized, hashed and compressed on first use only.
 */
export function sendSerialized(req: IncomingMessage, res: ServerResponse, value: object, cacheControl: string): void {
  let entry = serialized.get(value);
  if (entry === undefined) {
    entry = { body: Buffer.from(JSON.stringify(value)), reps: new Map() };
    serialized.set(value, entry);
  }
  const enc = negotiateEncoding(req.headers['accept-encoding']);
  let rep = entry.reps.get(enc);
  if (rep === undefined) {
    rep = makeDynamicRepresentation(entry.body, enc);
    entry.reps.set(enc, rep);
  }
  sendRepresentation(req, res, rep, cacheControl);
}
