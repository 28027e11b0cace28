/**
 * `npm start` runs the server bundled by scripts/bundle-server.ts with plain Node: the bundle
 * must serve like the TypeScript sources, find the project from var/server/, and run without tsx
 * (the reason for bundling). The start script's shape is what the benchmark parses.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startScriptEnv, startScriptNodeOptions } from '../../scripts/lib/start-script.ts';
import { SERVER_BUNDLE } from '../../scripts/bundle-server.ts';
import { ROOT } from '../../server/config.ts';
import { request } from '../helpers/http.ts';
import { sharedReadModel } from '../helpers/read-model.ts';
import { serverCommand } from '../helpers/server-command.ts';
import { serverEnv, startServers, stubSite } from '../reliability/helpers/cluster.ts';

test('the start script bundles, then runs var/server/index.mjs with plain Node', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const [bundleStep, serve] = pkg.scripts.start.split('&&').map((s) => s.trim());
  assert.is(bundleStep, 'node --import tsx scripts/bundle-server.ts');
  assert.ok(serve!.endsWith(' ' + path.relative(ROOT, SERVER_BUNDLE)), serve);
  assert.not.ok(startScriptNodeOptions().includes('tsx'), 'no TypeScript loader in production');
  // V8's own default lets the old generation grow to several times what survived its last
  // collection, and the garbage stays resident while the server is idle (docs/operations.md).
  assert.ok(startScriptNodeOptions().includes('--heap-growing-percent=50'), startScriptNodeOptions().join(' '));
  // glibc otherwise keeps large freed buffers (a search's columns) for reuse, and the process
  // stays larger after a search load (docs/operations.md).
  assert.equal(startScriptEnv(), { MALLOC_MMAP_THRESHOLD_: '131072' });
});

test('the bundled server runs without tsx and answers the API and the site', async () => {
  const fixture = await sharedReadModel();
  const site = await stubSite();
  const [server] = await startServers(1, serverEnv({ SITE_URL: fixture.siteUrl, READ_MODEL_DIR: fixture.dir, DIST_DIR: site.distDir }));
  try {
    const cmdline = fs.readFileSync(`/proc/${server!.pid}/cmdline`, 'utf8').split('\0');
    assert.equal(cmdline.slice(1, -1), (await serverCommand()));
    assert.not.ok(cmdline.some((a) => a.includes('tsx')), cmdline.join(' '));

    const company = await request(`${server!.url}/wp-json/agentes/v1/get_company_info`);
    assert.is(company.status, 200);
    assert.is(company.headers['api-version'], '1');
    assert.ok(company.headers.ratelimit, 'rate-limit headers written');
    const missing = await request(`${server!.url}/wp-json/agentes/v1/read_page?url=/no-existe/`);
    assert.is(missing.status, 404);
    assert.is(missing.json<{ code: string }>().code, 'agentes_page_not_found');
    const home = await request(`${server!.url}/`);
    assert.is(home.status, 200);
    assert.equal(await server!.stop(), { code: 0, signal: null }, 'drains and exits 0 on SIGTERM');
  } finally {
    await server!.stop();
    await site.remove();
  }
});

test.run();
