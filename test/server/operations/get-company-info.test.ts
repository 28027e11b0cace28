import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { COMPANY_SECTION_FIELDS, CompanyInfoSchema } from '../../../formats/schemas/resources.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { qs, request } from '../../helpers/http.ts';
import { sharedReadModel } from '../../helpers/read-model.ts';
import { assertError, assertRateLimitHeaders } from '../../helpers/assertions.ts';

const test = suite<{ api: TestServer }>('get_company_info');
test.before(async (ctx) => {
  ctx.api = await startTestServer({ fixture: await sharedReadModel(), env: { RATE_LIMIT_ANONYMOUS: '100000' } });
});
test.after(async (ctx) => { await ctx.api.close(); });

const info = (api: TestServer, params: Record<string, string | string[]> = {}) =>
  request(`${api.base}/get_company_info${qs(params)}`);

test('section=all (the default) returns every field', async ({ api }) => {
  const fixture = await sharedReadModel();
  const res = await info(api);
  assert.is(res.status, 200);
  const body = CompanyInfoSchema.strict().parse(res.json());
  assert.equal(body, fixture.company.all);
  assert.is(body.service_model?.online_booking, false);
  assert.equal(await info(api, { section: 'all' }).then((r) => r.json()), body);
  assertRateLimitHeaders(res, { policy: 'anonimo', limit: 100000 });
});

test('each section returns only its documented fields', async ({ api }) => {
  for (const [section, fields] of Object.entries(COMPANY_SECTION_FIELDS)) {
    const res = await info(api, { section });
    assert.is(res.status, 200, section);
    const body = CompanyInfoSchema.strict().parse(res.json());
    for (const key of Object.keys(body)) assert.ok((fields as readonly string[]).includes(key), `${section} has ${key}`);
    assert.ok(body.brand && body.website, `${section} keeps the required brand and website`);
  }
  const coverage = CompanyInfoSchema.parse((await info(api, { section: 'coverage' })).json());
  assert.ok(coverage.cities!.every((c) => c.url.startsWith(api.config.siteUrl + '/')));
  const services = CompanyInfoSchema.parse((await info(api, { section: 'services' })).json());
  assert.ok(services.services!.length > 0 && services.cities === undefined);
});

test('section: an unknown value, an empty one or a repeated one → 400', async ({ api }) => {
  const res = await info(api, { section: 'precios' });
  const body = assertError(res, 400, 'rest_invalid_param', 'section');
  assert.match(body.message, 'service_model');
  assertRateLimitHeaders(res, { policy: 'anonimo', limit: 100000 });
  assertError(await info(api, { section: '' }), 400, 'rest_invalid_param', 'section');
  assertError(await info(api, { section: 'ALL' }), 400, 'rest_invalid_param', 'section');
  assertError(await info(api, { section: ['all', 'contact'] }), 400, 'rest_invalid_param', 'section');
});

test('ETag and 304 as for pages', async ({ api }) => {
  const first = await info(api, { section: 'contact' });
  const again = await request(`${api.base}/get_company_info?section=contact`, { headers: { 'If-None-Match': String(first.headers.etag) } });
  assert.is(again.status, 304);
  assert.is(again.body.length, 0);
  assert.is.not((await info(api, { section: 'services' })).headers.etag, first.headers.etag);
});

test.run();
