/**
 * The content API under {site_url}/wp-json/agentes/v1, one file per operation. Every request
 * goes through the same steps, in this order:
 *
 *   1. API-Version (+ deprecation headers when configured), CORS and `Vary` on every answer;
 *   2. the operation: unknown (or the bare base) → 404 `rest_no_route`; OPTIONS → preflight 204;
 *      a method other than GET/HEAD → 405 `rest_method_not_allowed` with `Allow`;
 *   3. the bearer check (bearer.ts): no token, a valid token, or an invalid credential;
 *   4. the quota step (ratelimit.ts): counted on the client's window when the token identifies
 *      it, else on the IP's anonymous window — an invalid credential included, so its 401 carries
 *      the headers of that IP's anonymous bucket and counts against it; over the limit → 429;
 *   5. an invalid credential → 401 (after the quota, so the 401 has the rate-limit headers); a
 *      token that cannot be checked because the store is down → 503 the same way;
 *   6. the operation: parameters (400), lookup (404), 200 or 304.
 * Anything thrown becomes one response in `sendError`, with `Cache-Control: no-store`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppDeps } from '../../app.ts';
import { chain } from '../../chain.ts';
import { methodNotAllowed, noRoute, sendError } from '../../errors.ts';
import { bearerChallenges, readCredential, type Credential } from '../../auth/bearer.ts';
import { createClientIpResolver } from '../../net/client-ip.ts';
import { answerPreflight, API_METHODS, CORS_HEADERS } from '../../http/cors.ts';
import type { HeaderList } from '../../http/header-list.ts';
import type { QuotaState } from '../../quota/headers.ts';
import { anonymousSubject, createQuotaStep, identifiedSubject } from '../../quota/ratelimit.ts';
import { versionHeaderList } from '../../api-headers.ts';
import { createPageResolver } from '../../read-model/url.ts';
import { getCompanyInfoOperation } from './get-company-info.ts';
import type { ApiShared, Operation } from './operation.ts';
import { parseQuery } from './query.ts';
import { quotaOperation } from './quota.ts';
import { readPageOperation } from './read-page.ts';
import { searchPagesOperation } from './search-pages.ts';

import { API_BASE } from '../../paths.ts';

/**
 * Content answers may be cached briefly: by anyone without a token, only by the client with one
 * (the body is the same, but a shared cache must not answer for a token holder's quota).
 */
export const CACHE_PUBLIC = 'public, max-age=60';
export const CACHE_PRIVATE = 'private, max-age=60';
const VARY = 'Authorization, Accept-Encoding';

/** One API request on its way through the steps above. */
interface Pending {
  req: IncomingMessage;
  res: ServerResponse;
  /** Every header of the answer so far; written with the status in one `writeHead`. */
  headers: HeaderList;
  op: Operation;
  /** The query string, without `?`. */
  search: string;
  credential: Credential;
}

/**
 * The API as a plain Node request handler. It reads `req.url` itself (path and query), so it
 * serves the same whether Polka routes to it or a server mounts it in front of the router for
 * requests under API_BASE (which skips the router's generic URL and query parsing).
 *
 * Each step continues at once when it has its answer (memory store, no token) and after its
 * promise otherwise (Redis, a token lookup): see chain.ts.
 */
export function createApiHandler(deps: AppDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const challenges = bearerChallenges(deps.config.siteUrl);
  const shared: ApiShared = { deps, resolvePage: createPageResolver(deps.config.siteUrl) };
  const operations = new Map<string, Operation>([
    searchPagesOperation(shared),
    readPageOperation(shared),
    getCompanyInfoOperation(shared),
    quotaOperation(challenges),
  ].map((op) => [op.name, op]));
  const clientIp = createClientIpResolver(deps.config.trustProxy);
  const quotaStep = createQuotaStep(deps);
  /** Headers of every API answer: version (and deprecation), CORS, Vary. */
  const common: HeaderList = [...versionHeaderList(deps.config), ...CORS_HEADERS, 'Vary', VARY];

  /** `/wp-json/agentes/v1/<name>` or `…/<name>/` → the operation; anything else is no route. */
  const operationOf = (path: string): Operation | undefined => {
    if (path.length <= API_BASE.length + 1 || !path.startsWith(API_BASE + '/')) return undefined;
    const end = path.endsWith('/') ? path.length - 1 : path.length;
    return operations.get(path.slice(API_BASE.length + 1, end));
  };

  const handle = (req: IncomingMessage, res: ServerResponse, headers: HeaderList): void | Promise<void> => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const op = operationOf(q === -1 ? url : url.slice(0, q));
    if (op === undefined) throw noRoute();
    const method = req.method;
    if (method === 'OPTIONS') return answerPreflight(res, headers);
    if (method !== 'GET' && method !== 'HEAD') throw methodNotAllowed(API_METHODS);
    const search = q === -1 ? '' : url.slice(q + 1);
    return chain(readCredential(req, deps.tokens, challenges), (credential) => count({ req, res, headers, op, search, credential }));
  };

  const count = (p: Pending): void | Promise<void> => {
    const { credential } = p;
    const subject = credential.kind === 'token' && p.op.identifies(credential)
      ? identifiedSubject(credential.token.client_id)
      : anonymousSubject(clientIp(p.req));
    return chain(quotaStep.count(subject, p.headers), (quota) => run(p, quota));
  };

  const run = (p: Pending, quota: QuotaState): void | Promise<void> => {
    const { credential, req } = p;
    // Answered, not thrown: an over-quota client sends many requests (see QuotaStep).
    const refusal = quotaStep.refusal(quota);
    if (refusal !== null) return fail(p.res, p.headers, refusal);
    if (credential.kind === 'invalid') throw credential.error;
    return p.op.run({
      req,
      res: p.res,
      headers: p.headers,
      query: parseQuery(p.search),
      credential,
      quota,
      cacheControl: req.headers.authorization ? CACHE_PRIVATE : CACHE_PUBLIC,
    });
  };

  const fail = (res: ServerResponse, headers: HeaderList, err: unknown) => {
    headers.push('Cache-Control', 'no-store');
    sendError(res, err, deps.log, headers);
  };

  return (req, res) => {
    const headers = common.slice();
    try {
      const done = handle(req, res, headers);
      if (done instanceof Promise) done.catch((err: unknown) => fail(res, headers, err));
    } catch (err) {
      fail(res, headers, err);
    }
  };
}
