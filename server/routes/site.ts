/**
 * The built Astro site (static output in dist/client), answered for every request no API
 * route matched. Files are served with their precompressed .br/.gz siblings when accepted;
 * hashed assets under /_astro/ are immutable, pages revalidate.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import sirv from 'sirv';
import type { AppDeps, Fallback } from '../app.ts';
import { ApiError, API_CODES, sendError } from '../errors.ts';

/** Paths that belong to machines: unknown ones get a JSON 404, never the HTML 404 page. */
const MACHINE_PREFIXES = ['/wp-json/', '/oauth/', '/.well-known/', '/agent/', '/mcp'];

export function siteFallback(deps: AppDeps): Fallback {
  const root = path.join(deps.config.distDir, 'client');
  const notFoundFile = path.join(root, '404.html');
  const notFoundHtml = fs.existsSync(notFoundFile) ? fs.readFileSync(notFoundFile) : null;

  const notFound = (req: IncomingMessage, res: ServerResponse) => {
    const pathname = (req.url || '/').split('?')[0]!;
    const wantsHtml = (req.headers.accept || '').includes('text/html');
    if (!notFoundHtml || !wantsHtml || MACHINE_PREFIXES.some((p) => pathname.startsWith(p))) {
      sendError(res, new ApiError(404, API_CODES.noRoute, 'No existe ningún recurso en esta dirección.', 'Compruebe la URL; la API está en /wp-json/agentes/v1 y su descripción en /openapi.json.'), deps.log);
      return;
    }
    res.statusCode = 404;
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.end(req.method === 'HEAD' ? undefined : notFoundHtml);
  };

  // Without a built site (API-only tests, or before the first build) every page is a 404.
  if (!fs.existsSync(root)) return (req, res) => notFound(req, res);

  const serve = sirv(root, {
    dev: false,
    etag: true,
    gzip: true,
    brotli: true,
    dotfiles: false,
    extensions: ['html'],
    setHeaders(res, pathname) {
      if (pathname.startsWith('/_astro/')) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      else res.setHeader('Cache-Control', 'public, max-age=300, must-revalidate');
      if (pathname.endsWith('.html')) res.setHeader('Content-Type', 'text/html; charset=utf-8');
    },
    onNoMatch: notFound,
  });

  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const pathname = (req.url || '/').split('?')[0]!;
      if (MACHINE_PREFIXES.some((p) => pathname.startsWith(p))) {
        sendError(res, new ApiError(404, API_CODES.noRoute, 'No existe ningún recurso en esta dirección.', 'Compruebe la URL y el método.'), deps.log);
        return;
      }
      sendError(res, new ApiError(405, API_CODES.methodNotAllowed, 'El sitio solo admite GET y HEAD.', 'Use GET.', { Allow: 'GET, HEAD' }), deps.log);
      return;
    }
    serve(req, res);
  };
}
