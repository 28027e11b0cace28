/**
 * validateResponse: what it rejects, and that real responses of the API (each operation, each
 * status it sends) conform to the document the server itself publishes at /openapi.json.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseConfig } from '../../server/config.ts';
import { buildOpenApi } from '../../server/discovery/openapi.ts';
import { validateResponse, type ResponseToValidate } from './validate-response.ts';
import { request, type RawResponse } from './http.ts';
import { startTestServer } from './server.ts';

const doc = buildOpenApi(parseConfig({ SITE_URL: 'https://www.avisohogar.es' }));
const BASE = '/wp-json/agentes/v1';

const HEADERS = {
  'ratelimit': '"anonimo";r=59;t=42',
  'ratelimit-policy': '"anonimo";q=60;w=60',
  'ratelimit-limit': '60',
  'ratelimit-remaining': '59',
  'ratelimit-reset': '42',
  'api-version': '1',
  'etag': '"abc"',
};
const PAGE = { title: 'Fontanería', url: 'https://www.avisohogar.es/servicios/fontaneria/', markdown: '# Fontanería', truncated: false };
const ok = (over: Partial<ResponseToValidate> = {}): ResponseToValidate => ({
  path: `https://www.avisohogar.es${BASE}/read_page?url=fontaneria`,
  method: 'GET',
  status: 200,
  contentType: 'application/json; charset=utf-8',
  headers: HEADERS,
  body: JSON.stringify(PAGE),
  ...over,
});

test('a conforming response has no errors (full URL, path with or without base, trailing slash, fetch Headers)', () => {
  assert.equal(validateResponse(doc, ok()), []);
  assert.equal(validateResponse(doc, ok({ path: `${BASE}/read_page/` })), []);
  assert.equal(validateResponse(doc, ok({ path: '/read_page', body: PAGE })), []);
  assert.equal(validateResponse(doc, ok({ headers: new Headers(HEADERS) })), []);
});

test('body errors: a missing field, a wrong type, an undocumented field (strict), invalid JSON', () => {
  const { truncated: _t, ...missing } = PAGE;
  assert.ok(validateResponse(doc, ok({ body: missing })).some((e) => e.includes("required property 'truncated'")));
  assert.ok(validateResponse(doc, ok({ body: { ...PAGE, truncated: 'no' } })).some((e) => e.includes('/truncated must be boolean')));
  const extra = validateResponse(doc, ok({ body: { ...PAGE, author: 'x' } }));
  assert.ok(extra.some((e) => e.includes('additional properties (author)')), extra.join('\n'));
  assert.equal(validateResponse(doc, ok({ body: { ...PAGE, author: 'x' } }), { strict: false }), [], 'the published document allows additions');
  assert.ok(validateResponse(doc, ok({ body: '{"title":' })).some((e) => e.includes('not JSON')));
});

test('header errors: missing required header, wrong syntax, not an integer', () => {
  const { ratelimit: _r, ...noRateLimit } = HEADERS;
  assert.ok(validateResponse(doc, ok({ headers: noRateLimit })).some((e) => e.includes('missing header RateLimit')));
  assert.ok(validateResponse(doc, ok({ headers: { ...HEADERS, ratelimit: 'anonimo;r=59' } })).some((e) => e.includes('header RateLimit:')));
  assert.ok(validateResponse(doc, ok({ headers: { ...HEADERS, 'ratelimit-reset': '1795272073.5x' } })).some((e) => e.includes('not a number')));
  assert.ok(validateResponse(doc, ok({ headers: { ...HEADERS, 'api-version': '2' } })).some((e) => e.includes('API-Version')));
  assert.ok(validateResponse(doc, ok({ status: 429, body: { code: 'agentes_rate_limited', message: 'x', data: { status: 429 } } }))
    .some((e) => e.includes('missing header Retry-After')));
});

test('status, content type, path and method errors; 304 and HEAD need an empty body', () => {
  assert.ok(validateResponse(doc, ok({ status: 418 })).some((e) => e.includes('status not documented')));
  assert.ok(validateResponse(doc, ok({ contentType: 'text/html' })).some((e) => e.includes('content type')));
  assert.ok(validateResponse(doc, ok({ path: `${BASE}/write_page` })).some((e) => e.includes('path not in the document')));
  assert.ok(validateResponse(doc, ok({ method: 'POST' })).some((e) => e.includes('method not in the document')));
  assert.equal(validateResponse(doc, ok({ status: 304, body: '', contentType: null })), []);
  assert.ok(validateResponse(doc, ok({ status: 304 })).some((e) => e.includes('body must be empty')));
  assert.equal(validateResponse(doc, ok({ method: 'HEAD', body: Buffer.alloc(0) })), []);
  assert.ok(validateResponse(doc, ok({ method: 'HEAD' })).some((e) => e.includes('body must be empty')));
});

// --- real responses --------------------------------------------------------------------------

function check(served: object, method: string, url: string, res: RawResponse): void {
  const errors = validateResponse(served, {
    path: url, method, status: res.status, contentType: res.headers['content-type'] ?? null, headers: res.headers, body: res.body,
  });
  assert.equal(errors, [], `${method} ${url} → ${res.status}: ${res.text().slice(0, 300)}`);
}

async function register(origin: string, scope?: string): Promise<string> {
  const reg = await fetch(`${origin}/oauth/register`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'validador' }),
  }).then((r) => r.json() as Promise<{ client_id: string; client_secret: string }>);
  const form = new URLSearchParams({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) });
  const tok = await fetch(`${origin}/oauth/token`, {
    method: 'POST',
    headers: { authorization: 'Basic ' + Buffer.from(`${reg.client_id}:${reg.client_secret}`).toString('base64'), 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  }).then((r) => r.json() as Promise<{ access_token: string }>);
  return tok.access_token;
}

test('every status the API sends for each operation conforms to the served /openapi.json', async () => {
  const site = await startTestServer({ siteUrlIsOrigin: true });
  try {
    const served = JSON.parse((await request(`${site.origin}/openapi.json`)).text());
    const api = site.origin + BASE;
    const get = async (url: string, headers: Record<string, string> = {}, method = 'GET') => {
      const res = await request(url, { method, headers });
      check(served, method, url, res);
      return res;
    };
    assert.is((await get(`${api}/search_pages?query=fontanero&city=madrid&limit=2`)).status, 200);
    await get(`${api}/search_pages?query=fontanero`, { 'accept-encoding': 'gzip' }).then((r) => assert.is(r.status, 200));
    const page = await get(`${api}/read_page?url=%2Fservicios%2Ffontaneria%2F`);
    assert.is(page.status, 200);
    assert.is((await get(`${api}/read_page?url=%2Fservicios%2Ffontaneria%2F`, { 'if-none-match': String(page.headers.etag) })).status, 304);
    assert.is((await get(`${api}/read_page?url=%2Fservicios%2Ffontaneria%2F`, {}, 'HEAD')).status, 200);
    assert.is((await get(`${api}/read_page?url=%2Fno-existe%2F`)).status, 404);
    assert.is((await get(`${api}/read_page`)).status, 400);
    assert.is((await get(`${api}/search_pages?query=x`)).status, 400);
    assert.is((await get(`${api}/search_pages?query=fontanero&limit=99`)).status, 400);
    for (const section of ['all', 'contact', 'service_model', 'coverage', 'services']) {
      assert.is((await get(`${api}/get_company_info?section=${section}`)).status, 200, section);
    }
    assert.is((await get(`${api}/get_company_info?section=nada`)).status, 400);
    assert.is((await get(`${api}/quota`)).status, 401);
    assert.is((await get(`${api}/get_company_info`, { authorization: 'Bearer invalido' })).status, 401);

    const token = await register(site.origin);
    assert.is((await get(`${api}/quota`, { authorization: `Bearer ${token}` })).status, 200);
    assert.is((await get(`${api}/search_pages?query=cerrajero`, { authorization: `Bearer ${token}` })).status, 200);
    const contentOnly = await register(site.origin, 'content:read');
    assert.is((await get(`${api}/quota`, { authorization: `Bearer ${contentOnly}` })).status, 403);
  } finally {
    await site.close();
  }
});

test('a 429 conforms too', async () => {
  const site = await startTestServer({ env: { RATE_LIMIT_ANONYMOUS: '2' }, siteUrlIsOrigin: true });
  try {
    const served = JSON.parse((await request(`${site.origin}/openapi.json`)).text());
    const url = `${site.origin}${BASE}/get_company_info`;
    let last: RawResponse | undefined;
    for (let i = 0; i < 3; i++) {
      last = await request(url);
      check(served, 'GET', url, last);
    }
    assert.is(last!.status, 429);
  } finally {
    await site.close();
  }
});

test.run();
