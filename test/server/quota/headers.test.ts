import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseItem, parseList } from 'structured-headers';
import { policyField, rateLimitField, remainingOf, pushRateLimitHeaders, retryAfterSeconds, type QuotaState } from '../../../server/quota/headers.ts';

const q = (used: number, resetSeconds = 42): QuotaState => ({ policy: 'anonimo', limit: 60, windowSeconds: 60, used, resetSeconds });

test('RateLimit-Policy and RateLimit are RFC 9651 lists with the quoted policy name', () => {
  assert.is(policyField('anonimo', 60, 60), '"anonimo";q=60;w=60');
  assert.is(rateLimitField(q(1)), '"anonimo";r=59;t=42');
  const [policy] = parseList(policyField('identificado', 600, 60));
  assert.equal(policy![0], 'identificado');
  assert.equal(Object.fromEntries(policy![1]), { q: 600, w: 60 });
  const [state] = parseList(rateLimitField(q(1)));
  assert.equal(state![0], 'anonimo');
  assert.equal(Object.fromEntries(state![1]), { r: 59, t: 42 });
});

test('remaining never goes below 0; Retry-After is at least t', () => {
  assert.is(remainingOf(q(60)), 0);
  assert.is(remainingOf(q(75)), 0);
  assert.is(rateLimitField(q(75, 7)), '"anonimo";r=0;t=7');
  assert.ok(retryAfterSeconds(q(61, 7)) >= 7);
});

test('pushRateLimitHeaders adds the five headers to the list, after what it holds', () => {
  const list = ['API-Version', '1'];
  pushRateLimitHeaders(list, q(3, 10), 'anonimo', policyField('anonimo', 60, 60));
  assert.equal(list, [
    'API-Version', '1',
    'RateLimit-Policy', '"anonimo";q=60;w=60',
    'RateLimit', '"anonimo";r=57;t=10',
    'RateLimit-Limit', '60',
    'RateLimit-Remaining', '57',
    'RateLimit-Reset', '10',
  ]);
  const headers = Object.fromEntries(Array.from({ length: list.length / 2 }, (_, i) => [list[2 * i]!, list[2 * i + 1]!]));
  for (const n of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) {
    assert.type(parseItem(String(headers[n]))[0], 'number', n);
  }
});

test.run();
