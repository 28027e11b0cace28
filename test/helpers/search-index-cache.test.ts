/**
 * The fixtures' search-index cache hands out what the search stage writes for the same pages, and
 * an entry per input: other pages are indexed afresh. Compared byte for byte, except the files
 * Pagefind itself writes differently from run to run (its filter file, named by its hash, and the
 * metadata and entry files that name it).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildSearchIndex } from '../../build-scripts/pagefind/search-index.ts';
import { sharedReadModel } from './read-model.ts';
import { cachedSearchIndex } from './search-index-cache.ts';

const VARIES = /^pagefind\/(?:filter\/|pagefind\.[^/]+\.pf_meta$|pagefind-entry\.json$)/;

async function filesOf(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const name = path.relative(dir, path.join(entry.parentPath, entry.name));
    out.set(VARIES.test(name) ? name.replace(/_[0-9a-f]+\.pf_/, '_*.pf_') : name, await fs.readFile(path.join(dir, name)));
  }
  return out;
}

function assertSameOutput(cached: Map<string, Buffer>, stage: Map<string, Buffer>, what: string) {
  assert.equal([...cached.keys()].sort(), [...stage.keys()].sort(), `${what}: the same files`);
  for (const [name, bytes] of stage) if (!VARIES.test(name)) assert.ok(bytes.equals(cached.get(name)!), `${what}: ${name} differs`);
}

test('a cached index is the bytes the search stage writes; other pages get their own', async () => {
  const { pages, siteUrl } = await sharedReadModel();
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-index-cache-'));
  try {
    await buildSearchIndex({ pages, outDir: path.join(root, 'stage'), siteUrl });
    await cachedSearchIndex({ pages, outDir: path.join(root, 'cached'), siteUrl });
    const stage = await filesOf(path.join(root, 'stage'));
    const cached = await filesOf(path.join(root, 'cached'));
    assertSameOutput(cached, stage, 'the fixture pages');

    const fewer = pages.slice(1);
    await cachedSearchIndex({ pages: fewer, outDir: path.join(root, 'fewer'), siteUrl });
    await buildSearchIndex({ pages: fewer, outDir: path.join(root, 'fewer-stage'), siteUrl });
    const other = await filesOf(path.join(root, 'fewer'));
    const otherStage = await filesOf(path.join(root, 'fewer-stage'));
    assertSameOutput(other, otherStage, 'fewer pages');
    assert.not.equal([...other.values()].map((b) => b.length), [...cached.values()].map((b) => b.length), 'not the first entry again');
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
});

test.run();
