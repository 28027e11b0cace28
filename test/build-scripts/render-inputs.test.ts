/**
 * Astro's caches (content store, incremental pages) are kept while the Markdown's inputs stay as
 * they were, and removed when a plugin, the Astro config or the locked packages change
 * (render-inputs.ts).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { clearCacheIfInputsChanged } from '../../build-scripts/render-inputs.ts';

test('the cache is removed when a Markdown plugin, the Astro config or the lockfile changes, and only then', async () => {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-render-inputs-'));
  const store = path.join(root, 'node_modules', '.astro', 'data-store.json');
  const write = async (rel: string, text: string) => {
    await fs.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await fs.writeFile(path.join(root, rel), text);
  };
  const pages = path.join(root, 'node_modules', '.astro', 'incremental-build.json');
  const exists = (file: string) => fs.stat(file).then(() => true, () => false);
  const hasStore = async () => (await exists(store)) && (await exists(pages));
  const hasNeither = async () => !(await exists(store)) && !(await exists(pages));
  try {
    await write('astro.config.mjs', 'export default {};');
    await write('package-lock.json', '{}');
    await write('src/lib/rehype-scroll-tables.ts', 'export const v = 1;');
    await write('src/lib/site.ts', 'export const s = 1;');
    assert.is(await clearCacheIfInputsChanged(root), null, 'no cache yet: nothing to say');

    await write('node_modules/.astro/data-store.json', '[]');
    await write('node_modules/.astro/incremental-build.json', '{}');
    assert.is(await clearCacheIfInputsChanged(root), null);
    assert.ok(await hasStore(), 'same inputs: the cache is kept');

    await write('src/lib/site.ts', 'export const s = 2;');
    assert.is(await clearCacheIfInputsChanged(root), null, 'a file the Markdown does not go through');
    assert.ok(await hasStore());

    for (const [file, text] of [['src/lib/rehype-scroll-tables.ts', 'export const v = 2;'], ['src/lib/remark-nueva.ts', 'x'], ['astro.config.mjs', 'export default { a: 1 };'], ['package-lock.json', '{"a":1}']] as const) {
      await write(file, text);
      assert.is(await clearCacheIfInputsChanged(root), 'the Markdown\'s inputs changed (astro.config.mjs, package-lock.json, src/lib/{remark,rehype}-*)', file);
      assert.ok(await hasNeither(), `${file} changed: the caches are removed`);
      await write('node_modules/.astro/data-store.json', '[]');
      await write('node_modules/.astro/incremental-build.json', '{}');
    }

    await fs.rm(path.join(root, 'node_modules', '.astro', 'agentes-render-inputs'));
    assert.is(await clearCacheIfInputsChanged(root), 'it was made with Markdown inputs not on record');
    assert.ok(await hasNeither());
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
});

test.run();
