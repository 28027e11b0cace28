/**
 * Astro's incremental cache is used only as the last checked build left it (incremental-cache.ts):
 * none yet, a manifest that does not parse, a manifest or copy changed or gone since, each has
 * its reason; clearing removes the cache and, with clearAstroCaches, the content store.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { clearAstroCaches, clearIncrementalCache, incrementalCacheProblem, recordIncrementalCache } from '../../build-scripts/incremental-cache.ts';

const PAGES = ['client/guias/fuga/index.html', 'client/ciudades/madrid/index.html'];

/** A project whose cache holds a manifest naming PAGES and their copies, as Astro writes them. */
async function project(): Promise<{ root: string; cache: string; remove(): Promise<void> }> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-incremental-'));
  const cache = path.join(root, 'node_modules', '.astro');
  const paths = Object.fromEntries(PAGES.map((file) => [`/${file}`, { cacheKey: 'k', outputFile: file }]));
  await fs.mkdir(cache, { recursive: true });
  await fs.writeFile(path.join(cache, 'incremental-build.json'), JSON.stringify({ version: 1, routes: { 'src/pages/x.astro': { dependencyHash: 'h', paths } } }));
  for (const file of PAGES) {
    await fs.mkdir(path.dirname(path.join(cache, 'dist', file)), { recursive: true });
    await fs.writeFile(path.join(cache, 'dist', file), `<!doctype html><p>${file}</p>`);
  }
  return { root, cache, remove: () => fs.rm(root, { recursive: true, force: true }) };
}

test('a cache is usable only as the last checked build recorded it', async () => {
  const { root, cache, remove } = await project();
  try {
    assert.equal(await incrementalCacheProblem(root), { reason: 'the incremental cache is not the one the last build checked', missing: false });
    await recordIncrementalCache(root);
    assert.is(await incrementalCacheProblem(root), null);

    const copy = path.join(cache, 'dist', PAGES[1]!);
    const text = await fs.readFile(copy, 'utf8');
    await fs.writeFile(copy, text.slice(0, 10));
    assert.equal(await incrementalCacheProblem(root), { reason: `the incremental cache's copy of ${PAGES[1]} changed since it was written`, missing: false });
    await fs.rm(copy);
    assert.equal(await incrementalCacheProblem(root), { reason: `the incremental cache lost its copy of ${PAGES[1]}`, missing: false });
    await fs.writeFile(copy, text);
    assert.is(await incrementalCacheProblem(root), null, 'the copy as it was');

    const manifest = path.join(cache, 'incremental-build.json');
    await fs.appendFile(manifest, ' ');
    assert.equal(await incrementalCacheProblem(root), { reason: 'the incremental cache is not the one the last build checked', missing: false });
    await fs.writeFile(manifest, '{"version":1,"routes":{"x":');
    assert.equal(await incrementalCacheProblem(root), { reason: 'the incremental cache\'s manifest is damaged', missing: false });

    assert.ok(await clearIncrementalCache(root));
    assert.equal(await incrementalCacheProblem(root), { reason: 'no incremental cache yet', missing: true });
    assert.equal(await fs.readdir(cache), []);
    assert.not.ok(await clearIncrementalCache(root), 'nothing left to clear');
  } finally {
    await remove();
  }
});

test('clearAstroCaches removes the incremental cache and the content store', async () => {
  const { root, cache, remove } = await project();
  try {
    await fs.writeFile(path.join(cache, 'data-store.json'), '[]');
    assert.ok(await clearAstroCaches(root));
    assert.equal(await fs.readdir(cache), []);
    assert.not.ok(await clearAstroCaches(root));
  } finally {
    await remove();
  }
});

test.run();
