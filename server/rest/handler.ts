/**
 * The content API under {site_url}/wp-json/agentes/v1: the REST adapter of the operations
 * (server/operations) and their pipeline (server/pipeline). Every request:
 *
 *   1. API-Version (+ deprecation headers when configured), CORS and `Vary` on every answer;
 *   2. the operation, as the front door matched it (routes/table.ts): none (or the bare base) →
 *      404 `rest_no_route`; OPTIONS →
 *      preflight 204; a method other than GET/HEAD → 405 `rest_method_not_allowed` with `Allow`;
 *   3. the bearer credential (auth/bearer.ts);
 *   4. the pipeline's steps (count, refuse, credential, access, input, run);
 *   5. the outcome: 200 or 304 with the operation's caching, or the error.
 * Anything thrown becomes one response in `sendError`, with `Cache-Control: no-store`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppDeps } from '../app.ts';
import { chain } from '../chain.ts';
import { ApiError, methodNotAllowed, noRoute } from '../errors.ts';
import { sendError } from '../http/error-response.ts';
import { JSON_CONTENT_TYPE, sendJson } from '../http/json.ts';
import { bearerChallenges, readCredential, type Credential } from '../auth/bearer.ts';
import { answerPreflight, API_METHODS, CORS_HEADERS } from '../http/cors.ts';
import type { HeaderList } from '../http/header-list.ts';
import { sendRepresentation, sendSerialized } from '../http/respond.ts';
import { versionHeaderList } from '../api-headers.ts';
import { createPipeline, newCall, type Call, type Outcome } from '../pipeline/index.ts';
import { CACHE_PRIVATE, CACHE_PUBLIC } from '../http/cache-policy.ts';
import { createCollector } from './collect.ts';
import { parseQuery } from './query.ts';
import type { RouteHandler, RouteMatch } from '../routes/table.ts';

const VARY = 'Authorization, Accept-Encoding';

/** The API as a plain Node request handler, given the request's match (its operation and query string). */
export function createApiHandler(deps: AppDeps): RouteHandler {
  const collect = createCollector();
  const challenges = bearerChallenges(deps.config.siteUrl);
  const pipeline = createPipeline(deps, {
    challenges,
    // The query string is parsed only for a call that gets as far as its input.
    collect: (op, raw) => collect(op, parseQuery(raw as string)),
  });
  const noSuchOperation = noRoute(deps.operations.map((op) => op.path));
  /** Headers of every API answer: version (and deprecation), CORS, Vary. */
  const common: HeaderList = [...versionHeaderList(deps.config), ...CORS_HEADERS, 'Vary', VARY];

  const handle = (req: IncomingMessage, res: ServerResponse, { op, search }: RouteMatch, headers: HeaderList): void | Promise<void> => {
    if (op === undefined) throw noSuchOperation;
    const method = req.method;
    if (method === 'OPTIONS') return answerPreflight(res, headers);
    if (method !== 'GET' && method !== 'HEAD') throw methodNotAllowed(API_METHODS);
    return chain(readCredential(req, deps.tokens, challenges), (credential: Credential) => {
      const call = newCall(op, req, credential, search, headers);
      const outcome = pipeline.call(call);
      if (outcome instanceof Promise) return outcome.then((o) => answer(req, res, call, o));
      return answer(req, res, call, outcome);
    });
  };

  const answer = (req: IncomingMessage, res: ServerResponse, call: Call, outcome: Outcome): void => {
    if (outcome instanceof ApiError) return fail(res, call.headers, outcome);
    // The body is the same, but a shared cache must not answer for a token holder's quota.
    const cacheControl = req.headers.authorization ? CACHE_PRIVATE : CACHE_PUBLIC;
    if ('representation' in outcome) {
      sendRepresentation(req, res, outcome.representation, cacheControl, JSON_CONTENT_TYPE, call.headers);
    } else if (call.op!.cacheable) {
      sendSerialized(req, res, outcome.value, cacheControl, call.headers);
    } else {
      sendJson(res, 200, JSON.stringify(outcome.value), { 'Cache-Control': 'no-store' }, call.headers);
    }
  };

  const fail = (res: ServerResponse, headers: HeaderList, err: unknown) => {
    headers.push('Cache-Control', 'no-store');
    sendError(res, err, deps.log, headers);
  };

  return (req, res, route) => {
    const headers = common.slice();
    try {
      const done = handle(req, res, route, headers);
      if (done instanceof Promise) done.catch((err: unknown) => fail(res, headers, err));
    } catch (err) {
      fail(res, headers, err);
    }
  };
}
