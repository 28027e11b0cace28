/**
 * Writes a 200 (or 304) of an API operation from a representation: the encoding the client
 * accepts, its strong ETag, `If-None-Match` → 304 with the same headers and no body, and no body
 * for HEAD (Node drops it; Content-Length stays that of GET).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Representation } from '../read-model/types.ts';
import { makeDynamicRepresentation, negotiateEncoding } from './compression.ts';
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
