/**
 * Identical builds on every machine: the same content built twice, from two folders with a
 * different number of workers (as on two machines), gives the same build identity, the same page
 * hashes, bodies and ETags, the same search order, and cursors each server accepts from the other.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildReadModel, type BuildResult } from '../../build-scripts/build.ts';
import { ApiError } from '../../server/errors.ts';
import { loadModel, type ModelConfig } from '../../server/read-model/holder.ts';
import type { LoadedModel } from '../../server/read-model/types.ts';
import { SearchPagesParams } from '../../server/schemas/params.ts';
import { COMPANY_SECTIONS } from '../../formats/schemas/resources.ts';
import { searchPages } from '../../server/search/index.ts';
import { createFixtureSite, SITE_URL, type FixtureSite } from './fixture-site.ts';

const config = (outDir: string, cursorSecret = ''): ModelConfig =>
  ({ siteUrl: SITE_URL, readModelDir: outDir, readPageMaxChars: 20_000, readModelCacheBytes: 1 << 20, cursorSecret });

/** The fixture site copied to a folder of its own and built there with `workers` workers. */
async function buildCopy(site: FixtureSite, workers: number): Promise<{ result: BuildResult; outDir: string; remove(): Promise<void> }> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-twin-'));
  await fs.cp(site.root, root, { recursive: true });
  const outDir = path.join(root, 'read-model');
  const result = await buildReadModel({
    distDir: path.join(root, 'dist', 'client'), outDir, contentDir: path.join(root, 'content'),
    siteUrl: SITE_URL, skipAstro: true, workers, log: () => {},
  });
  return { result, outDir, remove: () => fs.rm(root, { recursive: true, force: true }) };
}

const search = (model: LoadedModel, query: string, extra: Record<string, unknown> = {}) =>
  searchPages(model.search, SearchPagesParams.parse({ query, ...extra }));

async function rejected(run: () => unknown): Promise<boolean> {
  try {
    await run();
    return false;
  } catch (err) {
    return err instanceof ApiError && err.status === 400;
  }
}

test('two builds of the same content: same identity, pages, ETags and search order; each accepts the other\'s cursors', async () => {
  const site = await createFixtureSite();
  const a = await buildCopy(site, 1);
  const b = await buildCopy(site, 2);
  const models: LoadedModel[] = [];
  try {
    assert.is.not(a.result.buildId, b.result.buildId, 'two builds');
    assert.is(a.result.manifest.content_id, b.result.manifest.content_id, 'one build identity');

    const ma = await loadModel(config(a.outDir), a.result.buildDir);
    models.push(ma);
    const mb = await loadModel(config(b.outDir), b.result.buildDir);
    models.push(mb);
    assert.equal(mb.pages.map((p) => p.path), ma.pages.map((p) => p.path));
    for (const pa of ma.pages) {
      assert.is(mb.byPath.get(pa.path)!.hash, pa.hash, `${pa.path}: content hash`);
      const ra = await ma.partOf(pa, 0);
      const rb = await mb.partOf(mb.byPath.get(pa.path)!, 0);
      assert.is(rb.etag, ra.etag, `${pa.path}: ETag`);
      assert.ok(rb.body.equals(ra.body), `${pa.path}: body`);
      assert.is(rb.br?.etag, ra.br?.etag, `${pa.path}: brotli ETag`);
      assert.is(rb.gzip?.etag, ra.gzip?.etag, `${pa.path}: gzip ETag`);
    }
    for (const section of COMPANY_SECTIONS) assert.is(mb.company[section].etag, ma.company[section].etag, `company ${section}`);

    for (const query of ['fontanería', 'fontanería en madrid', 'fuga de agua', 'aviso legal']) {
      const first = await search(ma, query, { limit: 2 });
      assert.equal(await search(mb, query, { limit: 2 }), first, `${query}: same page, same cursor`);
      assert.ok(first.results.length > 0, `${query} finds pages`);
      let cursor = first.next_cursor;
      // A walk that hops from server to server at every page sees what one server alone shows.
      for (let hop = 0; cursor !== null; hop++) {
        const [on, other] = hop % 2 === 0 ? [mb, ma] : [ma, mb];
        const page = await search(on, query, { limit: 2, cursor });
        assert.equal(page, await search(other, query, { limit: 2, cursor }), `${query}: page ${hop + 2}`);
        cursor = page.next_cursor;
      }
    }
    const cursor = (await search(ma, 'fontanería', { limit: 1 })).next_cursor;
    assert.ok(cursor !== null, 'a query with a second page');

    // With CURSOR_SECRET set, only servers holding the same secret accept the cursors.
    const secretA = await loadModel(config(a.outDir, 'one secret of sixteen+'), a.result.buildDir);
    models.push(secretA);
    const secretB = await loadModel(config(b.outDir, 'one secret of sixteen+'), b.result.buildDir);
    models.push(secretB);
    const signed = (await search(secretA, 'fontanería', { limit: 1 })).next_cursor!;
    assert.is.not(signed, cursor, 'the secret signs');
    assert.equal(await search(secretB, 'fontanería', { limit: 1, cursor: signed }), await search(secretA, 'fontanería', { limit: 1, cursor: signed }));
    assert.ok(await rejected(() => search(mb, 'fontanería', { limit: 1, cursor: signed })), 'refused without the secret');
    assert.ok(await rejected(() => search(secretB, 'fontanería', { limit: 1, cursor })), 'refused with another secret');
  } finally {
    for (const m of models) await m.close();
    await a.remove();
    await b.remove();
    await site.cleanup();
  }
});

test('other content is another build identity: its cursors are refused', async () => {
  const site = await createFixtureSite();
  const a = await buildCopy(site, 2);
  await site.writePage('/contacto/', { h1: 'Contacto y horario', kind: 'info', city: '' });
  const b = await buildCopy(site, 2);
  const models: LoadedModel[] = [];
  try {
    assert.is.not(b.result.manifest.content_id, a.result.manifest.content_id);
    const ma = await loadModel(config(a.outDir), a.result.buildDir);
    models.push(ma);
    const mb = await loadModel(config(b.outDir), b.result.buildDir);
    models.push(mb);
    const cursor = (await search(ma, 'fontanería', { limit: 1 })).next_cursor!;
    assert.ok(await rejected(() => search(mb, 'fontanería', { limit: 1, cursor })));
  } finally {
    for (const m of models) await m.close();
    await a.remove();
    await b.remove();
    await site.cleanup();
  }
});

test.run();
