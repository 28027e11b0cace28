/**
 * The Markdown representation of every published page, for clients that ask for it with
 * `Accept: text/markdown` at the page's own URL: the full text the read model holds (the same
 * Markdown read_page returns, never cut), with a strong ETag derived from the page's content hash
 * and `If-None-Match` → 304. Bodies and their gzip/brotli encodings are prepared on a page's
 * first Markdown request and kept in its build's hot set (read-model/page-store.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendRepresentation } from '../http/respond.ts';
import type { LoadedModel, LoadedPage } from '../read-model/types.ts';

export const MARKDOWN_CONTENT_TYPE = 'text/markdown; charset=utf-8';

/** Request path → the read-model key: `/precios` and `/precios/index.html` are `/precios/`. */
export function pageKey(pathname: string): string {
  if (pathname.endsWith('/index.html')) return pathname.slice(0, -'index.html'.length);
  return pathname.endsWith('/') ? pathname : `${pathname}/`;
}

export function findPage(model: LoadedModel, pathname: string): LoadedPage | undefined {
  return model.byPath.get(pageKey(pathname));
}

/** Writes the page's Markdown (200 or 304); headers common to every page response are the caller's. */
export async function sendMarkdown(req: IncomingMessage, res: ServerResponse, model: LoadedModel, page: LoadedPage, cacheControl: string): Promise<void> {
  const rep = await model.markdownOf(page);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  sendRepresentation(req, res, rep, cacheControl, MARKDOWN_CONTENT_TYPE);
}
