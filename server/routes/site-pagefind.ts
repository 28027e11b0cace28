/**
 * The headers of Pagefind's bundle, served with the site at /pagefind/ (formats/pagefind-bundle.ts):
 * static files a client searches the site with from a CDN, outside the API and its quota. They
 * are assets, not pages: no `Vary: Accept`, no `Link`.
 *
 * CORS-open like the API and the discovery documents (public data, no cookies): a page on another
 * origin imports `pagefind.js` as a module and fetches the shards, both CORS requests (Pagefind's
 * web worker cannot start from another origin, so there it searches on the page's thread).
 */
import type { ServerResponse } from 'node:http';
import { BUNDLE_PATH, isContentHashed } from '../../formats/pagefind-bundle.ts';
import { CACHE_IMMUTABLE } from '../http/cache-policy.ts';

export const isBundlePath = (pathname: string): boolean => pathname.startsWith(BUNDLE_PATH);

/** Same names every build, new bytes: revalidated on each use, so no entry names another build's shards. */
export const ENTRY_CACHE = 'public, no-cache';

/** Pagefind's own file types, which have no registered media type. */
const BINARY = /\.(?:pf_index|pf_fragment|pf_filter|pf_meta|pagefind)$/;

/** Before the file is looked up, so a 304 carries them too. */
export function writeBundleHeaders(res: ServerResponse, pathname: string): void {
  res.setHeader('Cache-Control', isContentHashed(pathname.slice(BUNDLE_PATH.length)) ? CACHE_IMMUTABLE : ENTRY_CACHE);
  res.setHeader('Access-Control-Allow-Origin', '*');
}

/** Once the file is found: a type for the files no media type names (sirv would send none). */
export function writeBundleType(res: ServerResponse, pathname: string): void {
  if (BINARY.test(pathname)) res.setHeader('Content-Type', 'application/octet-stream');
}
