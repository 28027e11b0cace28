/**
 * What the tests build before reading the sample site: a site and read model built for another
 * SITE_URL than the tests' (an earlier `SITE_URL=… npm start`) are built again, whole.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { toBuild } from './built-site.ts';
import { createReadModel, FIXTURE_SITE_URL } from './read-model.ts';

test('nothing when both are there for this SITE_URL; the whole site when they are for another; the read model alone when it is missing', async () => {
  const model = await createReadModel();
  const distDir = path.join(model.dir, 'dist');
  try {
    const config = { distDir, readModelDir: model.dir, siteUrl: FIXTURE_SITE_URL };
    assert.is(await toBuild(config), 'site', 'no site yet');
    await fs.mkdir(path.join(distDir, 'client'), { recursive: true });
    await fs.writeFile(path.join(distDir, 'client', 'index.html'), '<!doctype html>');
    assert.is(await toBuild(config), 'nothing');
    assert.is(await toBuild({ ...config, siteUrl: 'http://127.0.0.1:5210' }), 'site', 'built for another SITE_URL');
    assert.is(await toBuild({ ...config, readModelDir: path.join(model.dir, 'none') }), 'read model');
  } finally {
    await model.remove();
  }
});

test.run();
