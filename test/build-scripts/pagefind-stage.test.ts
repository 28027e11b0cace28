/**
 * The Pagefind bundle follows each publish: written once the read model is live, into a folder of
 * its own, then named `current`; the previous bundle stays beside it, older ones go.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildReadModel } from '../../build-scripts/build.ts';
import { BundleParts, BUNDLES_DIR, currentBundle, KEEP_BUNDLES, PARTS_FILE } from '../../formats/pagefind-bundle.ts';
import { readPointer } from '../../formats/read-model/pointer.ts';
import { createFixtureSite, SITE_URL } from './fixture-site.ts';

test('each publish is followed by its bundle, made current once whole; the previous stays, older ones go', async () => {
  const site = await createFixtureSite();
  try {
    const build = () => buildReadModel({ distDir: site.distDir, outDir: site.outDir, contentDir: site.contentDir, siteUrl: SITE_URL, skipAstro: true, log: () => {} });
    const root = path.join(site.outDir, BUNDLES_DIR);
    const ids: string[] = [];
    for (let i = 0; i < KEEP_BUNDLES + 1; i++) {
      const result = await build();
      ids.push(result.buildId);
      assert.is(result.bundleError, undefined);
      const stages = Object.keys(result.timings);
      assert.ok(stages.indexOf('pagefind') > stages.indexOf('publish'), `the bundle after the publish: ${stages.join(', ')}`);
      assert.is(await readPointer(site.outDir), result.buildId);
      assert.is(currentBundle(root), result.buildId, 'the bundle of the build just published');
      const bundle = path.join(root, result.buildId);
      assert.ok(fs.statSync(path.join(bundle, 'pagefind.js')).size > 0);
      assert.equal(BundleParts.parse(JSON.parse(fs.readFileSync(path.join(bundle, PARTS_FILE), 'utf8'))), { parts: [] });
    }
    assert.equal(fs.readdirSync(root).sort(), [...ids.slice(-KEEP_BUNDLES), 'current'].sort(), 'the newest bundles and the link, no staging left');
    assert.not.ok(fs.readdirSync(path.join(site.outDir, 'builds')).some((name) => name.endsWith('.spill')), 'the Markdown spill removed after the bundle');
  } finally {
    await site.cleanup();
  }
});

test.run();
