/**
 * GET {site_url}/buscar/?q=…&ciudad=…: the site's search results page, for people. It calls the
 * search_pages operation through the operations' pipeline (pipeline/steps.ts), as the API does:
 * the same engine, ranking, city filter and parameter schema, and each search counted on the
 * caller's IP window, the API's anonymous one (a token is never read here), so the page is no way
 * around the API's quota. The answer is the site's shell of the page (search-page/shell.ts), filled:
 *
 * - 200 with the results, or with nothing found said plainly, or, with no query, an invitation to
 *   search (not counted: nothing is searched); `Cache-Control: public` for a short while and
 *   `Vary: Accept-Encoding` only, so a CDN answers identical queries, and an ETag;
 * - 400 for parameters the operation's schema refuses, 429 with Retry-After over quota, 500 on a
 *   failure: HTML pages in the same shell, never cached.
 *
 * Every answer carries the quota's rate-limit headers (once counted) and `X-Robots-Tag: noindex`,
 * as the shell carries its robots meta: result pages are not for search engines.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Route } from '../app.ts';
import type { Credential } from '../auth/bearer.ts';
import { bearerChallenges } from '../auth/bearer.ts';
import { ApiError, noResource } from '../errors.ts';
import { makeDynamicRepresentation, negotiateEncoding } from '../compression.ts';
import { CACHE_PUBLIC } from '../http/cache-policy.ts';
import { sendError } from '../http/error-response.ts';
import type { HeaderList } from '../http/header-list.ts';
import { sendRepresentation } from '../http/respond.ts';
import { searchPages } from '../operations/search-pages.ts';
import { createPipeline, newCall } from '../pipeline/index.ts';
import { SEARCH_PAGE_PATH } from '../../formats/search-page.ts';
import type { SearchResponse } from '../../formats/schemas/resources.ts';
import { createBuildParts, type BuildParts } from '../search-page/build-parts.ts';
import { badRequestHtml, emptyHtml, failedHtml, rateLimitedHtml, resultsHtml } from '../search-page/content.ts';
import { nextPageHref, readPageRequest, refusalReason, type PageRequest } from '../search-page/params.ts';

const HTML_TYPE = 'text/html; charset=utf-8';
const ANONYMOUS: Credential = { kind: 'none' };
const ALL = 'todas';

export const searchPageRoute: Route = (app, deps) => {
  // The operation as the server serves it (with its metrics, when they are on).
  const op = deps.operations.find((o) => o.name === searchPages.name) ?? searchPages;
  const pipeline = createPipeline(deps, {
    challenges: bearerChallenges(deps.config.siteUrl),
    collect: (_op, raw) => raw as Record<string, unknown>,
  });
  const partsOf = createBuildParts({ distDir: deps.config.distDir });

  const send = (req: IncomingMessage, res: ServerResponse, status: number, html: string, headers: HeaderList) => {
    headers.push('X-Robots-Tag', 'noindex', 'Vary', 'Accept-Encoding');
    const rep = makeDynamicRepresentation(Buffer.from(html), negotiateEncoding(req.headers['accept-encoding']));
    if (status === 200) { sendRepresentation(req, res, rep, CACHE_PUBLIC, HTML_TYPE, headers); return; }
    const variant = rep.br ?? rep.gzip;
    headers.push('Cache-Control', 'no-store', 'Content-Type', HTML_TYPE);
    if (variant) headers.push('Content-Encoding', rep.br ? 'br' : 'gzip');
    const body = variant?.body ?? rep.body;
    headers.push('Content-Length', '' + body.length);
    res.writeHead(status, headers);
    res.end(body);
  };

  /** The status, the city shown chosen and the slot's HTML of one request. */
  const result = async (req: IncomingMessage, parts: BuildParts, { query, input }: PageRequest, headers: HeaderList): Promise<[number, string, string]> => {
    if (input.query === '') return [200, typeof input.city === 'string' ? input.city : ALL, emptyHtml(parts)];
    let outcome;
    try {
      outcome = await pipeline.call(newCall(op, req, ANONYMOUS, input, headers));
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) return [400, ALL, badRequestHtml(parts, refusalReason(err, input))];
      throw err;
    }
    if (outcome instanceof ApiError) {
      const seconds = Number(outcome.headers['Retry-After']);
      headers.push('Retry-After', String(seconds));
      return [outcome.status, ALL, rateLimitedHtml(parts, query, seconds)];
    }
    if (!('value' in outcome)) throw new Error('search_pages answered without a value');
    const city = String(input.city ?? ALL);
    const response = outcome.value as SearchResponse;
    const next = response.next_cursor === null ? null : nextPageHref(query, city, response.next_cursor);
    return [200, city, resultsHtml(parts, { query, city, response, later: input.cursor !== undefined, next })];
  };

  const answer = async (req: IncomingMessage, res: ServerResponse, headers: HeaderList): Promise<void> => {
    const parts = await partsOf(deps.model.current());
    if (parts === null) throw noResource('Este servidor no tiene el sitio publicado.', 'Construya el sitio y el modelo de lectura: npm run build.');
    const request = readPageRequest((req.url ?? '').split('?')[1] ?? '');
    const { query } = request;
    const page = (status: number, city: string, results: string) =>
      send(req, res, status, parts.shell.render({ titlePrefix: query === '' ? '' : `«${query}» · `, query, city, results }), headers);
    try {
      page(...await result(req, parts, request, headers));
    } catch (err) {
      if (res.headersSent) throw err;
      deps.log.error('search page failed', err);
      page(500, ALL, failedHtml(parts, query));
    }
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const headers: HeaderList = [];
    answer(req, res, headers).catch((err: unknown) => sendError(res, err, deps.log));
  };
  for (const path of [SEARCH_PAGE_PATH, `${SEARCH_PAGE_PATH}index.html`]) {
    app.get(path, handle);
    app.head(path, handle);
  }
};
