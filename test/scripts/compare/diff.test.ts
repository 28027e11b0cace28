/**
 * The comparison of two answers (scripts/compare/diff.ts): only what normalise.ts lists may
 * differ; any other byte of status, headers or body is reported.
 */
import zlib from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { differences, type Side } from '../../../scripts/compare/diff.ts';
import type { Recorded } from '../../../scripts/compare/send.ts';
import { CLOCK_TOLERANCE } from '../../../scripts/compare/normalise.ts';

const answer = (over: Partial<Recorded> = {}): Recorded => ({
  status: 200, statusText: 'OK',
  headers: [['Date', 'Sat, 28 Nov 2026 10:00:00 GMT'], ['Content-Type', 'application/json'], ['RateLimit-Reset', '3600']],
  body: Buffer.from('{"a":1}'),
  ...over,
});
const side = (res: Recorded, randoms: Record<string, string> = {}): Side => ({ res, randoms: new Map(Object.entries(randoms)) });
const diff = (a: Side, b: Side, metrics = false) => differences(a, b, { metrics });

test('the same answer but for Date: no difference', () => {
  const later = answer({ headers: [['Date', 'Sat, 28 Nov 2026 10:00:07 GMT'], ['Content-Type', 'application/json'], ['RateLimit-Reset', '3600']] });
  assert.equal(diff(side(answer()), side(later)), []);
});

test('status, header value, header order and body bytes are each reported', () => {
  assert.equal(diff(side(answer()), side(answer({ status: 201, statusText: 'Created' }))), ['status: 200 OK vs 201 Created']);
  const other = answer({ headers: [['Date', 'x'], ['Content-Type', 'text/plain'], ['RateLimit-Reset', '3600']] });
  assert.equal(diff(side(answer()), side(other)), ['header Content-Type: "application/json" vs "text/plain"']);
  const swapped = answer({ headers: [['Date', 'x'], ['RateLimit-Reset', '3600'], ['Content-Type', 'application/json']] });
  assert.match(diff(side(answer()), side(swapped))[0]!, /^header names or order/);
  assert.match(diff(side(answer()), side(answer({ body: Buffer.from('{"a":2}') })))[0]!, /^body at byte 5/);
});

test('a random value is the same under its name wherever it is echoed, with the ETag and length it changes', () => {
  const token = (t: string, etag: string) => answer({ headers: [['ETag', etag], ['Content-Length', String(20 + t.length)]], body: Buffer.from(`{"access_token":"${t}"}`) });
  const a = side(token('AAAAAAAAAAAA', '"1"'), { AAAAAAAAAAAA: 'token' });
  const b = side(token('BBBBBBBBBBBBBB', '"2"'), { BBBBBBBBBBBBBB: 'token' });
  assert.equal(diff(a, b), []);
  // Not named random: the same bodies are a difference.
  assert.is(diff(side(a.res), side(b.res)).length, 3);
});

test('clock-derived seconds may differ by the tolerance, not more', () => {
  const reset = (n: number) => answer({ headers: [['RateLimit', `"anonimo";r=59;t=${n}`], ['RateLimit-Reset', String(n)]], body: Buffer.from(`{"reset_seconds":${n}}`) });
  assert.equal(diff(side(reset(3600)), side(reset(3600 - CLOCK_TOLERANCE))), []);
  const far = diff(side(reset(3600)), side(reset(3600 - CLOCK_TOLERANCE - 1)));
  assert.is(far.length, 3);
  assert.match(far[0]!, /clock-derived/);
});

test('the same content compressed to other bytes is a difference', () => {
  const json = Buffer.from(JSON.stringify({ text: 'x'.repeat(2000) }));
  const gz = (level: number) => answer({ headers: [['Content-Encoding', 'gzip']], body: zlib.gzipSync(json, { level }) });
  assert.equal(diff(side(gz(9)), side(gz(9))), []);
  assert.match(diff(side(gz(9)), side(gz(1)))[0]!, /the same content, encoded to different bytes/);
});

test('metrics: the process samples and timings are not compared, the counts are', () => {
  const scrape = (cpu: string, seconds: string, count: number) => answer({
    body: Buffer.from(`process_cpu_seconds_total ${cpu}\nagentes_request_duration_seconds_bucket{le="0.001"} ${seconds}\nagentes_requests_total{status="200"} ${count}\n`),
  });
  assert.equal(diff(side(scrape('1.2', '3', 7)), side(scrape('1.9', '5', 7)), true), []);
  assert.is(diff(side(scrape('1.2', '3', 7)), side(scrape('1.2', '3', 8)), true).length, 1);
});

test.run();
