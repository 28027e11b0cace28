import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { request } from '../../helpers/http.ts';
import { sharedReadModel } from '../../helpers/read-model.ts';
import { assertError } from '../../helpers/assertions.ts';

const test = suite<{ api: TestServer }>('routing under /wp-json/agentes/v1');
test.before(async (ctx) => {
  ctx.api = await startTestServer({ fixture: await sharedReadModel(), env: { RATE_LIMIT_ANONYMOUS: '100000' } });
});
test.after(async (ctx) => { await ctx.api.close(); });

const OPERATIONS = ['search_pages?query=fontaner%C3%ADa', 'read_page?url=fontaneria', 'get_company_info', 'quota'];

test('unknown operations and the bare base → 404 rest_no_route (JSON, versioned, CORS)', async ({ api }) => {
  for (const path of ['', '/', '/nope', '/read_page/extra', '/READ_PAGE', '/read-page', '/search_pages/../quota', '//read_page', '/read%5Fpage']) {
    const res = await request(api.base + path);
    assertError(res, 404, 'rest_no_route');
    assert.is(res.headers['api-version'], '1', path);
    assert.is(res.headers['access-control-allow-origin'], '*');
    assert.is(res.headers['cache-control'], 'no-store');
  }
  assertError(await request(api.base + '/nope', { method: 'POST' }), 404, 'rest_no_route');
});

test('a trailing slash after the operation is accepted', async ({ api }) => {
  assert.is((await request(`${api.base}/read_page/?url=fontaneria`)).status, 200);
  assert.is((await request(`${api.base}/get_company_info/`)).status, 200);
});

test('wrong method → 405 rest_method_not_allowed with Allow', async ({ api }) => {
  for (const op of OPERATIONS) {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const res = await request(`${api.base}/${op}`, { method });
      assertError(res, 405, 'rest_method_not_allowed');
      assert.is(res.headers.allow, 'GET, HEAD, OPTIONS', `${method} ${op}`);
      assert.is(res.headers['api-version'], '1');
    }
  }
});

test('OPTIONS is a CORS preflight: 204, methods, Authorization allowed, cached', async ({ api }) => {
  for (const op of OPERATIONS) {
    const res = await request(`${api.base}/${op}`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://agente.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' },
    });
    assert.is(res.status, 204, op);
    assert.is(res.body.length, 0);
    assert.is(res.headers['access-control-allow-origin'], '*');
    assert.is(res.headers['access-control-allow-methods'], 'GET, HEAD, OPTIONS');
    assert.match(String(res.headers['access-control-allow-headers']).toLowerCase(), 'authorization');
    assert.ok(Number(res.headers['access-control-max-age']) >= 600);
    assert.is(res.headers['api-version'], '1');
    assert.is(res.headers.ratelimit, undefined, 'preflights are not counted');
  }
});

test('HEAD works on every operation', async ({ api }) => {
  const t = await api.tokens.issue('client-h', ['content:read', 'quota:read']);
  for (const op of OPERATIONS) {
    const res = await request(`${api.base}/${op}`, { method: 'HEAD', headers: { Authorization: `Bearer ${t.access_token}` } });
    assert.is(res.status, 200, op);
    assert.is(res.body.length, 0);
    assert.ok(Number(res.headers['content-length']) > 0);
    assert.type(res.headers.ratelimit, 'string');
  }
});

test('a parameter whose percent-escapes do not decode → 400 rest_invalid_param naming it, on every parameter', async ({ api }) => {
  const required: Record<string, string> = { query: 'fontaneria', url: 'fontaneria' };
  let checked = 0;
  for (const op of api.running.deps.operations) {
    const names = Object.keys(op.input.shape);
    for (const bad of names) {
      for (const escape of ['%E0%A4%A', '%zz', 'a%', '%C3']) {
        const query = names.filter((n) => n === bad || n in required).map((n) => `${n}=${n === bad ? escape : required[n]}`).join('&');
        const res = await request(`${api.base}/${op.path}?${query}`);
        const body = assertError(res, 400, 'rest_invalid_param', bad);
        assert.match(body.message, /codificación por ciento/, `${op.path} ${bad}=${escape}`);
        assert.type(res.headers.ratelimit, 'string', 'counted like any other 400');
        checked++;
      }
    }
  }
  assert.ok(checked >= 7 * 4, 'every parameter of the operations');
  // The same value well encoded is read as text; a name that does not decode is no parameter's, so ignored.
  assert.is((await request(`${api.base}/search_pages?query=${encodeURIComponent('%E0%A4%A')}`)).status, 200);
  assert.is((await request(`${api.base}/get_company_info?x%zz=1`)).status, 200);
});

test.run();
