/**
 * A fresh machine, started three times at once (`npm start`'s bundle ×3 on a tree with no site
 * and no read model), with DIST_DIR and READ_MODEL_DIR outside the project: one process builds,
 * the other two wait for its build and serve it; nothing is built twice.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BUILDS_DIR } from '../../formats/read-model/pointer.ts';
import { serverEnv, startServerProcess, type ServerProcess } from './helpers/cluster.ts';

/** Ten times what a whole build of the site takes on a busy machine. */
const START_BOUND_MS = 600_000;

test('three first starts at once: one build, three servers serving it; DIST_DIR outside the project', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-first-start-'));
  const env = serverEnv({ DIST_DIR: path.join(dir, 'dist'), READ_MODEL_DIR: path.join(dir, 'read-model'), SITE_URL: 'http://agentes.test' });
  const started = await Promise.allSettled([0, 1, 2].map(() => startServerProcess(env, START_BOUND_MS)));
  const servers = started.filter((r): r is PromiseFulfilledResult<ServerProcess> => r.status === 'fulfilled').map((r) => r.value);
  try {
    assert.equal(started.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason).slice(-1500)), [], 'every process started');
    for (const s of servers) {
      const page = await fetch(`${s.url}/precios/`, { headers: { accept: 'text/html' } });
      assert.is(page.status, 200);
      assert.match(await page.text(), /^<!DOCTYPE html>/i);
      assert.is((await fetch(`${s.url}/wp-json/agentes/v1/read_page?url=fontaneria`)).status, 200);
    }
    const waited = servers.filter((s) => s.stderr().includes('is building the site and read model: waiting for it'));
    assert.ok(waited.length >= 2, `two processes waited for the third's build (${waited.length})`);
    const builds = (await fs.readdir(path.join(dir, 'read-model', BUILDS_DIR))).filter((b) => !b.startsWith('.'));
    assert.is(builds.length, 1, `one build: ${builds.join(', ')}`);
    await fs.access(path.join(dir, 'dist', 'client', 'index.html'));
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test.run();
