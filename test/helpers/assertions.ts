/** Header checks shared by the API tests, with a real RFC 9651 parser. */
import * as assert from 'uvu/assert';
import { parseItem, parseList } from 'structured-headers';
import type { RawResponse } from './http.ts';

export interface ExpectedQuota {
  /** A policy name of the API's windows, or of another family (`mcp-anonimo`). */
  policy: string;
  limit: number;
  window?: number;
  /** Exact remaining, when the test knows it. */
  remaining?: number;
}

/** The five rate-limit headers and API-Version, consistent with each other; returns r and t. */
export function assertRateLimitHeaders(res: RawResponse, want: ExpectedQuota): { r: number; t: number } {
  const window = want.window ?? 60;
  const h = res.headers;
  const [policy] = parseList(String(h['ratelimit-policy']));
  assert.ok(policy, 'RateLimit-Policy present');
  assert.is(policy![0], want.policy, 'policy name is a string item');
  assert.equal(Object.fromEntries(policy![1]), { q: want.limit, w: window }, 'RateLimit-Policy parameters');
  const [state] = parseList(String(h['ratelimit']));
  assert.ok(state, 'RateLimit present');
  assert.is(state![0], want.policy, 'the same policy name in RateLimit');
  const params = Object.fromEntries(state![1]) as { r: number; t: number };
  assert.equal(Object.keys(params).sort(), ['r', 't']);
  assert.ok(Number.isInteger(params.r) && params.r >= 0, `r=${params.r}`);
  assert.ok(Number.isInteger(params.t) && params.t >= 1 && params.t <= window, `t=${params.t} is delta seconds`);
  if (want.remaining !== undefined) assert.is(params.r, want.remaining, 'remaining');
  assert.is(parseItem(String(h['ratelimit-limit']))[0], want.limit, 'RateLimit-Limit');
  assert.is(parseItem(String(h['ratelimit-remaining']))[0], params.r, 'RateLimit-Remaining = r');
  assert.is(parseItem(String(h['ratelimit-reset']))[0], params.t, 'RateLimit-Reset = t');
  assert.is(h['api-version'], '1');
  return params;
}

/** The contract's Error shape, `data.status` equal to the HTTP status. */
export function assertError(res: RawResponse, status: number, code: string, hint?: string | RegExp) {
  assert.is(res.status, status, `status (body: ${res.text().slice(0, 200)})`);
  assert.match(String(res.headers['content-type']), /^application\/json; charset=utf-8/);
  const body = res.json();
  assert.is(body.code, code);
  assert.type(body.message, 'string');
  assert.ok(body.message.length > 0);
  assert.is(body.data.status, status);
  if (hint instanceof RegExp) assert.match(body.data.hint, hint);
  else if (hint !== undefined) assert.is(body.data.hint, hint);
  assert.equal(Object.keys(body).sort(), ['code', 'data', 'message']);
  return body;
}
