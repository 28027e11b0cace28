/**
 * Rate-limit header writers, one per draft (conformance.md §7). They run on every response of the
 * API operations, so each value is one string concatenation and the fixed parts are built once.
 */
import type { QuotaPolicy } from '../../formats/schemas/resources.ts';
import type { HeaderList } from '../http/header-list.ts';

/** One quota window as the headers describe it. */
export interface QuotaState {
  policy: QuotaPolicy;
  /** Requests admitted per window. */
  limit: number;
  windowSeconds: number;
  /** Requests counted in the window, this one included. */
  used: number;
  /** Seconds until the window restarts (≥ 1). */
  resetSeconds: number;
}

/** Requests left, never below 0 (draft-10, "RateLimit Field": r is a non-negative integer). */
export const remainingOf = (q: QuotaState): number => (q.used >= q.limit ? 0 : q.limit - q.used);

/**
 * draft-ietf-httpapi-ratelimit-headers-10/-11, "RateLimit-Policy Field": an RFC 9651 List whose
 * item is the policy name as an sf-string, with `q` (quota units per window) and `w` (window,
 * seconds) as integer parameters: `"anonimo";q=60;w=60`. Policy names are fixed ASCII tokens
 * (`anonimo`, `identificado`, `mcp-anonimo`…), so quoting needs no escaping.
 */
export function policyField(policy: string, limit: number, windowSeconds: number): string {
  return '"' + policy + '";q=' + limit + ';w=' + windowSeconds;
}

/**
 * draft-10/-11, "RateLimit Field": the same quoted policy name with `r` (remaining quota units)
 * and `t` (seconds until the quota resets — delta seconds, never an epoch): `"anonimo";r=59;t=42`.
 */
export function rateLimitField(q: QuotaState): string {
  return '"' + q.policy + '";r=' + remainingOf(q) + ';t=' + q.resetSeconds;
}

/**
 * Adds the five headers of the contract ("Endpoints") to the answer's header list:
 * - `RateLimit-Policy` and `RateLimit`: the structured fields of draft-10/-11 above;
 * - `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`: the legacy trio of
 *   draft-ietf-httpapi-ratelimit-headers-06 §§ 3–5 (integers; Reset in delta seconds), still read
 *   by most client libraries.
 * `name` is the policy's name in the headers (`q.policy`, or another family's, ratelimit.ts) and
 * `policyValue` its precomputed `policyField`.
 */
export function pushRateLimitHeaders(headers: HeaderList, q: QuotaState, name: string, policyValue: string): void {
  const remaining = '' + remainingOf(q);
  const reset = '' + q.resetSeconds;
  headers.push(
    'RateLimit-Policy', policyValue,
    'RateLimit', '"' + name + '";r=' + remaining + ';t=' + reset,
    'RateLimit-Limit', '' + q.limit,
    'RateLimit-Remaining', remaining,
    'RateLimit-Reset', reset,
  );
}

/**
 * `Retry-After` of a 429 (RFC 6585 §4, RFC 9110 §10.2.3: delta-seconds). It equals `t` of the
 * RateLimit field, the earliest moment the window reopens, so it is never below `t`.
 */
export function retryAfterSeconds(q: QuotaState): number {
  return q.resetSeconds;
}
