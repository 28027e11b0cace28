/**
 * The search box in headless Chromium at 390 px, against the real server over the built site: a
 * person types what they want into the header's box of a real page and submits; the results page
 * lists first what search_pages ranks first for the same query and city (asked of the API here),
 * says plainly when nothing is found, and offers the call and WhatsApp actions, the chat opened
 * with the query. Without JavaScript the form works the same; with it, the results follow what is
 * typed, one request once the typing pauses, and the address follows them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { BrowserContext, Page } from 'playwright-core';
import { SEARCH_PAGE_PATH } from '../../formats/search-page.ts';
import { ROOT } from '../../server/config.ts';
import { whatsappText } from '../../server/search-page/content.ts';
import { screenshot } from '../../scripts/lib/chromium.ts';
import { qs, request } from '../helpers/http.ts';
import { browserSite } from '../helpers/browser-site.ts';
import type { TestServer } from '../helpers/server.ts';

const ARTIFACT = path.join(ROOT, 'test-artifacts', '390-search.png');
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

const { server: builtServer, chromium } = browserSite(test, { fixture: 'built', env: { RATE_LIMIT_ANONYMOUS: '1000000' } });

async function withPage(options: { javaScript: boolean }, fn: (page: Page, context: BrowserContext) => Promise<void>): Promise<void> {
  const context = await (await chromium()).newContext({ ...PHONE, javaScriptEnabled: options.javaScript });
  try {
    await fn(await context.newPage(), context);
  } finally {
    await context.close();
  }
}

const box = (page: Page) => page.locator('header').getByRole('searchbox', { name: '¿Qué necesitas?' });
const cityList = (page: Page) => page.locator('header').getByRole('combobox', { name: 'Ciudad' });

/** Types `query` into the header's box of the page open and submits it; resolves once the results page is there. */
async function search(page: Page, query: string): Promise<void> {
  await box(page).pressSequentially(query);
  await Promise.all([page.waitForURL((url) => url.pathname === SEARCH_PAGE_PATH, { waitUntil: 'load' }), box(page).press('Enter')]);
}

const firstFromApi = async (server: TestServer, query: string, city: string): Promise<string | null> => {
  const found = (await request(`${server.base}/search_pages${qs({ query, city })}`)).json();
  return found.results.length === 0 ? null : new URL(found.results[0].url).pathname;
};

const firstShown = (page: Page) => page.locator('#resultados ol.results h2 a').first().getAttribute('href');

async function assertContactActions(page: Page, query: string): Promise<void> {
  const tel = page.locator('#resultados a[href^="tel:"]');
  assert.is(await tel.count(), 1, `${query}: the call action`);
  assert.is(await tel.getAttribute('href'), 'tel:+34910573842');
  const chat = await page.locator('#resultados a[href^="https://wa.me/"]').getAttribute('href');
  assert.is(new URL(chat!).searchParams.get('text'), whatsappText(query), `${query}: WhatsApp with the query`);
}

test('a symptom, a synonym, a typo, Catalan and an off-site query typed into a page\'s header box: the API\'s first result, or nothing found said plainly', async () => {
  const server = await builtServer();
  const cases: Array<{ from: string; query: string; city: string; shown: string }> = [
    { from: '/', query: 'se me sale el agua del termo', city: 'todas', shown: 'Todas' },
    { from: '/servicios/fontaneria/madrid/', query: 'el váter no traga', city: 'madrid', shown: 'Madrid' },
    { from: '/guias/fuga-agua-fregadero/', query: 'fontanro en madrid', city: 'todas', shown: 'Todas' },
    { from: '/ciudades/barcelona/', query: "l'aixeta degota", city: 'barcelona', shown: 'Barcelona' },
    { from: '/contacto/', query: 'mudanzas en madrid', city: 'todas', shown: 'Todas' },
  ];
  await withPage({ javaScript: true }, async (page) => {
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    for (const { from, query, city, shown } of cases) {
      assert.is((await page.goto(server.origin + from))?.status(), 200, from);
      const place = await box(page).boundingBox();
      assert.ok(place !== null && place.y >= 0 && place.y + place.height <= PHONE.viewport.height, `${from}: the box is in the first screen`);
      assert.is(await cityList(page).inputValue(), shown, `${from}: the page's city is chosen`);
      await search(page, query);
      const url = new URL(page.url());
      assert.equal([url.searchParams.get('q'), url.searchParams.get('ciudad')], [query, shown], `${query}: a plain GET form`);
      assert.is(await box(page).inputValue(), query, `${query}: the box keeps it`);
      const expected = await firstFromApi(server, query, city);
      if (expected === null) {
        assert.is(await page.locator('h1').textContent(), `No hay resultados para «${query}»`);
        assert.is(await page.locator('#resultados ol.results').count(), 0, `${query}: no page offered`);
        assert.ok(await page.locator('#resultados a[href="/servicios/fontaneria/"]').count() === 1, `${query}: the services instead`);
      } else {
        assert.is(await firstShown(page), expected, `${query} (${city}): the API's first result`);
      }
      await assertContactActions(page, query);
    }
    assert.ok(cases.some((c) => c.query === 'mudanzas en madrid'));
    fs.mkdirSync(path.dirname(ARTIFACT), { recursive: true });
    await page.goto(`${server.origin}${SEARCH_PAGE_PATH}${qs({ q: 'se me sale el agua del termo', ciudad: 'Madrid' })}`);
    await screenshot(page, { path: ARTIFACT });
    assert.equal(errors, [], 'no script errors');
  });
});

test('without JavaScript, submitting the box opens the results', async () => {
  const server = await builtServer();
  await withPage({ javaScript: false }, async (page) => {
    await page.goto(`${server.origin}/servicios/cerrajeria/sevilla/`);
    await search(page, 'no puedo abrir la puerta');
    assert.is(await firstShown(page), await firstFromApi(server, 'no puedo abrir la puerta', 'sevilla'));
    await assertContactActions(page, 'no puedo abrir la puerta');
  });
});

test('with JavaScript, the results follow the typing, one request once it pauses, and the address follows them', async () => {
  const server = await builtServer();
  await withPage({ javaScript: true }, async (page) => {
    await page.goto(`${server.origin}${SEARCH_PAGE_PATH}${qs({ q: 'grifo', ciudad: 'Valencia' })}`);
    const fetched: string[] = [];
    page.on('request', (req) => { if (new URL(req.url()).pathname === SEARCH_PAGE_PATH) fetched.push(req.url()); });
    const typed = ' que gotea';
    await box(page).press('End');
    await box(page).pressSequentially(typed);
    await page.waitForURL((url) => url.searchParams.get('q') === `grifo${typed}`);
    await page.locator('h1', { hasText: `«grifo${typed}»` }).waitFor();
    assert.ok(fetched.length >= 1 && fetched.length < typed.length / 2, `${fetched.length} requests for ${typed.length} keys`);
    assert.is(new URL(page.url()).searchParams.get('ciudad'), 'Valencia', 'the city kept');
    assert.is(await firstShown(page), await firstFromApi(server, `grifo${typed}`, 'valencia'));
    assert.match(await page.title(), /^«grifo que gotea» · Buscar/);
    await assertContactActions(page, `grifo${typed}`);
    // The address is the page's own: opened again, it shows the same.
    const shared = page.url();
    const first = await firstShown(page);
    await page.goto(shared);
    assert.is(await firstShown(page), first);
  });
});

test.run();
