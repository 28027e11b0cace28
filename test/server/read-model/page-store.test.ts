/**
 * Page bodies on disk with a byte-bounded hot set: a representation evicted from the hot set is
 * made again from the page's file byte for byte (bodies, encodings, ETags), and a server that keeps
 * nothing hot (READ_MODEL_CACHE_MB=0) answers exactly what one serving from memory answers.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildPath } from '../../../formats/read-model/pointer.ts';
import { PageIndex } from '../../../formats/read-model/page-index.ts';
import { createPageStore } from '../../../server/read-model/page-store.ts';
import { makeRepresentation } from '../../../server/compression.ts';
import { PAGE_INDEX_FILE, PAGE_PACK_FILE } from '../../../formats/schemas/read-model.ts';
import type { LoadedPage, Representation } from '../../../server/read-model/types.ts';
import { request, type RawResponse } from '../../helpers/http.ts';
import { sharedReadModel, type ReadModelFixture } from '../../helpers/read-model.ts';
import { startTestServer } from '../../helpers/server.ts';
import { bufferGrowth, driveInChild } from '../../helpers/cache-memory.ts';

/** The fixture's pages as a server holds them: entries of its page index. */
async function indexOf(fixture: ReadModelFixture): Promise<(slug: string) => LoadedPage> {
  const index = await PageIndex.open(path.join(buildPath(fixture.dir, fixture.buildId), PAGE_INDEX_FILE));
  return (slug) => ({ ...index.entry(index.findSlug(slug)), url: fixture.siteUrl + index.path(index.findSlug(slug)) });
}

const openPack = (fixture: ReadModelFixture) => fs.open(path.join(buildPath(fixture.dir, fixture.buildId), PAGE_PACK_FILE), 'r');

/** Every stored encoding of `rep` made, as the first client to ask for each would make it. */
const encoded = (rep: Representation): Representation => {
  for (const enc of ['br', 'gzip'] as const) if (rep[enc] === undefined) rep.encode!(enc);
  return rep;
};

const same = (a: Representation, b: Representation, what: string) => {
  encoded(a);
  encoded(b);
  assert.ok(a.br && a.gzip, `${what}: both encodings stored`);
  assert.is(b.etag, a.etag, `${what}: ETag`);
  assert.ok(b.body.equals(a.body), `${what}: body`);
  assert.is(b.gzip?.etag, a.gzip?.etag, `${what}: gzip ETag`);
  assert.ok((b.gzip?.body ?? Buffer.alloc(0)).equals(a.gzip?.body ?? Buffer.alloc(0)), `${what}: gzip body`);
  assert.is(b.br?.etag, a.br?.etag, `${what}: brotli ETag`);
  assert.ok((b.br?.body ?? Buffer.alloc(0)).equals(a.br?.body ?? Buffer.alloc(0)), `${what}: brotli body`);
};

test('an evicted representation is made again from disk, byte for byte; the hot set keeps to its budget', async () => {
  const fixture = await sharedReadModel();
  const asLoaded = await indexOf(fixture);
  const long = asLoaded(fixture.longPage.slug);
  const short = asLoaded('fontaneria');
  const big = createPageStore({ pack: await openPack(fixture), rebase: (s) => s, maxChars: 20_000, cacheBytes: 64 << 20 });
  const reference = await big.partOf(long, 0);
  assert.is(big.partOf(long, 0), reference, 'hot: the same object, no file read');

  // Room for the long page's text and first part, not for another page besides.
  const budget = big.cachedBytes + 1024;
  const small = createPageStore({ pack: await openPack(fixture), rebase: (s) => s, maxChars: 20_000, cacheBytes: budget });
  const first = await small.partOf(long, 0);
  same(reference, first, 'cold');
  assert.is(small.partOf(long, 0), first, 'hot in the small store too');
  for (const slug of fixture.pages.map((p) => p.slug)) {
    await small.partOf(asLoaded(slug), 0);
    await small.markdownOf(asLoaded(slug));
    assert.ok(small.cachedBytes <= budget, `${small.cachedBytes} bytes held, budget ${budget}`);
  }
  await small.partOf(short, 0);
  const remade = await small.partOf(long, 0);
  assert.is.not(remade, first);
  same(first, remade, 'evicted and made again');
  same(await big.markdownOf(long), await small.markdownOf(long), 'Markdown representation');
  const offset = JSON.parse(first.body.toString('utf8')).next_offset as number;
  same(await big.partOf(long, offset), await small.partOf(long, offset), 'a later part');
  await big.close();
  await small.close();
});

test('a page of up to 64 KB is read and made on the spot, and only the encodings clients ask for are made', async () => {
  const fixture = await sharedReadModel();
  const asLoaded = await indexOf(fixture);
  const store = createPageStore({ pack: await openPack(fixture), rebase: (s) => s, maxChars: 20_000, cacheBytes: 64 << 20 });
  // The fixture's pages under 1 KB are stored without encodings; the long one's parts are ~20 KB.
  const page = asLoaded(fixture.longPage.slug);
  const lazy = store.partOf(page, 0);
  assert.not.instance(lazy, Promise, 'no wait for the threadpool');
  const rep = lazy as Representation;
  assert.ok(rep.body.length >= 1024, 'a body that is stored compressed');
  assert.is(rep.br, undefined);
  assert.is(rep.gzip, undefined);
  const held = store.cachedBytes;
  const br = rep.encode!('br');
  assert.is(rep.br, br, 'kept');
  assert.is(rep.gzip, undefined, 'a brotli client costs no gzip');
  assert.is(store.cachedBytes, held + br!.body.length, 'the hot set weighs the encoding made');

  // The same page read in the threadpool (as a page over 64 KB is), compressed there.
  const other = createPageStore({ pack: await openPack(fixture), rebase: (s) => s, maxChars: 20_000, cacheBytes: 0, inlineReadMaxBytes: 0 });
  const pooled = other.partOf(page, 0);
  assert.instance(pooled, Promise, 'read in the threadpool');
  const eager = await makeRepresentation((await pooled).body);
  same(eager, rep, 'the encodings made on demand are the ones made in the threadpool');
  await store.close();
  await other.close();
});

/** Status, headers and body of an answer: all but Date and the quota's count, which are the moment's. */
const answer = (res: RawResponse) => {
  const headers = Object.fromEntries(Object.entries(res.headers).filter(([name]) => name !== 'date' && !name.startsWith('ratelimit')));
  return { status: res.status, headers, body: res.body.toString('base64') };
};

test('a server that keeps nothing hot answers byte for byte what a hot one answers: headers, ETags, 304s, every encoding', async () => {
  const fixture = await sharedReadModel();
  const hot = await startTestServer({ fixture, env: { RATE_LIMIT_ANONYMOUS: '100000' } });
  const cold = await startTestServer({ fixture, env: { RATE_LIMIT_ANONYMOUS: '100000', READ_MODEL_CACHE_MB: '0' } });
  try {
    const targets = [
      ...fixture.pages.map((p) => `/wp-json/agentes/v1/read_page?url=${encodeURIComponent(p.path)}`),
      `/wp-json/agentes/v1/read_page?url=${fixture.longPage.slug}&offset=0`,
    ];
    const long = JSON.parse((await request(hot.origin + targets.at(-1)!)).text()) as { next_offset: number };
    targets.push(`/wp-json/agentes/v1/read_page?url=${fixture.longPage.slug}&offset=${long.next_offset}`);
    for (const target of targets) {
      for (const encoding of ['', 'gzip', 'br', 'gzip, deflate, br']) {
        const headers: Record<string, string> = encoding ? { 'Accept-Encoding': encoding } : {};
        // Twice on the hot server: the second answer comes from its hot set.
        await request(hot.origin + target, { headers });
        const expected = answer(await request(hot.origin + target, { headers }));
        const got = answer(await request(cold.origin + target, { headers }));
        assert.equal(got, expected, `${target} (${encoding || 'identity'})`);
        const etag = String(expected.headers.etag);
        assert.is((await request(cold.origin + target, { headers: { ...headers, 'If-None-Match': etag } })).status, 304, `${target}: 304 from disk`);
      }
      // A tag of another encoding stands for the same content, made or not yet made.
      const gzipTag = String((await request(hot.origin + target, { headers: { 'Accept-Encoding': 'gzip' } })).headers.etag);
      for (const server of [hot, cold]) {
        const again = await request(server.origin + target, { headers: { 'Accept-Encoding': 'br', 'If-None-Match': gzipTag } });
        assert.is(again.status, 304, `${target}: ${gzipTag} asked with brotli`);
      }
    }
    assert.equal(cold.logged, [], 'nothing failed');
  } finally {
    await hot.close();
    await cold.close();
  }
});

test('driven far past its budget with gzip and brotli asked for, the hot set holds about what it weighs', async () => {
  // A child process with `gc`: 2,000 distinct parts, short ones encoded on this thread and long
  // ones in the threadpool, within a 4 MB budget.
  const report = await driveInChild('pages', 4, 2000);
  assert.ok(report.weight <= report.bound, `weighs ${report.weight} bytes, budget ${report.bound}`);
  // Each encoding kept as a view of zlib's output chunk would hold several times the budget.
  const grown = bufferGrowth(report);
  assert.ok(grown <= 1.5 * report.bound + (1 << 20), `Buffers grew by ${(grown / 2 ** 20).toFixed(1)} MB, budget ${report.bound / 2 ** 20} MB`);
});

test.run();
