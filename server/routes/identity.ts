/**
 * GET {site_url}/agent/identity — who the calling agent is: its client_id, the token's scope and
 * expiry, and its quota. Any valid token will do; none → 401 with `resource_metadata`, a bad one
 * → 401 `invalid_token` (conformance.md §3), counted on its IP's anonymous window through the
 * pipeline's admission as on REST and MCP, so token guessing here is throttled too (429).
 *
 * Response fields (the contract names only client_id; documented in the README and /auth.md):
 * - `client_id`: the identified client;
 * - `client_name`: as registered, only when the client registered one;
 * - `scope`: the token's scope, space-separated;
 * - `token_expires_at`: the token's expiry, epoch seconds;
 * - `quota`: the contract's Quota resource of the `identificado` policy, read without counting
 *   this request (asking who you are does not spend quota).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Route } from '../app.ts';
import { clientKey } from '../auth/clients.ts';
import { methodNotAllowed } from '../errors.ts';
import { sendError } from '../http/error-response.ts';
import { sendJson } from '../http/json.ts';
import { answerPreflight, writeCors } from '../http/cors.ts';
import { bearerChallenges, readCredential } from '../auth/bearer.ts';
import { identifiedSubject } from '../quota/ratelimit.ts';
import type { Quota } from '../schemas/resources.ts';
import { quotaResource } from '../operations/get-quota.ts';
import { createPipeline, newCall } from '../pipeline/index.ts';

import { IDENTITY_PATH } from '../paths.ts';

export interface IdentityResponse {
  client_id: string;
  client_name?: string;
  scope: string;
  token_expires_at: number;
  quota: Quota;
}

export const identityRoute: Route = (app, deps) => {
  const challenges = bearerChallenges(deps.config.siteUrl);
  const pipeline = createPipeline(deps, { challenges, collect: () => ({}) });
  const { identified: limit, windowSeconds } = deps.config.rateLimit;

  const identity = async (req: IncomingMessage, res: ServerResponse) => {
    writeCors(res);
    res.setHeader('Cache-Control', 'no-store');
    const credential = await readCredential(req, deps.tokens, challenges);
    if (credential.kind === 'none') throw challenges.notLoggedIn();
    if (credential.kind === 'invalid') {
      // Ends in the window's 429 or throws the credential's 401 (or the outage's 503), with the window's headers.
      const call = newCall(null, req, credential, undefined);
      try {
        sendError(res, await pipeline.admit(call), deps.log, call.headers);
      } catch (err) {
        sendError(res, err, deps.log, call.headers);
      }
      return;
    }
    const token = credential.token;

    const [window, rawClient] = await Promise.all([
      deps.store.peek(identifiedSubject(token.client_id).key, windowSeconds),
      deps.store.get(clientKey(token.client_id)),
    ]);
    const body: IdentityResponse = {
      client_id: token.client_id,
      ...clientName(rawClient),
      scope: token.scope.join(' '),
      token_expires_at: token.exp,
      quota: quotaResource(token, { policy: 'identificado', limit, windowSeconds, used: window.count, resetSeconds: window.resetSeconds }),
    };
    sendJson(res, 200, JSON.stringify(body));
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    identity(req, res).catch((err: unknown) =>
      sendError(res, err, deps.log));
  };
  app.get(IDENTITY_PATH, handle);
  app.head(IDENTITY_PATH, handle);
  app.options(IDENTITY_PATH, (_req, res) => answerPreflight(res));
  app.all(IDENTITY_PATH, (_req, res) => sendError(res, methodNotAllowed('GET, HEAD, OPTIONS'), deps.log));
};

function clientName(raw: string | null): { client_name?: string } {
  if (raw === null) return {};
  try {
    const name = (JSON.parse(raw) as { client_name?: unknown }).client_name;
    return typeof name === 'string' ? { client_name: name } : {};
  } catch {
    return {};
  }
}
