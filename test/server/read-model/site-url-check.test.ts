/**
 * A read model built for another SITE_URL than the server's is served with a warning naming both,
 * when it is loaded at start and every time such a build is swapped in; a build for the served
 * SITE_URL loads silently.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseConfig } from '../../../server/config.ts';
import type { Logger } from '../../../server/log.ts';
import { openModel } from '../../../server/read-model/holder.ts';
import { createReadModel, FIXTURE_SITE_URL } from '../../helpers/read-model.ts';

function capturingLog(): Logger & { errors: string[] } {
  const errors: string[] = [];
  return { errors, info: () => {}, error: (message) => { errors.push(message); } };
}

const SERVED = 'http://127.0.0.1:5210';
const configFor = (dir: string, siteUrl: string) => parseConfig({ SITE_URL: siteUrl, READ_MODEL_DIR: dir, LOG_LEVEL: 'silent' });

test('warned at start and on each swap of a build for another SITE_URL; not for a build of the served one', async () => {
  const fixture = await createReadModel({ buildId: 'first' });
  const log = capturingLog();
  const holder = await openModel(configFor(fixture.dir, SERVED), log, { watch: false });
  try {
    assert.equal(log.errors, [
      `read model first was built for SITE_URL ${FIXTURE_SITE_URL}, but this server's SITE_URL is ${SERVED}: `
      + `the site's pages (canonical links, sitemap, the API URLs on /desarrolladores/, the sandbox) point at ${FIXTURE_SITE_URL}. `
      + `Run \`SITE_URL=${SERVED} npm run build\`, or start the server with SITE_URL=${FIXTURE_SITE_URL}.`,
    ]);
    await createReadModel({ dir: fixture.dir, buildId: 'second' });
    assert.ok(await holder.reload());
    assert.is(log.errors.length, 2, 'again on the swap');
    assert.match(log.errors[1]!, /^read model second was built for SITE_URL http:\/\/agentes\.test, but this server's SITE_URL is http:\/\/127\.0\.0\.1:5210:/);
    await createReadModel({ dir: fixture.dir, buildId: 'third', siteUrl: SERVED });
    assert.ok(await holder.reload());
    assert.is(log.errors.length, 2, 'a build for the served SITE_URL: no warning');
  } finally {
    await holder.close();
  }
  const quiet = capturingLog();
  const same = await openModel(configFor(fixture.dir, SERVED), quiet, { watch: false });
  await same.close();
  assert.equal(quiet.errors, [], 'nothing at start either');
  await fixture.remove();
});

test.run();
