/**
 * The Markdown representation of every published page, for clients that ask for it with
 * `Accept: text/markdown` at the page's own URL: the full text the read model holds (the same
 * Markdown read_page returns, never cut), with a strong ETag derived from the page's content hash
 * and `If-None-Match` → 304. Bodies and their gzip/brotli encodings are prepared on a page's
 * first Markdown request and kept with that page, so a new build starts afresh.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { makeRepresentation } from '../compression.ts';
import { sendRepresentation } from '../http/respond.ts';
import type { LoadedModel, LoadedPage, Representation } from '../read-model/types.ts';

export const MARKDOWN_CONTENT_TYPE = 'text/markdown; charset=utf-8';

/** Request path → the read-model key: `/precios` and `/precios/index.html` are `/precios/`. */
export function pageKey(pathname: string): string {
  if (pathname.endsWith('/index.html')) return pathname.slice(0, -'index.html'.length);
  return pathname.endsWith('/') ? pathname : `${pathname}/`;
}

export function findPage(model: LoadedModel, pathname: string): LoadedPage | undefined {
  return model.byPath.get(pageKey(pathname));
}

/** `"md-<hash>"`: tied to the content (title + Markdown), distinct from the HTML's validator. */
const markdownEtag = (page: LoadedPage) => `"md-${page.hash.slice(0, 32)}"`;

const prepared = new WeakMap<LoadedPage, Promise<Representation>>();

export function markdownRepresentation(page: LoadedPage): Promise<Representation> {
  let rep = prepared.get(page);
  if (rep === undefined) {
    rep = (async () => {
      const made = await makeRepresentation(Buffer.from(page.markdown.endsWith('\n') ? page.markdown : `${page.markdown}\n`));
      const etag = markdownEtag(page);
      const variant = (v: Representation['br'], enc: string) => (v === null ? null : { body: v.body, etag: `${etag.slice(0, -1)}-${enc}"` });
      return { body: made.body, etag, br: variant(made.br, 'br'), gzip: variant(made.gzip, 'gzip') };
    })();
    // A failure is answered (500) and not remembered: the next request tries again.
    rep.catch(() => prepared.delete(page));
    prepared.set(page, rep);
  }
  return rep;
}

/** Writes the page's Markdown (200 or 304); headers common to every page response are the caller's. */
export async function sendMarkdown(req: IncomingMessage, res: ServerResponse, page: LoadedPage, cacheControl: string): Promise<void> {
  const rep = await markdownRepresentation(page);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  sendRepresentation(req, res, rep, cacheControl, MARKDOWN_CONTENT_TYPE);
}
