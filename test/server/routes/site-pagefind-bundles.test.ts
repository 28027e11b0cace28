/**
 * Which bundle /pagefind/ serves: the one `pagefind/current` names at each request, whole; a
 * content-hashed file it lacks from another bundle kept (a client that loaded the previous entry
 * finds its shards), never an entry point; nothing before the first bundle; the current bundle
 * switched by renaming a new link over the old.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CURRENT_BUNDLE } from '../../../formats/pagefind-bundle.ts';
import { bundleFiles } from '../../../server/routes/site-pagefind.ts';

function bundle(root: string, id: string, files: Record<string, string>): void {
  for (const [name, body] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, id, name)), { recursive: true });
    fs.writeFileSync(path.join(root, id, name), body);
  }
}

function point(root: string, id: string): void {
  fs.symlinkSync(id, path.join(root, '.next'));
  fs.renameSync(path.join(root, '.next'), path.join(root, CURRENT_BUNDLE));
}

async function withServer(root: string, run: (get: (p: string) => Promise<{ status: number; body: string }>) => Promise<void>): Promise<void> {
  const serve = bundleFiles(root, (_req, res) => { res.statusCode = 404; res.end('none'); });
  const server = http.createServer(serve);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  try {
    await run(async (p) => {
      const res = await fetch(`http://127.0.0.1:${port}${p}`);
      return { status: res.status, body: await res.text() };
    });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

test('serves the bundle current names; hashed files it lacks from the bundle kept beside it; entry points only its own', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agentes-bundles-'));
  try {
    await withServer(root, async (get) => {
      assert.is((await get('/pagefind/pagefind-entry.json')).status, 404, 'no bundle yet');
      bundle(root, '20260101T000000000Z-aaaaaa', { 'pagefind-entry.json': 'entry a', 'index/es_a.pf_index': 'shard a', 'only-a.js': 'script a' });
      point(root, '20260101T000000000Z-aaaaaa');
      assert.equal(await get('/pagefind/pagefind-entry.json'), { status: 200, body: 'entry a' });
      bundle(root, '20260102T000000000Z-bbbbbb', { 'pagefind-entry.json': 'entry b', 'index/es_b.pf_index': 'shard b' });
      assert.equal(await get('/pagefind/pagefind-entry.json'), { status: 200, body: 'entry a' }, 'a bundle not yet current is not served');
      point(root, '20260102T000000000Z-bbbbbb');
      assert.equal(await get('/pagefind/pagefind-entry.json'), { status: 200, body: 'entry b' }, 'switched');
      assert.equal(await get('/pagefind/index/es_b.pf_index'), { status: 200, body: 'shard b' });
      assert.equal(await get('/pagefind/index/es_a.pf_index'), { status: 200, body: 'shard a' }, 'the previous bundle\'s shard, for a client that loaded its entry');
      assert.is((await get('/pagefind/only-a.js')).status, 404, 'never an entry point of another bundle');
      assert.is((await get('/pagefind/index/es_c.pf_index')).status, 404);
      fs.rmSync(path.join(root, '20260101T000000000Z-aaaaaa'), { recursive: true });
      assert.is((await get('/pagefind/index/es_a.pf_index')).status, 404, 'a pruned bundle is gone');
    });
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test.run();
