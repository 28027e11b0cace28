/**
 * `npm test`'s runner (scripts/run-tests.ts) fails a run in which a suite lost its tests to a
 * failing hook, which uvu alone reports as a pass.
 */
import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { filesOf, lostSuites, parseArgs, totalsOf } from '../../scripts/run-tests.ts';
import { refuseInUnitTier, tierOf } from '../tiers.ts';

const FIXTURES = 'test/scripts/fixtures/lost-suite';

test('uvu alone exits 0 when a before hook throws (why the runner exists)', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'node_modules/uvu/bin.js', FIXTURES, '\\.spec\\.ts$'], { encoding: 'utf8' });
  assert.is(r.status, 0);
  assert.match(r.stdout, /\(0 \/ 2\)/);
});

test('the runner fails that run and names the suite', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/run-tests.ts', FIXTURES, '\\.spec\\.ts$'], { encoding: 'utf8' });
  assert.is(r.status, 1);
  assert.match(r.stdout, `LOST  2 test(s) of ${FIXTURES}/hook-fails.spec.ts never ran`);
  assert.not.match(r.stdout, 'fine.spec.ts never ran');
});

test('lostSuites: failed tests are not lost ones; colour codes are read through', () => {
  const out = 'a.test.ts\n\x1b[32m• • \x1b[39m  (2 / 2)\nb.test.ts\n• ✘ •   (2 / 3)\nc.test.ts\n  \x1b[32m(0 / 6)\x1b[39m\n';
  assert.equal(lostSuites(out), [{ file: 'c.test.ts', lost: 6 }]);
});

test('a file that ends without its totals fails the run and counts as one failed test', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/run-tests.ts', 'test/scripts/fixtures', '\\.spec\\.ts$'], { encoding: 'utf8' });
  assert.is(r.status, 1);
  assert.match(r.stdout, 'ENDED WITHOUT TOTALS (exit 3)');
  // fine.spec.ts (1) + hook-fails.spec.ts (2) + crashes.spec.ts (one, for the crash), one passed.
  assert.match(r.stdout, /Total:\s+4\n\s+Passed:\s+1\n/);
  assert.match(r.stdout, /Failed files[^]*crash\/crashes\.spec\.ts[^]*lost-suite\/hook-fails\.spec\.ts/);
});

test('totalsOf reads uvu\'s closing counts, and null when there are none', () => {
  assert.equal(totalsOf('x.test.ts\n• •  (2 / 2)\n\n  Total:     2\n\x1b[32m  Passed:    2\x1b[39m\n  Skipped:   0\n'), { total: 2, passed: 2, skipped: 0 });
  assert.is(totalsOf('x.test.ts\nError: boom\n'), null);
});

test('tiers: a folder, a tier, and every file in exactly one tier', () => {
  const all = filesOf(parseArgs([]));
  const unit = filesOf(parseArgs(['--tier', 'unit']));
  const rest = filesOf(parseArgs(['--tier', 'server,e2e']));
  assert.equal([...unit, ...rest].sort(), all);
  assert.ok(unit.length >= 40, `${unit.length} unit files`);
  assert.ok(unit.every((f) => tierOf(f) === 'unit'));
  assert.is(tierOf('test/site/lighthouse.test.ts'), 'e2e');
  assert.is(tierOf('test/server/mcp/http.test.ts'), 'server');
  assert.equal(filesOf(parseArgs(['test/server/memo.test.ts'])), ['test/server/memo.test.ts']);
  assert.throws(() => parseArgs(['--tier', 'fast']), /--tier takes unit, server, e2e/);
});

test('a unit test that starts a server, Redis or a build is refused, naming the table', () => {
  const before = process.env.TEST_TIER;
  try {
    process.env.TEST_TIER = 'unit';
    assert.throws(() => refuseInUnitTier('A Redis server'), /A Redis server is not for a unit test: .*test\/tiers\.ts/);
    process.env.TEST_TIER = 'server';
    refuseInUnitTier('A Redis server');
  } finally {
    if (before === undefined) delete process.env.TEST_TIER; else process.env.TEST_TIER = before;
  }
});

test.run();
