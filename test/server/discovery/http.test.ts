/**
 * HTTP behaviour shared by every discovery document: media type, cross-origin GET, caching with
 * a strong ETag and 304, content coding, HEAD, preflight and 405.
 */
import zlib from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildOpenApi } from '../../../server/discovery/openapi.ts';
import { request } from '../../helpers/http.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

let site: TestServer;
test.before(async () => { site = await startTestServer({ siteUrlIsOrigin: true }); });
test.after(async () => { await site.close(); });

const DOCUMENTS: Record<string, RegExp> = {
  '/openapi.json': /^application\/json; charset=utf-8$/,
  '/.well-known/oauth-authorization-server': /^application\/json; charset=utf-8$/,
  '/.well-known/oauth-protected-resource': /^application\/json; charset=utf-8$/,
  '/.well-known/oauth-protected-resource/wp-json/agentes/v1': /^application\/json; charset=utf-8$/,
  '/.well-known/oauth-protected-resource/mcp': /^application\/json; charset=utf-8$/,
  '/.well-known/api-catalog': /^application\/linkset\+json; profile="https:\/\/www\.rfc-editor\.org\/info\/rfc9727"$/,
  '/agents.md': /^text\/markdown; charset=utf-8$/,
  '/auth.md': /^text\/markdown; charset=utf-8$/,
  '/llms.txt': /^text\/plain; charset=utf-8$/,
  '/llms-full.txt': /^text\/plain; charset=utf-8$/,
};

test('every document: 200, its media type, CORS for any origin, a max-age and a strong ETag; no lifecycle headers by default', async () => {
  for (const [path, type] of Object.entries(DOCUMENTS)) {
    const res = await request(site.origin + path, { headers: { origin: 'https://otro.example' } });
    assert.is(res.status, 200, path);
    assert.match(String(res.headers['content-type']), type, path);
    assert.is(res.headers['access-control-allow-origin'], '*', path);
    assert.match(String(res.headers['access-control-expose-headers']), /ETag/, path);
    assert.match(String(res.headers['cache-control']), /^public, max-age=[1-9][0-9]*$/, path);
    assert.match(String(res.headers.etag), /^"[A-Za-z0-9_-]+"$/, `${path}: strong ETag`);
    assert.is(Number(res.headers['content-length']), res.body.length, path);
    assert.is(res.headers['x-content-type-options'], 'nosniff');
    for (const h of ['deprecation', 'sunset']) assert.is(res.headers[h], undefined, `${path}: no ${h}`);
    assert.ok(res.body.length > 100, path);
    if (type.source.includes('json')) res.json();
  }
});

test('If-None-Match with the ETag → 304 without a body; a stale one → 200', async () => {
  for (const path of Object.keys(DOCUMENTS)) {
    const first = await request(site.origin + path);
    const etag = String(first.headers.etag);
    const again = await request(site.origin + path, { headers: { 'if-none-match': etag } });
    assert.is(again.status, 304, path);
    assert.is(again.body.length, 0, path);
    assert.is(again.headers.etag, etag, path);
    assert.is(again.headers['access-control-allow-origin'], '*');
    const list = await request(site.origin + path, { headers: { 'if-none-match': `"viejo", ${etag}` } });
    assert.is(list.status, 304, `${path}: a list containing it`);
    const stale = await request(site.origin + path, { headers: { 'if-none-match': '"viejo"' } });
    assert.is(stale.status, 200, path);
  }
});

test('serialized once: the same bytes and ETag on every request', async () => {
  for (const path of Object.keys(DOCUMENTS)) {
    const [a, b] = await Promise.all([request(site.origin + path), request(site.origin + path)]);
    assert.is(a.headers.etag, b.headers.etag, path);
    assert.ok(a.body.equals(b.body), path);
  }
  const served = (await request(`${site.origin}/openapi.json`)).json();
  assert.equal(served, JSON.parse(JSON.stringify(buildOpenApi(site.config))), 'the document built from the live Config');
});

test('gzip and brotli: each encoding its own ETag, and any of them revalidates', async () => {
  const path = '/openapi.json';
  const plain = await request(site.origin + path);
  for (const [enc, decode] of [['gzip', zlib.gunzipSync], ['br', zlib.brotliDecompressSync]] as const) {
    const res = await request(site.origin + path, { headers: { 'accept-encoding': enc } });
    assert.is(res.headers['content-encoding'], enc);
    assert.match(String(res.headers.vary), /Accept-Encoding/);
    assert.ok(decode(res.body).equals(plain.body), `${enc} decodes to the same document`);
    assert.is.not(res.headers.etag, plain.headers.etag);
    const cond = await request(site.origin + path, { headers: { 'accept-encoding': enc, 'if-none-match': String(plain.headers.etag) } });
    assert.is(cond.status, 304);
  }
});

test('HEAD: the headers of GET, no body', async () => {
  for (const path of Object.keys(DOCUMENTS)) {
    const get = await request(site.origin + path);
    const head = await request(site.origin + path, { method: 'HEAD' });
    assert.is(head.status, 200, path);
    assert.is(head.body.length, 0, path);
    assert.is(head.headers['content-length'], get.headers['content-length'], path);
    assert.is(head.headers.etag, get.headers.etag, path);
    assert.is(head.headers['content-type'], get.headers['content-type'], path);
  }
});

test('OPTIONS preflight → 204 for any origin; other methods → 405 JSON with Allow', async () => {
  for (const path of Object.keys(DOCUMENTS)) {
    const pre = await request(site.origin + path, {
      method: 'OPTIONS',
      headers: { origin: 'https://otro.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' },
    });
    assert.is(pre.status, 204, path);
    assert.is(pre.headers['access-control-allow-origin'], '*');
    assert.match(String(pre.headers['access-control-allow-headers']), /If-None-Match/i);
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await request(site.origin + path, { method });
      assert.is(res.status, 405, `${method} ${path}`);
      assert.is(res.headers.allow, 'GET, HEAD, OPTIONS');
      assert.is(res.json().code, 'rest_method_not_allowed');
      assert.is(res.headers['access-control-allow-origin'], '*');
    }
  }
});

test.run();
