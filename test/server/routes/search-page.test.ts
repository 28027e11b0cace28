/**
 * /buscar/, the site's search results page, over the built site and read model: the same ranking
 * as search_pages, the same anonymous quota window as the API, its caching and robots headers,
 * its 400 and 429 pages in HTML, escaping, and that the page is never part of what is published.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SEARCH_PAGE_PATH } from '../../../formats/search-page.ts';
import { whatsappText } from '../../../server/search-page/content.ts';
import { RESULTS_SHOWN } from '../../../server/search-page/params.ts';
import { assertError } from '../../helpers/assertions.ts';
import { qs, request, type RawResponse } from '../../helpers/http.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

// Started by the first test, not in a `before` hook: uvu reports a failing hook as nothing at all.
let started: Promise<TestServer> | undefined;
const built = () => (started ??= startTestServer({ fixture: 'built', env: { RATE_LIMIT_ANONYMOUS: '1000000' } }));

test.after(async () => {
  await (await started?.catch(() => undefined))?.close();
});

const page = async (params: Record<string, string | string[]>, headers: Record<string, string> = {}) =>
  request((await built()).origin + SEARCH_PAGE_PATH + qs(params), { headers, decode: true });

/** The result links of a results page, in order. */
const resultLinks = (html: string) => [...html.matchAll(/<li><h2><a href="([^"]+)">/g)].map((m) => m[1]);
const pathOf = (url: string) => new URL(url).pathname;

/** The anonymous window's headers, as the API writes them (it alone adds API-Version). */
function assertWindow(res: RawResponse, limit: number, remaining: number, what: string): number {
  assert.is(res.headers['ratelimit-policy'], `"anonimo";q=${limit};w=60`, what);
  assert.match(String(res.headers.ratelimit), new RegExp(`^"anonimo";r=${remaining};t=\\d+$`), what);
  assert.is(res.headers['ratelimit-remaining'], String(remaining), what);
  return Number(res.headers['ratelimit-reset']);
}

function assertHtmlPage(res: RawResponse, status: number, what: string): string {
  assert.is(res.status, status, what);
  assert.is(res.headers['content-type'], 'text/html; charset=utf-8', what);
  assert.is(res.headers['x-robots-tag'], 'noindex', what);
  const html = res.text();
  assert.match(html, /^<!DOCTYPE html>/i, what);
  assert.ok(html.includes('<meta name="robots" content="noindex">'), `${what}: the robots meta`);
  return html;
}

test('results ranked as search_pages ranks them, with city names, marked excerpts and the call and WhatsApp actions', async () => {
  const server = await built();
  // The query, the city as the form sends it, and as the API takes it.
  const queries: Array<[string, string, string]> = [
    ['se me sale el agua del termo', 'Todas', 'todas'], ['el váter no traga', 'Madrid', 'madrid'], ['fontanro en madrid', 'todas', 'todas'],
    ["l'aixeta degota", 'Barcelona', 'barcelona'], ['cerrajero', 'A Coruña', 'a-coruna'], ['pintor', 'las-palmas', 'las-palmas'],
  ];
  for (const [q, ciudad, city] of queries) {
    const res = await page({ q, ciudad });
    const html = assertHtmlPage(res, 200, q);
    const api = (await request(`${server.base}/search_pages${qs({ query: q, city, limit: RESULTS_SHOWN })}`)).json();
    assert.ok(api.results.length > 0, `${q}: the API finds it`);
    assert.equal(resultLinks(html), api.results.map((r: { url: string }) => pathOf(r.url)), `${q} (${ciudad}): the API's order`);
    assert.ok(html.includes(`href="https://wa.me/34634573842?text=${encodeURIComponent(whatsappText(q)).replace(/'/g, '&#39;')}"`), `${q}: WhatsApp with the query`);
    assert.ok(html.includes('href="tel:+34910573842"'), `${q}: the call action`);
  }
  const html = (await page({ q: 'fuga de agua', ciudad: 'madrid' })).text();
  assert.ok(html.includes('<p class="results__city">Madrid</p>') && html.includes('<p class="results__city">Todas las ciudades</p>'), 'city names');
  assert.match(html, /<mark>[Ff]ugas?<\/mark>/, 'the query words marked');
  assert.ok(html.includes('value="fuga de agua"'), 'the box keeps the query');
  assert.ok(html.includes('<option selected>Madrid'), 'and the city');
});

test('more results than a page: the next ones by a link, as search_pages\' cursor walks them', async () => {
  const server = await built();
  const first = (await page({ q: 'fontanero', ciudad: 'madrid' })).text();
  const next = /<p class="more"><a href="([^"]+)">Más resultados<\/a>/.exec(first)?.[1]?.replace(/&amp;/g, '&');
  assert.ok(next, 'a link to more');
  const second = (await request(server.origin + next!, { decode: true })).text();
  const api = (await request(`${server.base}/search_pages${qs({ query: 'fontanero', city: 'madrid', limit: 25 })}`)).json();
  assert.equal([...resultLinks(first), ...resultLinks(second)], api.results.slice(0, 2 * RESULTS_SHOWN).map((r: { url: string }) => pathOf(r.url)));
});

test('nothing found is said plainly, with the services and the contact actions, and no page', async () => {
  const html = assertHtmlPage(await page({ q: 'mudanzas en madrid', ciudad: 'Todas' }), 200, 'off-site');
  assert.ok(html.includes('No hay resultados para «mudanzas en madrid»'));
  assert.equal(resultLinks(html), []);
  assert.ok(html.includes('href="/servicios/fontaneria/"') && html.includes('href="/servicios/cerrajeria/"'), 'the services');
  assert.ok(html.includes('href="tel:+34910573842"') && html.includes(`?text=${encodeURIComponent(whatsappText('mudanzas en madrid'))}"`), 'the actions');
});

test('no query: the invitation to search and the services, nothing counted', async () => {
  for (const params of [{}, { q: '   ' }] as Array<Record<string, string>>) {
    const res = await page(params);
    const html = assertHtmlPage(res, 200, 'empty');
    assert.ok(html.includes('<h1>Buscar</h1>') && html.includes('href="/servicios/fontaneria/"'));
    assert.is(res.headers['ratelimit-policy'], undefined, 'no search, no count');
  }
});

test('headers: public for a short while, Vary on Accept-Encoding only, an ETag and its 304, compressed when accepted; a token is not read', async () => {
  const res = await page({ q: 'grifo', ciudad: 'valencia' }, { 'Accept-Encoding': 'br, gzip' });
  assertHtmlPage(res, 200, 'results');
  assert.is(res.headers['cache-control'], 'public, max-age=60');
  assert.is(res.headers.vary, 'Accept-Encoding');
  assert.is(res.headers['content-encoding'], 'br');
  assertWindow(res, 1000000, Number(res.headers['ratelimit-remaining']), 'counted');
  const again = await page({ q: 'grifo', ciudad: 'valencia' }, { 'Accept-Encoding': 'br, gzip', 'If-None-Match': String(res.headers.etag) });
  assert.is(again.status, 304);
  const withToken = await page({ q: 'grifo' }, { Authorization: 'Bearer not-a-token' });
  assert.is(withToken.status, 200, 'a browser page is anonymous: an Authorization header is not read');
  assert.match(String(withToken.headers['ratelimit-policy']), /^"anonimo"/);
});

test('parameters search_pages refuses: a 400 page in HTML, never cached, as the API refuses them', async () => {
  const server = await built();
  const cases: Array<[Record<string, string | string[]>, Record<string, string>, string, string]> = [
    [{ q: 'a'.repeat(201) }, { query: 'a'.repeat(201) }, 'query', 'entre 2 y 200 caracteres'],
    [{ q: 'x' }, { query: 'x' }, 'query', 'entre 2 y 200 caracteres'],
    [{ q: 'fontanero', ciudad: 'narnia' }, { query: 'fontanero', city: 'narnia' }, 'city', 'no está en nuestra lista'],
    [{ q: 'fontanero', desde: 'AAAAAAAAAAAA' }, { query: 'fontanero', cursor: 'AAAAAAAAAAAA' }, 'cursor', 'ya no vale'],
    [{ q: ['grifo', 'termo'] }, { query: 'grifo' }, 'query', 'mal formada'],
  ];
  for (const [params, apiParams, hint, says] of cases) {
    const res = await page(params);
    const html = assertHtmlPage(res, 400, hint);
    assert.is(res.headers['cache-control'], 'no-store');
    assert.ok(html.includes('No hemos podido hacer esa búsqueda') && html.includes(says), `${hint}: ${says}`);
    if (!Array.isArray(params.q)) assertError(await request(`${server.base}/search_pages${qs(apiParams)}`), 400, 'rest_invalid_param', hint);
  }
});

test('the query is escaped everywhere it is shown', async () => {
  const q = '<script>alert("x")</script> fuga';
  const html = assertHtmlPage(await page({ q }), 200, 'script');
  assert.not.ok(html.includes('<script>alert'), 'no markup from the query');
  assert.ok(html.includes('«&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; fuga»'), 'shown escaped');
  assert.ok(html.includes('value="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; fuga"'), 'in the box');
});

test('the page shares the API\'s anonymous window: searches here use it up, then the API and the page answer 429, the page in HTML', async () => {
  const shared = await built();
  const server = await startTestServer({ fixture: 'built', model: shared.model, env: { RATE_LIMIT_ANONYMOUS: '3' } });
  try {
    for (let i = 0; i < 3; i++) {
      const res = await request(`${server.origin}${SEARCH_PAGE_PATH}${qs({ q: `grifo ${i}` })}`);
      assert.is(res.status, 200, `search ${i + 1}`);
      assertWindow(res, 3, 2 - i, `search ${i + 1}`);
    }
    const api = await request(`${server.base}/search_pages?query=grifo`);
    assertError(api, 429, 'agentes_rate_limited');
    const res = await request(`${server.origin}${SEARCH_PAGE_PATH}${qs({ q: 'el termo gotea' })}`, { decode: true });
    const html = assertHtmlPage(res, 429, 'over quota');
    const t = assertWindow(res, 3, 0, 'over quota');
    assert.ok(Number(res.headers['retry-after']) >= t && t > 0, `Retry-After ${res.headers['retry-after']}`);
    assert.is(res.headers['cache-control'], 'no-store');
    assert.ok(html.includes('Demasiadas búsquedas seguidas') && html.includes(`${res.headers['retry-after']} segundo`));
    assert.ok(html.includes(`?text=${encodeURIComponent(whatsappText('el termo gotea'))}"`), 'the contact actions still there');
  } finally {
    await server.close();
  }
});

test('never published: not in the read model, search_pages, llms.txt or the sitemap; read_page does not know it', async () => {
  const server = await built();
  const model = server.model.current();
  assert.is(model.byPath.get(SEARCH_PAGE_PATH), undefined);
  assert.not.ok(model.pages.some((p) => p.path.startsWith(SEARCH_PAGE_PATH)));
  for (const query of ['buscar', 'busca tu problema']) {
    const found = (await request(`${server.base}/search_pages${qs({ query, limit: 25 })}`)).json();
    assert.not.ok(found.results.some((r: { url: string }) => pathOf(r.url).startsWith(SEARCH_PAGE_PATH)), query);
  }
  assert.not.ok((await request(`${server.origin}/llms.txt`)).text().includes(SEARCH_PAGE_PATH));
  const sitemap = (await request(`${server.origin}/sitemap-0.xml`)).text();
  assert.ok(sitemap.includes('/precios/') && !sitemap.includes(SEARCH_PAGE_PATH));
  assertError(await request(`${server.base}/read_page${qs({ url: SEARCH_PAGE_PATH })}`), 404, 'agentes_page_not_found');
});

test.run();
