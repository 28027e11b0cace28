/**
 * CORS for the read-only API (Fetch standard, "CORS protocol"). Everything is public and no
 * cookies are involved, so any origin may read: `Access-Control-Allow-Origin: *`. Browsers only
 * show scripts the safelisted response headers, so the quota, version and validator headers are
 * exposed explicitly.
 */
import type { ServerResponse } from 'node:http';
import { EXPOSED_HEADERS } from '../api-headers.ts';
import { setHeaders, type HeaderList } from './header-list.ts';

export const API_METHODS = 'GET, HEAD, OPTIONS';


/** Preflights are cached by browsers for a day (Chromium caps it at 2 hours, Firefox at 24). */
const PREFLIGHT_MAX_AGE = '86400';

/** Headers of every API response that a browser reads. */
export const CORS_HEADERS: readonly string[] = ['Access-Control-Allow-Origin', '*', 'Access-Control-Expose-Headers', EXPOSED_HEADERS];

export function writeCors(res: ServerResponse): void {
  setHeaders(res, CORS_HEADERS as HeaderList);
}

/**
 * Answers a preflight (OPTIONS) of a known operation: 204, no body. `Authorization` (Bearer
 * tokens) and `If-None-Match` (revalidation) are the non-safelisted request headers a client
 * sends. Preflights are not counted against the quota: browsers send them on their own.
 * `headers`: what the answer already carries (the API's version, CORS and Vary).
 */
export function answerPreflight(res: ServerResponse, headers: HeaderList = []): void {
  headers.push(
    'Allow', API_METHODS,
    'Access-Control-Allow-Methods', API_METHODS,
    'Access-Control-Allow-Headers', 'Authorization, If-None-Match',
    'Access-Control-Max-Age', PREFLIGHT_MAX_AGE,
    'Cache-Control', 'public, max-age=86400',
  );
  res.writeHead(204, headers);
  res.end();
}
