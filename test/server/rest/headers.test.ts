import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseItem } from 'structured-headers';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { request, type RawResponse } from '../../helpers/http.ts';
import { sharedReadModel } from '../../helpers/read-model.ts';
import { assertError, assertRateLimitHeaders } from '../../helpers/assertions.ts';

const test = suite('response headers of the API');

const EXPOSED = ['RateLimit', 'RateLimit-Policy', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After',
  'API-Version', 'ETag', 'WWW-Authenticate', 'Deprecation', 'Sunset', 'Link'];

function assertCors(res: RawResponse) {
  assert.is(res.headers['access-control-allow-origin'], '*');
  const exposed = String(res.headers['access-control-expose-headers']).split(',').map((s) => s.trim().toLowerCase());
  for (const h of EXPOSED) assert.ok(exposed.includes(h.toLowerCase()), `exposes ${h}`);
}

async function withApi(env: Record<string, string>, fn: (api: TestServer) => Promise<void>) {
  const api = await startTestServer({ fixture: await sharedReadModel(), env });
  try { await fn(api); } finally { await api.close(); }
}

test('200, 304, 400, 401, 404 and 429 all carry the rate-limit headers, API-Version, CORS and Vary', async () => {
  await withApi({ RATE_LIMIT_ANONYMOUS: '6' }, async (api) => {
    const ok = await request(`${api.base}/read_page?url=fontaneria`);
    const notModified = await request(`${api.base}/read_page?url=fontaneria`, { headers: { 'If-None-Match': String(ok.headers.etag) } });
    const bad = await request(`${api.base}/search_pages?query=x`);
    const unauthorized = await request(`${api.base}/get_company_info`, { headers: { Authorization: 'Bearer nope' } });
    const missing = await request(`${api.base}/read_page?url=/no-existe/`);
    const last = await request(`${api.base}/get_company_info`);
    const limited = await request(`${api.base}/get_company_info`);
    const statuses = [ok, notModified, bad, unauthorized, missing, last, limited].map((r) => r.status);
    assert.equal(statuses, [200, 304, 400, 401, 404, 200, 429]);
    [ok, notModified, bad, unauthorized, missing, last, limited].forEach((res, i) => {
      assertRateLimitHeaders(res, { policy: 'anonimo', limit: 6, remaining: Math.max(0, 5 - i) });
      assertCors(res);
      assert.is(res.headers.vary, 'Authorization, Accept-Encoding');
      assert.is(res.headers.deprecation, undefined, 'not deprecated by default');
      assert.is(res.headers.sunset, undefined);
      assert.is(res.headers.link, undefined);
    });
    assert.is(ok.headers['cache-control'], 'public, max-age=60');
    for (const err of [bad, unauthorized, missing, limited]) assert.is(err.headers['cache-control'], 'no-store');
  });
});

test('429: Retry-After ≥ t, how long to wait, and how registering raises the quota', async () => {
  await withApi({ RATE_LIMIT_ANONYMOUS: '1' }, async (api) => {
    await request(`${api.base}/get_company_info`);
    const res = await request(`${api.base}/read_page?url=fontaneria`);
    const body = assertError(res, 429, 'agentes_rate_limited');
    const { t } = assertRateLimitHeaders(res, { policy: 'anonimo', limit: 1, remaining: 0 });
    const retryAfter = parseItem(String(res.headers['retry-after']))[0] as number;
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= t, `Retry-After ${retryAfter} ≥ t ${t}`);
    assert.match(body.message, `${retryAfter} segundos`);
    assert.match(body.message, `${api.config.siteUrl}/oauth/register`);
    assert.match(body.message, '600');
    assert.match(body.message, '/auth.md');
  });
});

test('a deprecated version announces Deprecation, Sunset and Link rel="deprecation"', async () => {
  await withApi({ API_DEPRECATED_AT: '2026-01-01T00:00:00Z', API_SUNSET_AT: '2026-07-01T00:00:00Z' }, async (api) => {
    for (const res of [
      await request(`${api.base}/read_page?url=fontaneria`),
      await request(`${api.base}/read_page`),
      await request(`${api.base}/nope`),
      await request(`${api.base}/quota`),
    ]) {
      assert.is(res.headers.deprecation, '@1767225600');
      const [date] = parseItem(String(res.headers.deprecation));
      assert.instance(date, Date, 'an RFC 9651 Date item');
      assert.is((date as Date).toISOString(), '2026-01-01T00:00:00.000Z');
      assert.is(res.headers.sunset, 'Wed, 01 Jul 2026 00:00:00 GMT');
      assert.ok(new Date(String(res.headers.sunset)) >= (date as Date), 'sunset not before deprecation');
      assert.is(res.headers.link, `<${api.config.siteUrl}/desarrolladores/#versionado>; rel="deprecation"; type="text/html"`);
      assert.is(res.headers['api-version'], '1');
    }
  });
});

test('an unexpected failure is a generic 500 with its cause logged', async () => {
  await withApi({}, async (api) => {
    await api.model.current().search.close();
    const res = await request(`${api.base}/search_pages?query=fontaner%C3%ADa`);
    const body = assertError(res, 500, 'agentes_internal_error');
    assert.not.match(body.message, 'closed', 'no internals in the body');
    assert.is(api.logged.length, 1);
    assert.match(String((api.logged[0] as Error).message), 'closed');
    assertRateLimitHeaders(res, { policy: 'anonimo', limit: 60 });
  });
});

test.run();
