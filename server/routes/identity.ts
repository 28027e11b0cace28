/**
 * GET {site_url}/agent/identity — the agent_identity operation (operations/agent-identity.ts) at
 * its own address, through the operations' pipeline (pipeline/steps.ts): every call counts, a
 * valid token on its client's `identificado` window, with the rate-limit headers and, once the
 * window is used up, 429 with Retry-After; anything else on its IP's anonymous window: none → 401
 * with `resource_metadata`, a bad one → 401 `invalid_token` (conformance.md §3), so token guessing
 * here is throttled too. Browsers may call it from any origin, as the API (http/cors.ts),
 * preflight included; its answers carry the API's version headers and `Cache-Control: no-store`.
 * Its query string is not read.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Route } from '../app.ts';
import { createClientNames } from '../auth/client-names.ts';
import { ApiError, methodNotAllowed } from '../errors.ts';
import { sendError } from '../http/error-response.ts';
import { sendJson } from '../http/json.ts';
import { answerPreflight, CORS_HEADERS } from '../http/cors.ts';
import type { HeaderList } from '../http/header-list.ts';
import { bearerChallenges, readCredential } from '../auth/bearer.ts';
import { versionHeaderList } from '../api-headers.ts';
import { createAgentIdentity } from '../operations/agent-identity.ts';
import { createPipeline, newCall } from '../pipeline/index.ts';
import { IDENTITY_PATH } from '../paths.ts';

export const identityRoute: Route = (app, deps) => {
  const challenges = bearerChallenges(deps.config.siteUrl);
  const pipeline = createPipeline(deps, { challenges, collect: () => ({}) });
  const identity = createAgentIdentity({ clientNames: createClientNames({ store: deps.store }) });

  const answer = async (req: IncomingMessage, res: ServerResponse, headers: HeaderList) => {
    const call = newCall(identity, req, await readCredential(req, deps.tokens, challenges), undefined, headers);
    // The operation's value, the 429 of a used-up window, or a throw: no token (401), a bad one (401), an outage (503).
    const outcome = await pipeline.call(call);
    if (outcome instanceof ApiError) return sendError(res, outcome, deps.log, headers);
    if (!('value' in outcome)) throw new Error('agent_identity answered without a value');
    sendJson(res, 200, JSON.stringify(outcome.value), {}, headers);
  };

  const common: HeaderList = [...versionHeaderList(deps.config), ...CORS_HEADERS, 'Cache-Control', 'no-store'];
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const headers = common.slice();
    answer(req, res, headers).catch((err: unknown) => sendError(res, err, deps.log, headers));
  };
  app.get(IDENTITY_PATH, handle);
  app.head(IDENTITY_PATH, handle);
  app.options(IDENTITY_PATH, (_req, res) => answerPreflight(res, CORS_HEADERS.slice()));
  app.all(IDENTITY_PATH, (_req, res) => sendError(res, methodNotAllowed('GET, HEAD, OPTIONS'), deps.log, CORS_HEADERS.slice()));
};
