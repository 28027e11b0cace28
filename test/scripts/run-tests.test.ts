/**
 * `npm test`'s runner (scripts/run-tests.ts) fails a run in which a suite lost its tests to a
 * failing hook, which uvu alone reports as a pass.
 */
import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lostSuites } from '../../scripts/run-tests.ts';

const FIXTURES = 'test/scripts/fixtures/lost-suite';

test('uvu alone exits 0 when a before hook throws (why the runner exists)', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'node_modules/uvu/bin.js', FIXTURES, '\\.spec\\.ts$'], { encoding: 'utf8' });
  assert.is(r.status, 0);
  assert.match(r.stdout, /\(0 \/ 2\)/);
});

test('the runner fails that run and names the suite', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/run-tests.ts', FIXTURES, '\\.spec\\.ts$'], { encoding: 'utf8' });
  assert.is(r.status, 1);
  assert.match(r.stdout, 'LOST  2 test(s) of hook-fails.spec.ts never ran');
  assert.not.match(r.stdout, 'fine.spec.ts never ran');
});

test('lostSuites: failed tests are not lost ones; colour codes are read through', () => {
  const out = 'a.test.ts\n\x1b[32m• • \x1b[39m  (2 / 2)\nb.test.ts\n• ✘ •   (2 / 3)\nc.test.ts\n  \x1b[32m(0 / 6)\x1b[39m\n';
  assert.equal(lostSuites(out), [{ file: 'c.test.ts', lost: 6 }]);
});

test.run();
