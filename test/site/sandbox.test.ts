/**
 * /api/sandbox/ in headless Chromium against the real server over the built site and read model:
 * a person searches, sees the results and the quota headers, opens a result with read_page, and
 * reads their own quota with a token obtained through the real OAuth endpoints. The page's
 * Markdown (read model) keeps the explanation and none of the widgets.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { ROOT } from '../../server/config.ts';
import { API_BASE } from '../../server/paths.ts';
import { CITY_SLUGS } from '../../formats/schemas/cities.ts';
import { COMPANY_SECTIONS } from '../../formats/schemas/resources.ts';
import { browserSite } from '../helpers/browser-site.ts';
import { screenshot } from '../../scripts/lib/chromium.ts';

const ARTIFACT = path.join(ROOT, 'test-artifacts', 'sandbox.png');
const TIMEOUT = 15_000;

/** Waits until the panel's status line starts with `<op>: <status>`. */
async function waitForStatus(page: Page, op: string, status: number): Promise<void> {
  await page.locator('[data-status]').filter({ hasText: new RegExp(`^${op}: ${status}\\b`) }).waitFor({ timeout: TIMEOUT });
}

const headerShown = (page: Page, name: string) => page.locator(`td[data-header="${name}"]`).textContent({ timeout: TIMEOUT });

// The first test counts on being the first to call the API (its quota headers).
const { server: builtServer, chromium } = browserSite(test, { fixture: 'built' });

test('sandbox: search "fontanero" in Madrid, see results and RateLimit, open a result with read_page', async () => {
  const server = await builtServer();
  const page = await (await chromium()).newPage({ viewport: { width: 1280, height: 1000 } });
  try {
    const pageErrors: string[] = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    page.on('console', (msg) => { if (msg.type() === 'error') pageErrors.push(msg.text()); });

    const response = await page.goto(`${server.origin}/api/sandbox/`);
    assert.is(response?.status(), 200);

    await page.getByLabel('Texto a buscar').fill('fontanero');
    await page.locator('main').getByLabel('Ciudad').selectOption('madrid');
    await page.locator('main').getByRole('button', { name: 'Buscar', exact: true }).click();
    await waitForStatus(page, 'search_pages', 200);

    // The headers the page shows are the ones the API sent: a first anonymous request.
    assert.match((await headerShown(page, 'RateLimit')) ?? '', /^"anonimo";r=59;t=\d+$/);
    assert.match((await headerShown(page, 'RateLimit-Policy')) ?? '', /^"anonimo";q=60;w=60$/);
    assert.is(await headerShown(page, 'RateLimit-Limit'), '60');
    assert.is(await headerShown(page, 'API-Version'), '1');
    assert.match((await page.locator('[data-request]').textContent()) ?? '', /^GET \/wp-json\/agentes\/v1\/search_pages\?query=fontanero&city=madrid&limit=8$/);

    // The results listed are the API's answer for the same search, in order.
    const json = JSON.parse((await page.locator('[data-json]').textContent()) ?? '');
    assert.ok(json.results.length > 0, 'results for "fontanero" in Madrid');
    // Madrid's pages first, then the pages for every city, never another city's.
    const cities = (json.results as { city: string }[]).map((r) => r.city);
    assert.ok(cities[0] === 'madrid' && cities.every((c) => c === 'madrid' || c === ''), cities.join());
    const links = page.locator('[data-results-list] a[data-read-url]');
    const shown = await links.evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).dataset.readUrl));
    assert.equal(shown, json.results.map((r: { url: string }) => r.url));
    assert.ok(json.results.some((r: { url: string }) => r.url.endsWith('/servicios/fontaneria/madrid/')), 'the plumbing page of Madrid is found');

    // Clicking a result's URL runs read_page with it, on this page.
    const first: string = json.results[0].url;
    await links.first().click();
    await waitForStatus(page, 'read_page', 200);
    assert.is(new URL(page.url()).pathname, '/api/sandbox/');
    assert.is(await page.getByLabel(/URL, ruta o slug/).inputValue(), first);
    const expected = await (await fetch(`${server.origin}${API_BASE}/read_page?url=${encodeURIComponent(first)}`)).json();
    const markdown = (await page.locator('[data-markdown-text]').textContent()) ?? '';
    assert.ok(markdown.startsWith(expected.markdown), 'the Markdown shown is read_page\'s');
    assert.ok(markdown.startsWith('# '), 'the Markdown starts with the page title');
    assert.match((await headerShown(page, 'RateLimit')) ?? '', /^"anonimo";r=5[0-8];t=\d+$/);

    fs.mkdirSync(path.dirname(ARTIFACT), { recursive: true });
    await page.locator('.sandbox').scrollIntoViewIfNeeded();
    await screenshot(page, { path: ARTIFACT });
    console.log(`sandbox screenshot: ${ARTIFACT}`);

    assert.equal(pageErrors, [], 'no script errors on the page');
    assert.equal(server.logged, [], 'no server errors');
  } finally {
    await page.close();
  }
});

test('sandbox: get_quota without a token is a 401 with its challenge; with a real token, the quota', async () => {
  const server = await builtServer();
  const page = await (await chromium()).newPage({ viewport: { width: 1280, height: 1000 } });
  try {
    await page.goto(`${server.origin}/api/sandbox/`);

    await page.getByRole('button', { name: 'Consultar cuota' }).click();
    await waitForStatus(page, 'get_quota', 401);
    assert.match((await headerShown(page, 'WWW-Authenticate')) ?? '', /^Bearer .*resource_metadata="[^"]+"/);

    const registered = await fetch(`${server.origin}/oauth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_name: 'sandbox test', contacts: ['dev@example.com'] }),
    });
    assert.is(registered.status, 201);
    const client = await registered.json();
    const issued = await fetch(`${server.origin}/oauth/token`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: 'Basic ' + Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64'),
      },
      body: 'grant_type=client_credentials',
    });
    assert.is(issued.status, 200);
    const { access_token: token } = await issued.json();

    await page.getByLabel(/Token de acceso/).fill(token);
    await page.getByRole('button', { name: 'Consultar cuota' }).click();
    await waitForStatus(page, 'get_quota', 200);
    const json = JSON.parse((await page.locator('[data-json]').textContent()) ?? '');
    assert.is(json.client_id, client.client_id);
    assert.is(json.policy, 'identificado');
    assert.match((await headerShown(page, 'RateLimit-Policy')) ?? '', /^"identificado";q=600;w=60$/);
    // The token is never shown back, not even in the curl line.
    assert.not.ok(((await page.locator('.result').textContent()) ?? '').includes(token));
  } finally {
    await page.close();
  }
});

test('sandbox page: forms from the OpenAPI document; its Markdown keeps the text, not the widgets', async () => {
  const server = await builtServer();
  const html = await (await fetch(`${server.origin}/api/sandbox/`)).text();
  for (const op of ['search_pages', 'read_page', 'get_company_info', 'get_quota']) {
    assert.match(html, new RegExp(`<form[^>]*data-op="${op}"`), op);
  }
  for (const slug of [...CITY_SLUGS, 'todas']) assert.ok(html.includes(`<option value="${slug}"`), `city ${slug}`);
  for (const section of COMPANY_SECTIONS) assert.ok(html.includes(`<option value="${section}"`), `section ${section}`);

  const model = server.model.current();
  const page = model.byPath.get('/api/sandbox/');
  assert.ok(page, 'the sandbox page is published in the read model');
  const { markdown } = await model.textOf(page);
  assert.match(markdown, /^# Sandbox de la API/);
  assert.match(markdown, /solo lectura/);
  for (const widget of ['Texto a buscar', 'Consultar cuota', 'Respuesta', 'Token de acceso']) {
    assert.not.ok(markdown.includes(widget), `the Markdown has no "${widget}"`);
  }
});

/** Whether the element's top and bottom are both inside the viewport. */
const onScreen = (page: Page, selector: string) => page.locator(selector).first().evaluate((el) => {
  const r = el.getBoundingClientRect();
  return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight;
});

test('sandbox on a phone: a search brings its results into view, and reading a result brings the answer below the forms', async () => {
  const server = await builtServer();
  const page = await (await chromium()).newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  try {
    await page.goto(`${server.origin}/api/sandbox/`);
    await page.getByLabel('Texto a buscar').fill('cerrajero');
    await page.locator('main').getByRole('button', { name: 'Buscar', exact: true }).click();
    await waitForStatus(page, 'search_pages', 200);
    assert.ok(await onScreen(page, '#results-title'), 'the search results are on screen');

    await page.locator('[data-results-list] a[data-read-url]').first().click();
    await waitForStatus(page, 'read_page', 200);
    assert.ok(await onScreen(page, '[data-status]'), 'the answer of read_page is on screen');
  } finally {
    await page.close();
  }
});

test.run();
