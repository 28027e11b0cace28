/**
 * The steps of every operation call, REST or MCP, in order:
 *
 *   1. count      — one hit on the caller's window: the client's when a valid token identifies it
 *                   for this call's access, else the IP's anonymous window (a bad credential
 *                   included, so token guessing is throttled like anything else); rate-limit headers;
 *   2. unverified — a token the store could not check (an outage) is its 503 with Retry-After,
 *                   never the anonymous window's 429 (it was counted there, so the answer
 *                   carries that window's headers);
 *   3. refuse     — a window counted over its limit ends the call with the 429;
 *   4. credential — a credential that was not accepted: 401 (after counting, so the answer
 *                   carries the rate-limit headers);
 *   5. access     — an operation that requires a token: none → 401, without its scope → 403;
 *   6. input      — the wire format's parameters, checked against the operation's schema (400);
 *   7. run        — the operation itself.
 * Each step answers at once when it can (memory store, no token) and returns a promise only when
 * it waits (Redis, a page of search results); see run.ts.
 */
import type { Access, OperationContext, OperationCore } from '../operations/operation.ts';
import type { TokenInfo } from '../auth/types.ts';
import type { BearerChallenges } from '../auth/bearer.ts';
import type { QuotaStep } from '../quota/ratelimit.ts';
import { anonymousSubject, identifiedSubject } from '../quota/ratelimit.ts';
import type { PageResolver } from '../read-model/url.ts';
import type { ModelHolder } from '../read-model/types.ts';
import { StoreUnavailableError } from '../stores/errors.ts';
import { validateParams } from './params.ts';
import { memoize } from '../memo.ts';
import { cacheInputs } from './input-cache.ts';
import type { Call, Outcome } from './call.ts';

export type Step = (call: Call) => Outcome | undefined | Promise<Outcome | undefined>;

export interface StepDeps {
  quota: QuotaStep;
  clientIp(req: Call['req']): string;
  challenges: BearerChallenges;
  /** The wire format's parameters as plain values for the operation's schema (REST converts query strings). */
  collect(op: OperationCore, raw: unknown): Record<string, unknown>;
  model: ModelHolder;
  resolvePage: PageResolver;
}

/** Subjects kept per address and client: a hot read builds no key string of its own. */
const SUBJECTS = 4096;

export function createSteps(deps: StepDeps) {
  const anonymous = memoize(anonymousSubject, SUBJECTS);
  const identified = memoize(identifiedSubject, SUBJECTS);
  const count: Step = (call) => {
    const { credential } = call;
    const subject = credential.kind === 'token' && identifies(call.access, credential.token)
      ? identified(credential.token.client_id)
      : anonymous(deps.clientIp(call.req));
    const counted = deps.quota.count(subject, call.headers);
    if (counted instanceof Promise) return counted.then((quota) => { call.quota = quota; return undefined; });
    call.quota = counted;
    return undefined;
  };

  const unverified: Step = ({ credential: c }) => {
    if (c.kind === 'invalid' && c.error instanceof StoreUnavailableError) throw c.error;
    return undefined;
  };

  const refuse: Step = (call) => deps.quota.refusal(call.quota!) ?? undefined;

  const credential: Step = (call) => {
    if (call.credential.kind === 'invalid') throw call.credential.error;
    return undefined;
  };

  const access: Step = ({ access: a, credential: c }) => {
    if (a === null || a.kind === 'open') return undefined;
    if (c.kind !== 'token') throw deps.challenges.notLoggedIn();
    if (a.kind === 'token' && !c.token.scope.includes(a.scope)) throw deps.challenges.insufficientScope(a.scope);
    return undefined;
  };

  // A wire format that passes its parameters as one string (REST's query) has its inputs cached.
  const inputOf = cacheInputs((op, raw) => validateParams(op.input, deps.collect(op, raw)));
  const input: Step = (call) => {
    call.input = inputOf(call.op!, call.raw);
    return undefined;
  };

  // The call is the operation's context: no object of its own per request.
  const run: Step = (call) => {
    call.model = deps.model.current();
    call.resolvePage = deps.resolvePage;
    return call.op!.run(call.input!, call as OperationContext);
  };

  return {
    /**
     * What a request goes through before an operation may run: the whole of it for a bad
     * credential refused before an operation is named.
     */
    admission: [count, unverified, refuse, credential, access] as const,
    /** Every step of an operation call. */
    all: [count, unverified, refuse, credential, access, input, run] as const,
  };
}

/**
 * Whether a valid token puts a call on its client's window (`identificado`): always where a token
 * is required; on an open operation, only with the scope that raises it.
 */
function identifies(access: Access | null, token: TokenInfo): boolean {
  if (access === null) return false;
  return access.kind !== 'open' || token.scope.includes(access.raisedBy);
}
