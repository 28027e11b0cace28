/**
 * Pagefind's bundle at /pagefind/ through the real server over the built sample site: its
 * content-hashed shards immutable, its entry points revalidated (304s included), CORS-open, with
 * a media type, gzip and brotli where the site stage wrote them, none of a page's headers, and
 * outside the API's quota.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BUNDLE_PARTS, BUNDLE_PATH, BUNDLE_SCRIPT, BUNDLES_DIR, currentBundle } from '../../../formats/pagefind-bundle.ts';
import { API_BASE } from '../../../server/paths.ts';
import { request, type RawResponse } from '../../helpers/http.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'public, no-cache';
/** Small, so that requests counted against it would show within a few. */
const ANONYMOUS_LIMIT = 2;

// Started by the first test, not in a `before` hook: uvu reports a failing hook as nothing at all.
let started: Promise<TestServer> | undefined;
const server = () => (started ??= startTestServer({ fixture: 'built', env: { RATE_LIMIT_ANONYMOUS: String(ANONYMOUS_LIMIT) } }));

const get = async (p: string, headers: Record<string, string> = {}) => request((await server()).origin + p, { headers, decode: false });

/** The folder of the bundle the server's read-model folder names as current. */
async function bundleDir(): Promise<string> {
  const root = path.join((await server()).config.readModelDir, BUNDLES_DIR);
  const id = currentBundle(root);
  assert.ok(id, 'the built read model has its bundle');
  return path.join(root, id!);
}

/** The first file of the bundle's `folder` whose name ends in `suffix`, as a URL path. */
async function bundleFile(folder: string, suffix: string): Promise<string> {
  const name = fs.readdirSync(path.join(await bundleDir(), folder)).find((n) => n.endsWith(suffix));
  assert.ok(name, `a ${suffix} file in ${folder || 'the bundle'}`);
  return path.posix.join(BUNDLE_PATH, folder, name!);
}

function assertAsset(res: RawResponse, what: string): void {
  assert.is(res.headers['access-control-allow-origin'], '*', `${what}: CORS`);
  assert.is(res.headers.vary, 'Accept-Encoding', `${what}: Vary`);
  assert.is(res.headers.link, undefined, `${what}: no Link`);
  for (const name of ['ratelimit', 'ratelimit-policy', 'ratelimit-limit', 'api-version']) assert.is(res.headers[name], undefined, `${what}: no ${name}`);
}

test.after(async () => {
  await (await started?.catch(() => undefined))?.close();
});

test('content-hashed shards and meta: immutable, binary, CORS-open, no page headers', async () => {
  const files = [
    await bundleFile('index', '.pf_index'), await bundleFile('fragment', '.pf_fragment'),
    await bundleFile('filter', '.pf_filter'), await bundleFile('', '.pf_meta'),
  ];
  for (const file of files) {
    const res = await get(file, { 'accept-encoding': 'gzip, br' });
    assert.is(res.status, 200, file);
    assert.is(res.headers['cache-control'], IMMUTABLE, file);
    assert.is(res.headers['content-type'], 'application/octet-stream', file);
    assert.is(res.headers['content-encoding'], undefined, `${file}: Pagefind's files are compressed already`);
    assert.equal(res.body, fs.readFileSync(path.join(await bundleDir(), file.slice(BUNDLE_PATH.length))), `${file}: the build's bytes`);
    assertAsset(res, file);
  }
});

test('pagefind.js, the entry, the list of parts and the wasm revalidate on every use; a 304 keeps the policy and CORS', async () => {
  for (const [file, type] of [[BUNDLE_SCRIPT, /^text\/javascript/], [`${BUNDLE_PATH}pagefind-entry.json`, /^application\/json/], [BUNDLE_PARTS, /^application\/json/], [`${BUNDLE_PATH}wasm.es.pagefind`, /^application\/octet-stream$/]] as const) {
    const res = await get(file);
    assert.is(res.status, 200, file);
    assert.is(res.headers['cache-control'], REVALIDATE, file);
    assert.match(String(res.headers['content-type']), type, file);
    assertAsset(res, file);
    assert.ok(res.headers.etag, `${file}: a validator`);
    const again = await get(file, { 'if-none-match': String(res.headers.etag) });
    assert.is(again.status, 304, `${file}: revalidated`);
    assert.is(again.headers['cache-control'], REVALIDATE, `${file}: 304`);
    assert.is(again.headers['access-control-allow-origin'], '*', `${file}: 304`);
  }
});

test('pagefind.js as brotli or gzip when accepted, from the siblings the build wrote', async () => {
  const plain = await get(BUNDLE_SCRIPT);
  for (const encoding of ['br', 'gzip']) {
    const res = await get(BUNDLE_SCRIPT, { 'accept-encoding': encoding });
    assert.is(res.headers['content-encoding'], encoding);
    assert.ok(res.body.length < plain.body.length, `${encoding} is smaller`);
    assert.is(res.headers['cache-control'], REVALIDATE);
  }
});

test('a file the bundle lacks is a 404 that is not cached', async () => {
  const res = await get(`${BUNDLE_PATH}index/es_0000000.pf_index`);
  assert.is(res.status, 404);
  assert.is(res.headers['cache-control'], 'no-cache');
});

test('the bundle does not count against the API quota', async () => {
  for (let i = 0; i < ANONYMOUS_LIMIT + 3; i++) assert.is((await get(BUNDLE_SCRIPT)).status, 200);
  const api = await get(`${API_BASE}/get_company_info?section=contact`);
  assert.is(api.status, 200, 'the API still answers');
  assert.is(api.headers['ratelimit-remaining'], String(ANONYMOUS_LIMIT - 1), 'the first request counted');
});

test.run();
