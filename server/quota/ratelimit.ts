/**
 * Quota counting for the pipeline's count and refuse steps (pipeline/steps.ts): one fixed window
 * per subject through `store.hit` (one atomic operation, so processes sharing Redis admit exactly
 * the limit), the rate-limit headers on the response, and 429 once the window is used up.
 *
 * Subjects: policy `anonimo` per client IP (IPv6 per /56, see client-ip.ts), policy
 * `identificado` per client_id. Every request that reaches an operation counts, 4xx included:
 * a 401 for a bad token counts against the anonymous bucket of its IP (so token guessing is
 * throttled like anything else), a 400 against the bucket of its caller.
 *
 * The windows count in `quotaCounter`, the store with its per-process fallback (stores/fallback.ts,
 * composed in main.ts): while the store is unavailable content keeps answering, with per-process quotas.
 */
import type { Config } from '../config.ts';
import { chain } from '../chain.ts';
import { ApiError, API_CODES } from '../errors.ts';
import type { QuotaPolicy } from '../../formats/schemas/resources.ts';
import { ipQuotaKey } from '../net/client-ip.ts';
import type { QuotaCounter } from '../stores/fallback.ts';
import type { HeaderList } from '../http/header-list.ts';
import { policyField, pushRateLimitHeaders, retryAfterSeconds, type QuotaState } from './headers.ts';
import { AUTH_MD_PATH, REGISTER_PATH } from '../paths.ts';

export interface QuotaSubject {
  policy: QuotaPolicy;
  /** Client IP for `anonimo`, client_id for `identificado`. */
  id: string;
  /** Store key of its window: `rl:<policy>:<id>` (the store adds its prefix and hash tag). */
  key: string;
}

export interface QuotaStep {
  /**
   * Counts one request of `subject` and adds the rate-limit headers to `headers`. At once with
   * the memory store, a promise with Redis. Over the limit is not an exception here: a thrown
   * error costs V8 a stack walk per throw (the 429 path would cost more than a 200),
   * and a client over its quota may send thousands of requests; see `refusal`.
   */
  count(subject: QuotaSubject, headers: HeaderList): QuotaState | Promise<QuotaState>;
  /** The 429 for a window counted over its limit (built once per policy and seconds left), else null. */
  refusal(q: QuotaState): ApiError | null;
}

/**
 * A family of windows per subject: the API's (the contract's quota), or another counted beside
 * it with keys and header policy names of its own (`mcp-anonimo`) and limits a multiple of the API's.
 */
export interface WindowFamily {
  /** Before the policy in its store keys and in the policy names of its headers ('' for the API's). */
  prefix: string;
  /** Its limits, as a multiple of the API's. */
  factor: number;
  /** What its 429 says is counted. */
  unit: string;
}
export const API_WINDOWS: WindowFamily = { prefix: '', factor: 1, unit: 'peticiones' };

const subjectOf = (family: WindowFamily, policy: QuotaPolicy, id: string): QuotaSubject =>
  ({ policy, id, key: 'rl:' + family.prefix + policy + ':' + id });
export const anonymousSubject = (ip: string, family = API_WINDOWS): QuotaSubject => subjectOf(family, 'anonimo', ipQuotaKey(ip));
export const identifiedSubject = (clientId: string, family = API_WINDOWS): QuotaSubject => subjectOf(family, 'identificado', clientId);

const wait = (seconds: number) => (seconds === 1 ? '1 segundo' : `${seconds} segundos`);
const per = (windowSeconds: number) => (windowSeconds === 60 ? 'por minuto' : `cada ${windowSeconds} segundos`);

export interface QuotaStepDeps {
  config: Pick<Config, 'rateLimit' | 'siteUrl'>;
  /** Where the windows count (the REST API's and MCP's alike, so they share one count per subject). */
  quotaCounter: Pick<QuotaCounter, 'hit'>;
  /** Told of every call refused for its window. */
  metrics?: { quotaRefused(policy: QuotaPolicy): void } | null;
}

export function createQuotaStep(deps: QuotaStepDeps, family = API_WINDOWS): QuotaStep {
  const counter = deps.quotaCounter;
  const { windowSeconds } = deps.config.rateLimit;
  const anonymous = deps.config.rateLimit.anonymous * family.factor;
  const identified = deps.config.rateLimit.identified * family.factor;
  const { prefix, unit } = family;
  const siteUrl = deps.config.siteUrl;
  const limits: Record<QuotaPolicy, { limit: number; name: string; policyValue: string }> = {
    anonimo: { limit: anonymous, name: prefix + 'anonimo', policyValue: policyField(prefix + 'anonimo', anonymous, windowSeconds) },
    identificado: { limit: identified, name: prefix + 'identificado', policyValue: policyField(prefix + 'identificado', identified, windowSeconds) },
  };

  // A 429 depends only on the policy and the seconds left: each is built once (message, error
  // and its captured stack), so answering an over-limit client costs no more than a 200.
  const refusals = new Map<string, ApiError>();
  const rateLimited = (q: QuotaState) => {
    const key = q.policy + retryAfterSeconds(q);
    let err = refusals.get(key);
    if (err === undefined) {
      err = refusal(q);
      if (refusals.size > 2 * (windowSeconds + 1)) refusals.clear();
      refusals.set(key, err);
    }
    return err;
  };
  const refusal = (q: QuotaState) => {
    const seconds = retryAfterSeconds(q);
    const message = q.policy === 'anonimo'
      ? `Cuota agotada: ${q.limit} ${unit} ${per(q.windowSeconds)} por IP sin token. Espere ${wait(seconds)}. `
        + `Registrarse es gratis y automático (POST ${siteUrl}${REGISTER_PATH}, véase ${siteUrl}${AUTH_MD_PATH}) y eleva la cuota a ${identified} ${unit} ${per(q.windowSeconds)}.`
      : `Cuota agotada: ${q.limit} ${unit} ${per(q.windowSeconds)} para este client_id. Espere ${wait(seconds)}.`;
    const hint = `Reintente dentro de ${wait(seconds)} (cabecera Retry-After).`;
    return new ApiError(429, API_CODES.rateLimited, message, hint, { 'Retry-After': seconds });
  };

  return {
    count: (subject, headers) => chain(counter.hit(subject.key, windowSeconds), ({ count, resetSeconds }) => {
      const { limit, name, policyValue } = limits[subject.policy];
      const q: QuotaState = { policy: subject.policy, limit, windowSeconds, used: count, resetSeconds };
      pushRateLimitHeaders(headers, q, name, policyValue);
      return q;
    }),
    refusal: (q) => {
      if (q.used <= q.limit) return null;
      deps.metrics?.quotaRefused(q.policy);
      return rateLimited(q);
    },
  };
}
