import zlib from 'node:zlib';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PageSchema } from '../../../formats/schemas/resources.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { qs, request } from '../../helpers/http.ts';
import { sharedReadModel } from '../../helpers/read-model.ts';
import { assertError, assertRateLimitHeaders } from '../../helpers/assertions.ts';

const test = suite<{ api: TestServer }>('read_page');
test.before(async (ctx) => {
  ctx.api = await startTestServer({ fixture: await sharedReadModel(), env: { RATE_LIMIT_ANONYMOUS: '100000' } });
});
test.after(async (ctx) => { await ctx.api.close(); });

const read = (api: TestServer, url: string, headers: Record<string, string> = {}) =>
  request(`${api.base}/read_page${qs({ url })}`, { headers });

const MADRID = '# Fontanería en Madrid\n\nFontaneros en Madrid para fugas de agua, atascos y calentadores en todos los barrios.';

test('every accepted form of the URL returns the same page', async ({ api }) => {
  const fixture = await sharedReadModel();
  const site = api.config.siteUrl;
  const forms = [
    `${site}/servicios/fontaneria/madrid/`,
    `${site.toUpperCase().replace('HTTP://', 'http://')}/servicios/fontaneria/madrid`,
    `${site}:80/servicios/fontaneria/madrid/?utm=x#frag`,
    `${site.replace('http://', 'https://')}/servicios/fontaneria/madrid/`,
    '/servicios/fontaneria/madrid/',
    '/Servicios/Fontaneria/Madrid',
    '/servicios/fontaneria/madrid/index.html',
    '%2Fservicios%2Ffontaneria%2Fmadrid%2F',
    'servicios/fontaneria/madrid',
    'fontaneria-madrid',
    'FONTANERIA-MADRID/',
  ];
  let etag: string | undefined;
  for (const form of forms) {
    const res = await read(api, form);
    assert.is(res.status, 200, form);
    const page = PageSchema.strict().parse(res.json());
    assert.equal(page, {
      title: 'Fontanería en Madrid',
      url: `${site}/servicios/fontaneria/madrid/`,
      markdown: MADRID,
      truncated: false,
      offset: 0,
      next_offset: null,
      total_chars: MADRID.length,
      sections: [],
      version: fixture.pages.find((p) => p.slug === 'fontaneria-madrid')!.hash.slice(0, 12),
    }, form);
    etag ??= String(res.headers.etag);
    assert.is(res.headers.etag, etag, 'same representation, same ETag');
    assertRateLimitHeaders(res, { policy: 'anonimo', limit: 100000 });
  }
});

test('other hosts, schemes and traversal attempts are 404, never 500', async ({ api }) => {
  const inputs = [
    'https://evil.example/servicios/fontaneria/',
    `${api.config.siteUrl}.evil.example/servicios/fontaneria/`,
    `${api.config.siteUrl}:8080/servicios/fontaneria/`,
    'javascript:alert(document.cookie)',
    'file:///etc/passwd',
    '../../../etc/passwd',
    '/servicios/../../etc/passwd',
    '/servicios/%2e%2e/%2e%2e/etc/passwd',
    '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '..%2f..%2fpackage.json',
    '/servicios/fontaneria/%00',
    '/servicios/fontaneria\u0000',
    '/servicios/%E0%A4%A/',
    '%',
    '/server/config.ts',
    '/no-existe/',
    'no-existe',
    '/pages/fontaneria.json',
    'x'.repeat(300),
  ];
  for (const input of inputs) {
    const res = await read(api, input);
    assertError(res, 404, 'agentes_page_not_found');
    assertRateLimitHeaders(res, { policy: 'anonimo', limit: 100000 });
  }
  assert.is(api.logged.length, 0, 'nothing reached the 500 path');
});

test('parameter bounds: missing, empty, over 300 characters, repeated', async ({ api }) => {
  assertError(await request(`${api.base}/read_page`), 400, 'rest_missing_callback_param', 'url');
  assertError(await request(`${api.base}/read_page?other=1`), 400, 'rest_missing_callback_param', 'url');
  assertError(await read(api, ''), 400, 'rest_invalid_param', 'url');
  const tooLong = await read(api, '/' + 'a'.repeat(300));
  const body = assertError(tooLong, 400, 'rest_invalid_param', 'url');
  assert.match(body.message, '300');
  assertRateLimitHeaders(tooLong, { policy: 'anonimo', limit: 100000 });
  assert.is((await read(api, '/' + 'a'.repeat(299))).status, 404, '300 characters is still valid');
  assertError(await request(`${api.base}/read_page${qs({ url: ['fontaneria', 'cerrajeria'] })}`), 400, 'rest_invalid_param', 'url');
  assert.is((await request(`${api.base}/read_page${qs({ url: 'fontaneria', extra: 'ignored' })}`)).status, 200, 'unknown parameters are ignored');
});

test('a page over READ_PAGE_MAX_CHARS comes in parts: each cut after a paragraph, joined the whole Markdown', async ({ api }) => {
  const fixture = await sharedReadModel();
  const full = fixture.longPage.markdown;
  const parts: string[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const res: Awaited<ReturnType<typeof request>> = await request(`${api.base}/read_page${qs({ url: fixture.longPage.path, offset })}`);
    assert.is(res.status, 200, res.text());
    const page = PageSchema.strict().parse(res.json());
    assert.is(page.offset, offset);
    assert.is(page.total_chars, full.length);
    assert.is(page.truncated, page.next_offset !== null);
    assert.ok(page.markdown.length <= api.config.readPageMaxChars, `${page.markdown.length} ≤ ${api.config.readPageMaxChars}`);
    if (page.next_offset !== null) {
      assert.ok(page.markdown.length > api.config.readPageMaxChars / 2);
      assert.ok(page.markdown.endsWith('\n\n'), 'ends after a paragraph');
      assert.is(page.next_offset, offset + page.markdown.length);
    }
    assertRateLimitHeaders(res, { policy: 'anonimo', limit: 100000 });
    parts.push(page.markdown);
    offset = page.next_offset ?? null;
  }
  assert.ok(parts.length >= 2, `${parts.length} parts`);
  assert.is(parts.join(''), full, 'the parts joined are the whole Markdown');
});

test('sections: listed on every part, each readable from its offset', async ({ api }) => {
  const fixture = await sharedReadModel();
  const first = PageSchema.parse((await read(api, fixture.longPage.path)).json());
  assert.ok(first.sections!.length > 0);
  for (const section of first.sections!) {
    const res = await request(`${api.base}/read_page${qs({ url: fixture.longPage.path, offset: section.offset })}`);
    const part = PageSchema.parse(res.json());
    assert.ok(part.markdown.startsWith('#'.repeat(section.level) + ' ' + section.title), section.title);
    assert.equal(part.sections, first.sections);
    assert.ok(res.headers.etag && res.headers.etag !== (await read(api, fixture.longPage.path)).headers.etag, 'a part has its own ETag');
  }
});

test('offset: beyond the text, not an integer, inside a character → 400 naming offset', async ({ api }) => {
  const fixture = await sharedReadModel();
  const at = (offset: string, url = fixture.longPage.path) => request(`${api.base}/read_page?url=${encodeURIComponent(url)}&offset=${offset}`);
  for (const bad of ['-1', '1.5', 'abc', '1e3', '1000000', '']) assertError(await at(bad), 400, 'rest_invalid_param', 'offset');
  const beyond = assertError(await at(String(fixture.longPage.markdown.length)), 400, 'rest_invalid_param', 'offset');
  assert.match(beyond.message, String(fixture.longPage.markdown.length));
  assert.is((await at('0')).status, 200);
  assert.is((await at('1')).status, 200, 'any place in the text is a start');
});

test('HEAD answers like GET without a body', async ({ api }) => {
  const get = await read(api, 'fontaneria');
  const head = await request(`${api.base}/read_page?url=fontaneria`, { method: 'HEAD' });
  assert.is(head.status, 200);
  assert.is(head.body.length, 0);
  assert.is(head.headers['content-length'], get.headers['content-length']);
  assert.is(head.headers.etag, get.headers.etag);
  assertRateLimitHeaders(head, { policy: 'anonimo', limit: 100000 });
});

test('strong ETag and If-None-Match → 304 with the same headers and no body', async ({ api }) => {
  const first = await read(api, 'fontaneria');
  const etag = String(first.headers.etag);
  assert.match(etag, /^"[^"]+"$/, 'strong: no W/ prefix');
  for (const inm of [etag, `"otro", ${etag}`, `W/${etag}`, '*']) {
    const res = await read(api, 'fontaneria', { 'If-None-Match': inm });
    assert.is(res.status, 304, inm);
    assert.is(res.body.length, 0);
    assert.is(res.headers.etag, etag);
    assert.is(res.headers['cache-control'], first.headers['cache-control']);
    assert.is(res.headers.vary, 'Authorization, Accept-Encoding');
    assertRateLimitHeaders(res, { policy: 'anonimo', limit: 100000 });
  }
  assert.is((await read(api, 'fontaneria', { 'If-None-Match': '"otro"' })).status, 200);
  assert.is((await read(api, 'cerrajeria', { 'If-None-Match': etag })).status, 200, 'another page, another tag');
});

test('large bodies are served compressed when accepted, precompressed with their own ETags', async ({ api }) => {
  const fixture = await sharedReadModel();
  const plain = await read(api, fixture.longPage.path);
  assert.is(plain.headers['content-encoding'], undefined);
  const br = await read(api, fixture.longPage.path, { 'Accept-Encoding': 'gzip, deflate, br' });
  assert.is(br.headers['content-encoding'], 'br');
  assert.equal(zlib.brotliDecompressSync(br.body), plain.body);
  assert.is(Number(br.headers['content-length']), br.body.length);
  const gz = await read(api, fixture.longPage.path, { 'Accept-Encoding': 'gzip' });
  assert.is(gz.headers['content-encoding'], 'gzip');
  assert.equal(zlib.gunzipSync(gz.body), plain.body);
  assert.ok(new Set([plain.headers.etag, br.headers.etag, gz.headers.etag]).size === 3, 'one strong ETag per encoding');
  assert.is((await read(api, fixture.longPage.path, { 'Accept-Encoding': 'br', 'If-None-Match': String(plain.headers.etag) })).status, 304);
  const small = await read(api, 'fontaneria', { 'Accept-Encoding': 'br' });
  assert.is(small.headers['content-encoding'], undefined, 'bodies under 1 KB are not compressed');
});

test.run();
