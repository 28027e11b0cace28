/**
 * GET {site_url}/agent/identity — who the calling agent is: its client_id, the token's scope and
 * expiry, and its quota. Any valid token will do. Admitted by the pipeline (pipeline/steps.ts)
 * like an operation that requires a token, so every call counts: a valid token on its client's
 * `identificado` window, with the rate-limit headers and, once the window is used up, 429 with
 * Retry-After; anything else on its IP's anonymous window: none → 401 with `resource_metadata`, a
 * bad one → 401 `invalid_token` (conformance.md §3), so token guessing here is throttled too.
 * Browsers may call it from any origin, as the API (http/cors.ts), preflight included; its answers
 * carry the API's version headers.
 *
 * Response fields (the contract names only client_id; documented in the README and /auth.md):
 * - `client_id`: the identified client;
 * - `client_name`: as registered, only when the client registered one;
 * - `scope`: the token's scope, space-separated;
 * - `token_expires_at`: the token's expiry, epoch seconds;
 * - `quota`: the contract's Quota resource of the client's window, this call included.
 *
 * In the store a call costs what an API call does (the token's lookup and the window's hit): a
 * client's name is read once per process, since a registration never changes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Route } from '../app.ts';
import { clientKey } from '../auth/clients.ts';
import { methodNotAllowed } from '../errors.ts';
import { sendError } from '../http/error-response.ts';
import { sendJson } from '../http/json.ts';
import { answerPreflight, CORS_HEADERS } from '../http/cors.ts';
import type { HeaderList } from '../http/header-list.ts';
import { bearerChallenges, readCredential } from '../auth/bearer.ts';
import { versionHeaderList } from '../api-headers.ts';
import type { Quota } from '../../formats/schemas/resources.ts';
import type { Store } from '../stores/types.ts';
import { quotaResource } from '../operations/get-quota.ts';
import { createPipeline, newCall, type Admission } from '../pipeline/index.ts';

import { IDENTITY_PATH } from '../paths.ts';

export interface IdentityResponse {
  client_id: string;
  client_name?: string;
  scope: string;
  token_expires_at: number;
  quota: Quota;
}

/** Any valid token, every call on its client's window. */
const ANY_TOKEN: Admission = { kind: 'client' };
/** Client names kept per process. */
const NAMES = 4096;

export const identityRoute: Route = (app, deps) => {
  const challenges = bearerChallenges(deps.config.siteUrl);
  const pipeline = createPipeline(deps, { challenges, collect: () => ({}) });
  const nameOf = clientNames(deps.store);

  const identity = async (req: IncomingMessage, res: ServerResponse, headers: HeaderList) => {
    const credential = await readCredential(req, deps.tokens, challenges);
    const call = newCall(null, req, credential, undefined, headers, ANY_TOKEN);
    // The 429 of a used-up window, or a throw: no token (401), a bad one (401), an outage (503).
    const refusal = await pipeline.admit(call);
    if (refusal !== undefined) return sendError(res, refusal, deps.log, headers);
    // Admitted with access `client`: a valid token.
    if (credential.kind !== 'token') throw new Error('/agent/identity admitted without a token');
    const { token } = credential;
    const body: IdentityResponse = {
      client_id: token.client_id,
      ...await nameOf(token.client_id),
      scope: token.scope.join(' '),
      token_expires_at: token.exp,
      quota: quotaResource(token, call.quota!),
    };
    sendJson(res, 200, JSON.stringify(body), {}, headers);
  };

  const common: HeaderList = [...versionHeaderList(deps.config), ...CORS_HEADERS, 'Cache-Control', 'no-store'];
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const headers = common.slice();
    identity(req, res, headers).catch((err: unknown) => sendError(res, err, deps.log, headers));
  };
  app.get(IDENTITY_PATH, handle);
  app.head(IDENTITY_PATH, handle);
  app.options(IDENTITY_PATH, (_req, res) => answerPreflight(res, CORS_HEADERS.slice()));
  app.all(IDENTITY_PATH, (_req, res) => sendError(res, methodNotAllowed('GET, HEAD, OPTIONS'), deps.log, CORS_HEADERS.slice()));
};

/** `client_name` of each client as registered, read once per process; a failed read is tried again next time. */
function clientNames(store: Store): (clientId: string) => Promise<{ client_name?: string }> {
  const names = new Map<string, Promise<{ client_name?: string }>>();
  return (clientId) => {
    let name = names.get(clientId);
    if (name === undefined) {
      name = store.get(clientKey(clientId)).then(clientName);
      name.catch(() => names.delete(clientId));
      if (names.size >= NAMES) names.clear();
      names.set(clientId, name);
    }
    return name;
  };
}

function clientName(raw: string | null): { client_name?: string } {
  if (raw === null) return {};
  try {
    const name = (JSON.parse(raw) as { client_name?: unknown }).client_name;
    return typeof name === 'string' ? { client_name: name } : {};
  } catch {
    return {};
  }
}
