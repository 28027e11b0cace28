/**
 * Pagefind's bundle in headless Chromium against the real server over the built sample site: a
 * page of the site imports /pagefind/pagefind.js and finds pages by word and by city, every page
 * of the read model is in the bundle, and a page of another origin does the same through CORS.
 */
import http from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { BUNDLE_SCRIPT } from '../../formats/pagefind-bundle.ts';
import { browserSite } from '../helpers/browser-site.ts';

interface Found {
  url: string;
  title: string;
  city: string[] | undefined;
}

/**
 * Runs in the page: imports Pagefind's API from `script`, searches `term` (null: every page) with
 * `city` as filter, and returns every result's URL, title and city.
 */
async function searchIn(page: Page, script: string, term: string | null, city?: string): Promise<Found[]> {
  return page.evaluate(async ({ script, term, city }) => {
    const pf = await import(script);
    const found = await pf.search(term, city ? { filters: { city } } : {});
    const data = await Promise.all(found.results.map((r: { data(): Promise<unknown> }) => r.data()));
    return (data as { url: string; meta: { title: string }; filters: { city?: string[] } }[])
      .map((d) => ({ url: d.url, title: d.meta.title, city: d.filters.city }));
  }, { script, term, city });
}

/** A page that is not the site's: another origin (another port) with an empty document. */
async function otherOrigin(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end('<!doctype html><html lang="es"><title>Otro sitio</title><p>Otro sitio</p></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const { server: builtServer, chromium } = browserSite(test, { fixture: 'built' });

/** `fn` with a fresh page of the browser, its script errors collected, closed afterwards. */
async function withPage(fn: (page: Page, errors: string[]) => Promise<void>): Promise<void> {
  const page = await (await chromium()).newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  try {
    await fn(page, errors);
  } finally {
    await page.close();
  }
}

test('on the site: "fontanero" finds the site\'s pages with their titles; city=madrid only Madrid\'s', async () => {
  const server = await builtServer();
  const model = server.model.current();
  await withPage(async (page, errors) => {
    assert.is((await page.goto(`${server.origin}/`))?.status(), 200);

    const found = await searchIn(page, BUNDLE_SCRIPT, 'fontanero');
    assert.ok(found.length > 0, 'results for "fontanero"');
    for (const r of found) {
      const published = model.byPath.get(r.url);
      assert.ok(published, `${r.url} is a page of the site`);
      assert.is(r.title, published!.title, `${r.url}: its title`);
    }
    assert.ok(found.some((r) => r.url === '/servicios/fontaneria/'), 'the plumbing page is found');

    const inMadrid = await searchIn(page, BUNDLE_SCRIPT, 'fontanero', 'madrid');
    assert.ok(inMadrid.some((r) => r.url === '/servicios/fontaneria/madrid/'), 'the plumbing page of Madrid is found');
    for (const r of inMadrid) {
      assert.equal(r.city, ['madrid'], `${r.url}: Madrid's`);
      assert.is(model.byPath.get(r.url)?.city, 'madrid', `${r.url}: a page of Madrid in the read model`);
    }
    assert.equal(errors, [], 'no script errors on the page');
  });
  assert.equal(server.logged, [], 'no server errors');
});

test('every page of the read model is in the bundle, once', async () => {
  const server = await builtServer();
  await withPage(async (page) => {
    await page.goto(`${server.origin}/`);
    const everyPage = (await searchIn(page, BUNDLE_SCRIPT, null)).map((r) => r.url).sort();
    assert.equal(everyPage, server.model.current().pages.map((p) => p.path).sort());
  });
});

test('from a page of another origin: imported across origins, absolute URLs of the site', async () => {
  const server = await builtServer();
  const other = await otherOrigin();
  try {
    await withPage(async (page, errors) => {
      await page.goto(`${other.origin}/`);
      const found = await searchIn(page, `${server.origin}${BUNDLE_SCRIPT}`, 'fontanero', 'madrid');
      assert.ok(found.some((r) => r.url === `${server.origin}/servicios/fontaneria/madrid/`), found.map((r) => r.url).join(' '));
      assert.ok(found.every((r) => r.url.startsWith(`${server.origin}/`)), 'every URL is the site\'s');
      assert.equal(errors, [], 'no script errors on the page');
    });
  } finally {
    await other.close();
  }
});

test.run();
