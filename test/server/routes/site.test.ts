/**
 * The static site fallback over the built site and read model: `Accept` negotiation between a
 * page's HTML and its Markdown, `Vary` and `Link` on every page response, validators and 304s on
 * both representations, and 404s as before.
 */
import zlib from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { API_BASE } from '../../../server/paths.ts';
import { PAGE_LINK, pageLink } from '../../../server/routes/site.ts';
import { request, type RawResponse } from '../../helpers/http.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

const PAGE = '/precios/';

// Started by the first test, not in a `before` hook: uvu reports a failing hook as nothing at all.
let started: Promise<TestServer> | undefined;
let server: TestServer;

const get = async (path: string, headers: Record<string, string> = {}, method = 'GET') => {
  server = await (started ??= startTestServer({ fixture: 'built' }));
  return request(server.origin + path, { method, headers });
};
const markdownOf = async (path: string) => {
  const model = server.model.current();
  const page = model.byPath.get(path);
  if (!page) throw new Error(`no page ${path} in the read model`);
  return (await model.textOf(page)).markdown;
};
const withNewline = (s: string) => (s.endsWith('\n') ? s : `${s}\n`);

function assertHtml(res: RawResponse, what: string): void {
  assert.is(res.status, 200, what);
  assert.match(String(res.headers['content-type']), /^text\/html;\s*charset=utf-8$/i, what);
  assert.match(res.text(), /^<!DOCTYPE html>/i, what);
}

async function assertMarkdown(res: RawResponse, path: string, what: string): Promise<void> {
  assert.is(res.status, 200, what);
  assert.is(res.headers['content-type'], 'text/markdown; charset=utf-8', what);
  assert.is(res.text(), withNewline(await markdownOf(path)), what);
}

function assertPageHeaders(res: RawResponse, what: string, path: string): void {
  const vary = String(res.headers.vary ?? '').split(',').map((v) => v.trim().toLowerCase());
  assert.ok(vary.includes('accept'), `${what}: Vary names Accept (${res.headers.vary})`);
  assert.is(res.headers.link, pageLink(path), `${what}: Link`);
  assert.ok(pageLink(path).endsWith(`<${path}>; rel="alternate"; type="text/markdown"`), `${what}: the page's Markdown`);
}

test.after(async () => {
  await (await started?.catch(() => undefined))?.close();
});

test('Link points to the API catalogue and /llms.txt, both served', async () => {
  assert.is(PAGE_LINK, '</.well-known/api-catalog>; rel="api-catalog", </llms.txt>; rel="describedby"; type="text/plain"');
  for (const [target, type] of [['/.well-known/api-catalog', /^application\/linkset\+json/], ['/llms.txt', /^text\/plain/]] as const) {
    const res = await get(target);
    assert.is(res.status, 200, target);
    assert.match(String(res.headers['content-type']), type, target);
  }
});

test('HTML for browsers, */*, text/*, no Accept and ties; Vary and Link on each', async () => {
  const accepts = [
    'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
    '*/*',
    'text/*',
    'text/html, text/markdown',
    'text/markdown;q=0.5, text/html',
    'text/markdown;q=0',
  ];
  for (const accept of accepts) {
    const res = await get(PAGE, { Accept: accept });
    assertHtml(res, accept);
    assertPageHeaders(res, accept, PAGE);
  }
  const bare = await get(PAGE);
  assertHtml(bare, 'no Accept');
  assertPageHeaders(bare, 'no Accept', PAGE);
});

test('Markdown when text/markdown is preferred or the only type', async () => {
  const accepts = [
    'text/markdown',
    'text/markdown, text/html;q=0.9, */*;q=0.8',
    'text/html;q=0.5, text/markdown;q=0.6',
    'text/markdown, */*',
    'TEXT/MARKDOWN; charset=utf-8',
  ];
  for (const accept of accepts) {
    const res = await get(PAGE, { Accept: accept });
    await assertMarkdown(res, PAGE, accept);
    assertPageHeaders(res, accept, PAGE);
    assert.is(res.headers['cache-control'], 'public, max-age=300, must-revalidate', accept);
  }
});

test('Markdown of the home page, a nested page, a page without its trailing slash and the sandbox', async () => {
  await assertMarkdown(await get('/', { Accept: 'text/markdown' }), '/', 'home');
  await assertMarkdown(await get('/servicios/fontaneria/madrid/', { Accept: 'text/markdown' }), '/servicios/fontaneria/madrid/', 'service × city');
  await assertMarkdown(await get('/precios', { Accept: 'text/markdown' }), PAGE, 'no trailing slash');
  await assertMarkdown(await get('/precios/index.html', { Accept: 'text/markdown' }), PAGE, 'index.html');
  await assertMarkdown(await get('/api/sandbox/', { Accept: 'text/markdown' }), '/api/sandbox/', 'sandbox');
  assert.match(await markdownOf('/'), /^# /);
});

test('/api/sandbox and /api/sandbox/ both answer the sandbox page', async () => {
  for (const path of ['/api/sandbox', '/api/sandbox/']) {
    const res = await get(path, { Accept: 'text/html' });
    assertHtml(res, path);
    assertPageHeaders(res, path, path);
    assert.match(res.text(), /<h1[^>]*>Sandbox de la API<\/h1>/, path);
  }
});

test('Markdown: strong ETag from the page hash, 304 on If-None-Match, compressed variants, HEAD', async () => {
  const first = await get(PAGE, { Accept: 'text/markdown' });
  const page = server.model.current().byPath.get(PAGE)!;
  const markdown = await markdownOf(PAGE);
  const etag = String(first.headers.etag);
  assert.is(etag, `"md-${page.hash.slice(0, 32)}"`);

  const again = await get(PAGE, { Accept: 'text/markdown', 'If-None-Match': etag });
  assert.is(again.status, 304);
  assert.is(again.body.length, 0);
  assert.is(again.headers.etag, etag);
  assertPageHeaders(again, 'Markdown 304', PAGE);

  // The HTML's validator does not revalidate the Markdown, nor the other way round.
  const html = await get(PAGE, { Accept: 'text/html' });
  const htmlEtag = String(html.headers.etag);
  assert.ok(htmlEtag && htmlEtag !== etag);
  assert.is((await get(PAGE, { Accept: 'text/markdown', 'If-None-Match': htmlEtag })).status, 200);
  assert.is((await get(PAGE, { Accept: 'text/html', 'If-None-Match': etag })).status, 200);

  const br = await get(PAGE, { Accept: 'text/markdown', 'Accept-Encoding': 'gzip, br' });
  assert.is(br.headers['content-encoding'], 'br');
  assert.is(br.headers.etag, `"md-${page.hash.slice(0, 32)}-br"`);
  assert.is(zlib.brotliDecompressSync(br.body).toString('utf8'), withNewline(markdown));
  assert.is((await get(PAGE, { Accept: 'text/markdown', 'Accept-Encoding': 'br', 'If-None-Match': String(br.headers.etag) })).status, 304);

  const head = await get(PAGE, { Accept: 'text/markdown' }, 'HEAD');
  assert.is(head.status, 200);
  assert.is(head.body.length, 0);
  assert.is(Number(head.headers['content-length']), Buffer.byteLength(withNewline(markdown)));
  assert.is(head.headers.etag, etag);
});

test('HTML: 304 on If-None-Match keeps Vary and Link', async () => {
  const html = await get(PAGE, { Accept: 'text/html' });
  const res = await get(PAGE, { Accept: 'text/html', 'If-None-Match': String(html.headers.etag) });
  assert.is(res.status, 304);
  assert.is(res.body.length, 0);
  assertPageHeaders(res, 'HTML 304', PAGE);
});

test('404s: the HTML 404 page for browsers, JSON for Markdown and machines; no Markdown of unknown pages', async () => {
  const html = await get('/no-existe/', { Accept: 'text/html' });
  assert.is(html.status, 404);
  assert.match(String(html.headers['content-type']), /^text\/html/);
  assertPageHeaders(html, 'HTML 404', '/no-existe/');

  for (const accept of ['text/markdown', 'application/json']) {
    const res = await get('/no-existe/', { Accept: accept });
    assert.is(res.status, 404, accept);
    assert.match(String(res.headers['content-type']), /^application\/json/, accept);
    assert.is(res.json().code, 'rest_no_route', accept);
    assert.is(res.headers['cache-control'], 'no-cache', accept);
  }
  // A built file that is not a page is never answered as Markdown.
  const md404 = await get('/404.html', { Accept: 'text/markdown' });
  assert.not.equal(md404.headers['content-type'], 'text/markdown; charset=utf-8');
});

test('assets and the API are left alone: no Vary: Accept, no Link, no Markdown', async () => {
  const html = (await get('/', { Accept: 'text/html' })).text();
  const asset = /(?:href|src)="(\/_astro\/[^"]+)"/.exec(html)?.[1];
  assert.ok(asset, 'the home page references an /_astro/ asset');
  for (const path of [asset, '/favicon.svg', '/robots.txt']) {
    const res = await get(path, { Accept: 'text/markdown' });
    assert.is(res.status, 200, path);
    assert.is(res.headers.link, undefined, path);
    assert.not.match(String(res.headers.vary ?? ''), /(^|,\s*)accept(\s*,|$)/i, path);
  }
  assert.is((await get(asset)).headers['cache-control'], 'public, max-age=31536000, immutable');

  const api = await get(`${API_BASE}/get_company_info`, { Accept: 'text/markdown' });
  assert.is(api.status, 200);
  assert.match(String(api.headers['content-type']), /^application\/json/);
  assert.is(api.headers.link, undefined);
});

test('other methods on pages: 405 JSON with Allow', async () => {
  const res = await get(PAGE, { Accept: 'text/markdown' }, 'POST');
  assert.is(res.status, 405);
  assert.is(res.headers.allow, 'GET, HEAD');
  assert.equal(server.logged, []);
});

test('Range (RFC 9110 §14): one satisfiable range → 206; past the end → 416 with the size; invalid, multiple or suffix ranges → the whole file; never an empty reply', async () => {
  const file = '/favicon.svg';
  const whole = await get(file, { 'accept-encoding': 'identity' });
  assert.is(whole.status, 200);
  const body = whole.body;
  const size = body.length;
  const ranged = async (range: string) => get(file, { 'accept-encoding': 'identity', range });

  const first = await ranged('bytes=0-9');
  assert.is(first.status, 206);
  assert.is(first.headers['content-range'], `bytes 0-9/${size}`);
  assert.equal(first.body, body.subarray(0, 10));
  const tail = await ranged('bytes=5-');
  assert.is(tail.status, 206);
  assert.equal(tail.body, body.subarray(5));
  const overflowing = await ranged('bytes=2-99999999999999999999');
  assert.is(overflowing.status, 206);
  assert.is(overflowing.headers['content-range'], `bytes 2-${size - 1}/${size}`);
  assert.equal(overflowing.body, body.subarray(2));

  for (const range of [`bytes=${size}-`, 'bytes=99999999999999999999-', `bytes=${size + 5}-${size + 9}`]) {
    const res = await ranged(range);
    assert.is(res.status, 416, range);
    assert.is(res.headers['content-range'], `bytes */${size}`, range);
  }
  for (const range of ['bytes=5-1', 'bytes=abc', 'bytes=0-1,3-4', 'bytes=-5', 'bytes=0-0', 'items=0-5', 'bytes=']) {
    const res = await ranged(range);
    assert.is(res.status, 200, range);
    assert.equal(res.body, body, range);
  }
});

test.run();
