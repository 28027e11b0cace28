import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SearchResponseSchema, type SearchResponse } from '../../../formats/schemas/resources.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { qs, request } from '../../helpers/http.ts';
import { sharedReadModel } from '../../helpers/read-model.ts';
import { assertError, assertRateLimitHeaders } from '../../helpers/assertions.ts';

const test = suite<{ api: TestServer }>('search_pages');
test.before(async (ctx) => {
  ctx.api = await startTestServer({ fixture: await sharedReadModel(), env: { RATE_LIMIT_ANONYMOUS: '100000' } });
});
test.after(async (ctx) => { await ctx.api.close(); });

const search = (api: TestServer, params: Record<string, string | number | (string | number)[]>) =>
  request(`${api.base}/search_pages${qs(params)}`);

test('200: exactly {total, results, next_cursor}, results on this site, plain-text excerpts', async ({ api }) => {
  const res = await search(api, { query: 'fontanería' });
  assert.is(res.status, 200);
  assert.match(String(res.headers['content-type']), 'application/json; charset=utf-8');
  const body = SearchResponseSchema.strict().parse(res.json());
  assert.ok(body.results.length > 0);
  assert.is(body.total, body.results.length);
  assert.ok(body.results.length <= 8, 'default limit 8');
  for (const r of body.results) {
    assert.ok(r.url.startsWith(api.config.siteUrl + '/'), r.url);
    assert.not.match(r.excerpt, /<[a-z/]/i, 'no HTML in excerpts');
    assert.equal(Object.keys(r).sort(), ['city', 'excerpt', 'title', 'url']);
  }
  assert.match(String(res.headers.etag), /^"/);
  assertRateLimitHeaders(res, { policy: 'anonimo', limit: 100000 });
});

test('query: required, 2 to 200 characters, once', async ({ api }) => {
  assertError(await search(api, {}), 400, 'rest_missing_callback_param', 'query');
  assertError(await search(api, { city: 'vigo' }), 400, 'rest_missing_callback_param', 'query');
  const short = await search(api, { query: 'a' });
  assertError(short, 400, 'rest_invalid_param', 'query');
  assertRateLimitHeaders(short, { policy: 'anonimo', limit: 100000 });
  assertError(await search(api, { query: '' }), 400, 'rest_invalid_param', 'query');
  assertError(await search(api, { query: 'x'.repeat(201) }), 400, 'rest_invalid_param', 'query');
  assert.is((await search(api, { query: 'ab' })).status, 200);
  assert.is((await search(api, { query: 'fontanería '.repeat(20).slice(0, 200) })).status, 200);
  assertError(await search(api, { query: ['fontanería', 'cerrajería'] }), 400, 'rest_invalid_param', 'query');
});

test('city: one of the 21 slugs or todas; the filter holds', async ({ api }) => {
  const bad = assertError(await search(api, { query: 'cerrajería', city: 'paris' }), 400, 'rest_invalid_param', 'city');
  assert.match(bad.message, 'a-coruna');
  assertError(await search(api, { query: 'cerrajería', city: 'Vigo' }), 400, 'rest_invalid_param', 'city');
  assertError(await search(api, { query: 'cerrajería', city: '' }), 400, 'rest_invalid_param', 'city');
  const vigo = SearchResponseSchema.parse((await search(api, { query: 'cerrajería', city: 'vigo' })).json());
  assert.ok(vigo.results.length > 0);
  // That city's pages first, then the pages for every city; never another city's.
  const cities = vigo.results.map((r) => r.city);
  assert.is(cities[0], 'vigo');
  for (const [i, c] of cities.entries()) assert.ok(c === 'vigo' ? !cities.slice(0, i).includes('') : c === '', cities.join());
  const all = SearchResponseSchema.parse((await search(api, { query: 'cerrajería', city: 'todas' })).json());
  assert.equal(all, SearchResponseSchema.parse((await search(api, { query: 'cerrajería' })).json()), 'todas is the default');
  assert.ok(all.results.some((r) => r.city !== 'vigo'));
});

test('limit: an integer from 1 to 25', async ({ api }) => {
  for (const limit of ['0', '26', '-1', 'abc', '1.5', '1e1', ' 5', '0x10', '', '999999999999']) {
    assertError(await search(api, { query: 'fontanería', limit }), 400, 'rest_invalid_param', 'limit');
  }
  const one = SearchResponseSchema.parse((await search(api, { query: 'fontanería', limit: 1 })).json());
  assert.is(one.total, 1);
  assert.type(one.next_cursor, 'string');
  assert.is((await search(api, { query: 'fontanería', limit: 25 })).status, 200);
});

test('cursor: walking every next_cursor yields every match once, in a stable order', async ({ api }) => {
  const everything = SearchResponseSchema.parse((await search(api, { query: 'fontanería', limit: 25 })).json());
  assert.is(everything.next_cursor, null);
  assert.ok(everything.results.length >= 3, 'enough matches to walk');
  for (const limit of [1, 2]) {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const params: Record<string, string | number> = { query: 'fontanería', limit };
      if (cursor) params.cursor = cursor;
      const page: SearchResponse = SearchResponseSchema.parse((await search(api, params)).json());
      seen.push(...page.results.map((r) => r.url));
      cursor = page.next_cursor;
      if (cursor !== null) assert.ok(cursor.length <= 12, 'cursor fits the 12-character bound');
    } while (cursor !== null && ++pages < 50);
    assert.equal(seen, everything.results.map((r) => r.url), `limit=${limit}`);
  }
});

test('cursor: too long, forged, malformed or from another query → 400, never a 500 or a wrong page', async ({ api }) => {
  const first = SearchResponseSchema.parse((await search(api, { query: 'fontanería', limit: 1 })).json());
  const cursor = first.next_cursor!;
  assertError(await search(api, { query: 'fontanería', cursor: 'x'.repeat(13) }), 400, 'rest_invalid_param', 'cursor');
  assertError(await search(api, { query: 'fontanería', cursor: '' }), 400, 'rest_invalid_param', 'cursor');
  const flipped = cursor.slice(0, -1) + (cursor.endsWith('A') ? 'B' : 'A');
  for (const forged of ['AAAAAAAAAAAA', '!!!', '%00', flipped, cursor.slice(1)]) {
    assertError(await search(api, { query: 'fontanería', limit: 1, cursor: forged }), 400, 'rest_invalid_param', 'cursor');
  }
  assertError(await search(api, { query: 'cerrajería', limit: 1, cursor }), 400, 'rest_invalid_param', 'cursor');
  assertError(await search(api, { query: 'fontanería', city: 'vigo', limit: 1, cursor }), 400, 'rest_invalid_param', 'cursor');
  assert.is((await search(api, { query: 'fontanería', limit: 1, cursor })).status, 200, 'the genuine cursor still works');
  assert.is(api.logged.length, 0);
});

test('a query with no real match returns no results', async ({ api }) => {
  const res = await search(api, { query: 'dentista' });
  assert.equal(res.json(), { total: 0, results: [], next_cursor: null });
});

test.run();
