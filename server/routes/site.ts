/**
 * The built Astro site, answered for every request no API route matched: the copy published
 * inside the current read-model build (`builds/<id>/site`, see build-scripts/stages/site.ts), so
 * a rebuild switches pages and read model at once; `DIST_DIR/client` for a build without one.
 * Files are served with their precompressed .br/.gz siblings when accepted; hashed assets under
 * /_astro/ are immutable, pages revalidate. Pagefind's bundle under /pagefind/ is served from the
 * read-model folder's bundles, with headers of its own (site-pagefind.ts).
 *
 * Every page response (HTML, Markdown, 304, the 404 page) carries `Vary: Accept` — a page has an
 * HTML and a Markdown representation (server/routes/markdown.ts), chosen by `Accept` — and a
 * `Link` to the API catalogue (RFC 9727 §3), to /llms.txt and to the page's own Markdown
 * (`rel="alternate"; type="text/markdown"`). Asset requests skip all of it. A 404 outside the
 * machine paths is the HTML 404 page or the JSON error by `Accept`, so it carries `Vary: Accept`
 * on any path.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import sirv from 'sirv';
import type { AppDeps, Fallback } from '../app.ts';
import { methodNotAllowed, noResource } from '../errors.ts';
import { sendError } from '../http/error-response.ts';
import { DISCOVERY_PATHS } from '../discovery/links.ts';
import { prefersMarkdown } from '../http/accept.ts';
import { normalizeRange } from '../http/range.ts';
import { addVary } from '../http/vary.ts';
import { CACHE_IMMUTABLE } from '../http/cache-policy.ts';
import { findPage, sendMarkdown } from './markdown.ts';
import { API_BASE } from '../paths.ts';
import { bundleFiles, isBundlePath, writeBundleHeaders } from './site-pagefind.ts';
import { BUNDLES_DIR } from '../../formats/pagefind-bundle.ts';

/** Paths that belong to machines: unknown ones get a JSON 404, never the HTML 404 page. */
const MACHINE_PREFIXES = ['/wp-json/', '/oauth/', '/.well-known/', '/agent/', '/mcp'];

const ASSET_PREFIX = '/_astro/';
export const PAGE_CACHE = 'public, max-age=300, must-revalidate';
export const PAGE_VARY = 'Accept, Accept-Encoding';
/**
 * Relative references (RFC 8288 §3.1), resolved against the page's own URL: right under any
 * host the site is reached by.
 */
export const PAGE_LINK = `<${DISCOVERY_PATHS.apiCatalog}>; rel="api-catalog", <${DISCOVERY_PATHS.llmsTxt}>; rel="describedby"; type="text/plain"`;

/** A path segment that starts with a dot (raw or percent-encoded), as sirv's folder index left out. */
const DOT_SEGMENT = /\/(?:\.|%2e)/i;

const isMachinePath = (pathname: string) => MACHINE_PREFIXES.some((p) => pathname.startsWith(p));

/** A path a page answers at (`/`, `/precios/`, `/precios`, `/precios/index.html`), not a file like `/favicon.svg`. */
function isPagePath(pathname: string): boolean {
  if (pathname.endsWith('/') || pathname.endsWith('.html')) return true;
  return !pathname.slice(pathname.lastIndexOf('/') + 1).includes('.');
}

/** A path that can be written in a Link target as it is. */
const PLAIN_PATH = /^\/[A-Za-z0-9\-._~!$&'()*+;=:@%/]*$/;

/** The Link of a page at `pathname`: PAGE_LINK and, for a plain path, the page's Markdown. */
export const pageLink = (pathname: string): string =>
  (PLAIN_PATH.test(pathname) ? `${PAGE_LINK}, <${pathname}>; rel="alternate"; type="text/markdown"` : PAGE_LINK);

function writePageHeaders(res: ServerResponse, pathname: string): void {
  res.setHeader('Cache-Control', PAGE_CACHE);
  res.setHeader('Vary', PAGE_VARY);
  res.setHeader('Link', pageLink(pathname));
}

interface SiteFiles {
  serve: (req: IncomingMessage, res: ServerResponse) => void;
}

export function siteFallback(deps: AppDeps): Fallback {
  const machineNotFound = (res: ServerResponse) => sendError(res, noResource('No existe ningún recurso en esta dirección.', `Compruebe la URL; la API está en ${API_BASE} y su descripción en /openapi.json.`), deps.log);

  /**
   * The static handler of one site folder, made on first use for each read-model build and
   * dropped with the model: a publish switches HTML and read model together. sirv looks each
   * request's file up on disk (its `dev` mode) instead of indexing the whole folder when created:
   * an index holds every file's stats and headers, for three files a page (HTML, .gz, .br), so its
   * memory and start time grow with the site. The headers
   * are the same either way (setHeaders sets Cache-Control after sirv's own).
   */
  const filesOf = (root: string): SiteFiles => {
    const notFoundFile = path.join(root, '404.html');
    const notFoundHtml = fs.existsSync(notFoundFile) ? fs.readFileSync(notFoundFile) : null;

    const notFound = (req: IncomingMessage, res: ServerResponse) => {
      const pathname = (req.url || '/').split('?')[0]!;
      res.setHeader('Cache-Control', 'no-cache');
      if (!notFoundHtml || isMachinePath(pathname)) { machineNotFound(res); return; }
      // The HTML page or the JSON error, by Accept: a cache must keep them apart, on any path.
      addVary(res, 'Accept');
      if (!(req.headers.accept || '').includes('text/html')) { machineNotFound(res); return; }
      res.statusCode = 404;
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(req.method === 'HEAD' ? undefined : notFoundHtml);
    };

    // Without a built site (API-only tests, or before the first build) every page is a 404.
    if (!fs.existsSync(root)) return { serve: notFound };
    const handler = sirv(root, {
      dev: true,
      etag: true,
      gzip: true,
      brotli: true,
      dotfiles: false,
      extensions: ['html'],
      setHeaders(res, pathname) {
        if (pathname.startsWith(ASSET_PREFIX)) {
          res.setHeader('Cache-Control', CACHE_IMMUTABLE);
          return;
        }
        res.setHeader('Cache-Control', PAGE_CACHE);
        // sirv has just set `Vary: Accept-Encoding`; pages vary on Accept too.
        if (isPagePath(pathname) && !isMachinePath(pathname)) res.setHeader('Vary', PAGE_VARY);
        if (pathname.endsWith('.html')) res.setHeader('Content-Type', 'text/html; charset=utf-8');
      },
      onNoMatch: notFound,
    });
    return {
      serve(req, res) {
        // The folder index skipped dot-files; a lookup on disk must refuse them itself.
        if (DOT_SEGMENT.test((req.url || '/').split('?')[0]!)) { notFound(req, res); return; }
        // sirv pipes a file stream with no error listener: a file removed under a running server
        // (an old build pruned) would otherwise end the process.
        res.once('pipe', (src: NodeJS.ReadableStream) => src.once('error', () => res.destroy()));
        normalizeRange(req);
        handler(req, res);
      },
    };
  };

  // Pagefind's bundle is a script's asset: a file it lacks is the JSON 404, never the HTML page.
  const bundleNotFound = (_req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('Cache-Control', 'no-cache');
    machineNotFound(res);
  };
  const bundle = bundleFiles(path.join(deps.config.readModelDir, BUNDLES_DIR), bundleNotFound);

  // A build without its own site (fixtures, models written by hand) falls back to DIST_DIR.
  let fallbackFiles: SiteFiles | undefined;
  const perModel = new WeakMap<object, SiteFiles>();
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    const model = deps.model.current();
    if (model.siteDir === null) { (fallbackFiles ??= filesOf(path.join(deps.config.distDir, 'client'))).serve(req, res); return; }
    let files = perModel.get(model);
    if (files === undefined) { files = filesOf(model.siteDir); perModel.set(model, files); }
    files.serve(req, res);
  };

  return (req, res) => {
    const pathname = (req.url || '/').split('?')[0]!;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      if (isMachinePath(pathname)) {
        sendError(res, noResource('No existe ningún recurso en esta dirección.', 'Compruebe la URL y el método.'), deps.log);
        return;
      }
      sendError(res, methodNotAllowed('GET, HEAD', { message: 'El sitio solo admite GET y HEAD.', hint: 'Use GET.' }), deps.log);
      return;
    }
    if (isBundlePath(pathname)) {
      writeBundleHeaders(res, pathname);
      // The DOT_SEGMENT check as for the site: a lookup on disk must refuse dot-files itself.
      if (DOT_SEGMENT.test(pathname)) bundleNotFound(req, res);
      else bundle(req, res);
      return;
    }
    if (pathname.startsWith(ASSET_PREFIX) || !isPagePath(pathname) || isMachinePath(pathname)) {
      serve(req, res);
      return;
    }
    writePageHeaders(res, pathname);
    if (prefersMarkdown(req.headers.accept)) {
      const model = deps.model.current();
      const page = findPage(model, pathname);
      if (page !== undefined) {
        sendMarkdown(req, res, model, page, PAGE_CACHE).catch((err) => sendError(res, err, deps.log));
        return;
      }
    }
    serve(req, res);
  };
}
