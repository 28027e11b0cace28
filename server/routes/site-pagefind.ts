/**
 * Pagefind's bundle at /pagefind/ (formats/pagefind-bundle.ts): static files a client searches the
 * site with from a CDN, outside the API and its quota. They are assets, not pages: no
 * `Vary: Accept`, no `Link`. The bundle served is the one the read-model folder's `pagefind/current`
 * names at the time of the request; a content-hashed file it lacks comes from another bundle kept,
 * so a client that loaded the previous bundle's entry before the switch still finds its shards.
 *
 * CORS-open like the API and the discovery documents (public data, no cookies): a page on another
 * origin imports `pagefind.js` as a module and fetches the shards, both CORS requests (Pagefind's
 * web worker cannot start from another origin, so there it searches on the page's thread).
 */
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import sirv from 'sirv';
import { BUNDLE_PATH, currentBundle, isContentHashed } from '../../formats/pagefind-bundle.ts';
import { CACHE_IMMUTABLE } from '../http/cache-policy.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

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

/** Handlers kept for bundles seen lately: more than this, and they are made again on use. */
const HANDLERS_KEPT = 4;

/**
 * Serves BUNDLE_PATH from the bundles in `root` (the read model's BUNDLES_DIR); `notFound` answers
 * a file no bundle has, or any file before the first bundle is written.
 */
export function bundleFiles(root: string, notFound: Handler): Handler {
  const handlers = new Map<string, Handler>();
  const handlerOf = (id: string): Handler => {
    let handler = handlers.get(id);
    if (handler) return handler;
    if (handlers.size >= HANDLERS_KEPT) handlers.clear();
    handler = sirv(path.join(root, id), {
      // Looked up on disk per request: a bundle's folder may go while the server runs.
      dev: true,
      etag: true,
      gzip: true,
      brotli: true,
      dotfiles: false,
      setHeaders(res, pathname) {
        if (BINARY.test(pathname)) res.setHeader('Content-Type', 'application/octet-stream');
      },
      onNoMatch: (req, res) => fromAnother(id, req, res),
    });
    handlers.set(id, handler);
    return handler;
  };
  const fromAnother = (tried: string, req: IncomingMessage, res: ServerResponse) => {
    const rel = (req.url || '/').split('?')[0]!.slice(1);
    const other = isContentHashed(rel) ? kept(root).find((id) => id !== tried && fs.existsSync(path.join(root, id, rel))) : undefined;
    if (other === undefined) notFound(req, res);
    else handlerOf(other)(req, res);
  };
  return (req, res) => {
    const id = currentBundle(root);
    if (id === null) { notFound(req, res); return; }
    const url = req.url || '/';
    // The bundle's folder is served at BUNDLE_PATH: sirv looks up the path below it.
    req.url = url.slice(BUNDLE_PATH.length - 1);
    // sirv pipes a file stream with no error listener: a bundle removed under a running server
    // would otherwise end the process.
    res.once('pipe', (src: NodeJS.ReadableStream) => src.once('error', () => res.destroy()));
    handlerOf(id)(req, res);
  };
}

/** The bundles in `root`, newest first. */
function kept(root: string): string[] {
  return fs.readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name).sort().reverse();
}
