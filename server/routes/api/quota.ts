/**
 * GET {base}/quota — the caller's own quota (contract.md, "Quota"). The only operation that
 * requires a token, with scope `quota:read`: none → 401 `rest_not_logged_in`, a bad one → 401
 * `invalid_token`, one without the scope → 403 `insufficient_scope`. The call itself is counted
 * (on the client's `identificado` window, whatever the token's scopes), so `used` includes it.
 */
import type { TokenInfo } from '../../auth/types.ts';
import { sendJson } from '../../errors.ts';
import type { BearerChallenges, Credential } from '../../auth/bearer.ts';
import { remainingOf, type QuotaState } from '../../quota/headers.ts';
import type { Quota } from '../../schemas/resources.ts';
import type { Operation } from './operation.ts';

export const QUOTA_SCOPE = 'quota:read';

export function quotaResource(token: TokenInfo, q: QuotaState): Quota {
  return {
    client_id: token.client_id,
    scope: token.scope.join(' '),
    policy: q.policy,
    limit: q.limit,
    window_seconds: q.windowSeconds,
    used: Math.min(q.used, q.limit),
    remaining: remainingOf(q),
    reset_seconds: q.resetSeconds,
  };
}

/** Any valid token puts a quota call on its client's window, whatever its scopes. */
export const quotaIdentifies = (c: Credential): boolean => c.kind === 'token';

export function quotaOperation(challenges: BearerChallenges): Operation {
  return {
    name: 'quota',
    identifies: quotaIdentifies,
    run({ res, headers, credential, quota }) {
      if (credential.kind !== 'token') throw challenges.notLoggedIn();
      if (!credential.token.scope.includes(QUOTA_SCOPE)) throw challenges.insufficientScope(QUOTA_SCOPE);
      // Changes with every call: never stored by a cache.
      sendJson(res, 200, JSON.stringify(quotaResource(credential.token, quota)), { 'Cache-Control': 'no-store' }, headers);
    },
  };
}
