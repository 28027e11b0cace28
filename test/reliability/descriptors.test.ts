/**
 * Few file descriptors: the real process under `ulimit -n` loads the
 * built sample site (hundreds of page files) a few files at a time, and a publish that meets a
 * descriptor shortage (every descriptor held by idle connections) is retried until it loads,
 * the previous build serving meanwhile.
 */
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseConfig } from '../../server/config.ts';
import { readPointer, writePointer, buildPath } from '../../formats/read-model/pointer.ts';
import { PageIndex } from '../../formats/read-model/page-index.ts';
import { PAGE_INDEX_FILE } from '../../formats/schemas/read-model.ts';
import { builtReadModel } from '../helpers/built-site.ts';
import { waitUntil } from '../helpers/wait.ts';
import { serverEnv, startServerProcess, stubSite } from './helpers/cluster.ts';

/** A read-model folder of its own holding a copy of the built sample site's build. */
async function ownReadModel(): Promise<{ dir: string; id: string; siteUrl: string; remove(): Promise<void> }> {
  await builtReadModel();
  const source = parseConfig().readModelDir;
  const id = (await readPointer(source))!;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-fds-'));
  await fs.cp(buildPath(source, id), buildPath(dir, id), { recursive: true });
  await writePointer(dir, id);
  const manifest = JSON.parse(await fs.readFile(path.join(buildPath(dir, id), 'manifest.json'), 'utf8')) as { site_url: string };
  return { dir, id, siteUrl: manifest.site_url, remove: () => fs.rm(dir, { recursive: true, force: true }) };
}

const pageCount = async (dir: string, id: string) => (await fs.readdir(path.join(buildPath(dir, id), 'pages'))).length;

test('200 descriptors: a build of hundreds of page files loads and serves', async () => {
  const model = await ownReadModel();
  const site = await stubSite();
  assert.ok(await pageCount(model.dir, model.id) > 300, 'more page files than descriptors');
  const server = await startServerProcess(serverEnv({ SITE_URL: model.siteUrl, READ_MODEL_DIR: model.dir, DIST_DIR: site.distDir }), 60_000, 200);
  try {
    assert.is((await fetch(`${server.url}/wp-json/agentes/v1/read_page?url=fontaneria`)).status, 200);
  } finally {
    await server.stop();
    await site.remove();
    await model.remove();
  }
});

test('128 descriptors: a model of more page files than that starts from its page index and serves every page, cold, many at once', async () => {
  const model = await ownReadModel();
  const site = await stubSite();
  const limit = 128;
  const index = await PageIndex.open(path.join(buildPath(model.dir, model.id), PAGE_INDEX_FILE));
  const paths = Array.from({ length: index.size }, (_, i) => index.path(i));
  assert.ok(paths.length > 3 * limit, `${paths.length} page files, ${limit} descriptors`);
  const server = await startServerProcess(serverEnv({
    SITE_URL: model.siteUrl, READ_MODEL_DIR: model.dir, DIST_DIR: site.distDir, RATE_LIMIT_ANONYMOUS: '100000',
    // A hot set of 1 MB: most reads below go to the page files.
    READ_MODEL_CACHE_MB: '1',
  }), 60_000, limit);
  try {
    const statuses = new Map<number, number>();
    let next = 0;
    // 16 clients at once: the server holds their connections besides the files it reads.
    await Promise.all(Array.from({ length: 16 }, async () => {
      while (next < paths.length) {
        const p = paths[next++]!;
        const res = await fetch(`${server.url}/wp-json/agentes/v1/read_page?url=${encodeURIComponent(p)}`, { headers: { 'Accept-Encoding': 'br' } });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    }));
    assert.equal([...statuses], [[200, paths.length]]);
    assert.not.ok(server.logs().some((l) => /EMFILE|descriptors/.test(JSON.stringify(l))), 'never short of descriptors');
    assert.ok(server.alive());
  } finally {
    await server.stop();
    await site.remove();
    await model.remove();
  }
});

/** The server's descriptors (`ulimit -n`). */
const LIMIT = 256;

test('a publish while every descriptor is taken is retried until it loads; the old build serves meanwhile', async () => {
  const model = await ownReadModel();
  const site = await stubSite();
  const server = await startServerProcess(serverEnv({ SITE_URL: model.siteUrl, READ_MODEL_DIR: model.dir, DIST_DIR: site.distDir, READ_MODEL_WATCH: 'off' }), 60_000, LIMIT);
  const sockets: net.Socket[] = [];
  try {
    // The next build is copied first: the server drops a connection that sends nothing within its
    // headers timeout, so on a busy machine a slow copy would free the descriptors before the publish.
    const next = `${model.id}-b`;
    await fs.cp(buildPath(model.dir, model.id), buildPath(model.dir, next), { recursive: true });
    // Idle connections until the server holds every descriptor it may have: a connection counts
    // once the server has accepted it, which on a busy machine comes well after the client connects.
    for (let i = 0; i < 300; i++) {
      const socket = net.connect(server.port, '127.0.0.1');
      socket.on('error', () => {});
      sockets.push(socket);
    }
    await Promise.all(sockets.map((s) => new Promise((resolve) => { s.once('connect', resolve); s.once('error', resolve); })));
    await waitUntil('the server holds every descriptor', async () => (await fs.readdir(`/proc/${server.child.pid}/fd`)).length >= LIMIT);

    await writePointer(model.dir, next);
    server.child.kill('SIGHUP');
    await server.waitForLog(/out of file descriptors; trying again/, 30_000);
    assert.not.ok(server.logs().some((l) => /read model swapped/.test(l.msg)), 'not loaded while short');

    for (const s of sockets) s.destroy();
    await server.waitForLog(/read model swapped/, 30_000);
    assert.ok(server.logs().some((l) => /read model swapped/.test(l.msg) && l.build_id === next));
    assert.is((await fetch(`${server.url}/wp-json/agentes/v1/get_company_info`)).status, 200);
    assert.ok(server.alive());
  } finally {
    for (const s of sockets) s.destroy();
    await server.stop();
    await site.remove();
    await model.remove();
  }
});

test.run();
