/**
 * The site's 404 away from pages: the HTML 404 page for a browser, the JSON error for anything
 * else, so the answer names `Accept` in `Vary` on every path, merged with what it already varies
 * on. Served from a DIST_DIR holding only a 404 page, over the shared read-model fixture.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from '../../helpers/http.ts';
import { startTestServer } from '../../helpers/server.ts';

const varyOf = (headers: Record<string, unknown>) => String(headers.vary ?? '').split(',').map((v) => v.trim().toLowerCase()).filter(Boolean);

test('a 404 chosen by Accept carries Vary: Accept, once, on files, assets and pages', async () => {
  const dist = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-404-'));
  await fs.mkdir(path.join(dist, 'client'));
  await fs.writeFile(path.join(dist, 'client', '404.html'), '<!DOCTYPE html><title>No existe</title>');
  const server = await startTestServer({ env: { DIST_DIR: dist } });
  try {
    for (const target of ['/no-existe.txt', '/_astro/no-existe.js', '/no-existe/']) {
      const html = await request(server.origin + target, { headers: { Accept: 'text/html' } });
      assert.is(html.status, 404, target);
      assert.match(String(html.headers['content-type']), /^text\/html/, target);
      const json = await request(server.origin + target, { headers: { Accept: 'application/json' } });
      assert.is(json.status, 404, target);
      assert.is(json.json().code, 'rest_no_route', target);
      for (const [what, res] of [['HTML', html], ['JSON', json]] as const) {
        const vary = varyOf(res.headers);
        assert.is(vary.filter((v) => v === 'accept').length, 1, `${target} ${what}: Vary names Accept once (${res.headers.vary})`);
      }
    }
    // A page's 404 keeps what pages vary on.
    assert.equal(varyOf((await request(`${server.origin}/no-existe/`, { headers: { Accept: 'text/html' } })).headers), ['accept', 'accept-encoding']);
    // Machine paths are always JSON: nothing to vary on.
    const machine = await request(`${server.origin}/oauth/no-existe`, { headers: { Accept: 'text/html' } });
    assert.is(machine.status, 404);
    assert.not.ok(varyOf(machine.headers).includes('accept'));
  } finally {
    await server.close();
    await fs.rm(dist, { recursive: true, force: true });
  }
});

test.run();
