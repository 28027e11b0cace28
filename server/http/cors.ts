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

/** What a preflight allows: the methods of the resource and the non-safelisted request headers a client sends. */
export interface PreflightPolicy {
  methods: string;
  requestHeaders: string;
}

/**
 * The API's: `Authorization` (Bearer tokens) and `If-None-Match` (revalidation) are the
 * non-safelisted request headers a client sends.
 */
export const API_PREFLIGHT: PreflightPolicy = { methods: API_METHODS, requestHeaders: 'Authorization, If-None-Match' };

/**
 * Answers a preflight (OPTIONS) of a known resource: 204, no body. Preflights are not counted
 * against the quota: browsers send them on their own. `headers`: what the answer already carries
 * (the API's version, CORS and Vary); without `Access-Control-Allow-Origin` there or on `res`,
 * a browser fails the preflight.
 */
export function answerPreflight(res: ServerResponse, headers: HeaderList = [], policy: PreflightPolicy = API_PREFLIGHT): void {
  headers.push(
    'Allow', policy.methods,
    'Access-Control-Allow-Methods', policy.methods,
    'Access-Control-Allow-Headers', policy.requestHeaders,
    'Access-Control-Max-Age', PREFLIGHT_MAX_AGE,
    'Cache-Control', 'public, max-age=86400',
  );
  res.writeHead(204, headers);
  res.end();
}
