/**
 * `npm test`'s runner (scripts/run-tests.ts) fails a run in which a suite lost its tests to a
 * failing hook, which uvu alone reports as a pass.
 */
import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWorkerPool } from '../../scripts/lib/test-worker-pool.ts';
import { filesOf, lostSuites, nextToStart, parseArgs, runAll, runCheck, runOrder, timeReport, totalsOf, TYPECHECK } from '../../scripts/run-tests.ts';
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
  // fine.spec.ts (1) + hook-fails.spec.ts (2) + crashes.spec.ts (one, for the crash) + pid.spec.ts (1) + env.spec.ts (1), three passed.
  assert.match(r.stdout, /Total:\s+6\n\s+Passed:\s+3\n/);
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

test('the worker pool runs file after file in one process, each with its own totals; a crash fails only its file', async () => {
  const pool = createWorkerPool({ env: { ...process.env, TEST_TIER: 'unit' }, timeoutMs: 10 * 60_000 });
  try {
    const first = await pool.run('test/scripts/fixtures/pool/pid.spec.ts');
    const lost = await pool.run(`${FIXTURES}/hook-fails.spec.ts`);
    const fine = await pool.run(`${FIXTURES}/fine.spec.ts`);
    assert.is(first.code, 0);
    assert.equal(totalsOf(first.output), { total: 1, passed: 1, skipped: 0 });
    assert.equal(lostSuites(`x.spec.ts\n${lost.output}`), [{ file: 'x.spec.ts', lost: 2 }]);
    assert.equal(totalsOf(fine.output), { total: 1, passed: 1, skipped: 0 }, 'the totals of this file alone');
    assert.type(first.cpuMs, 'number');

    const crashed = await pool.run('test/scripts/fixtures/crash/crashes.spec.ts');
    assert.is(crashed.code, 3);
    assert.is(totalsOf(crashed.output), null);
    assert.match(crashed.output, 'the worker process ended (3) while this file ran');
    const again = await pool.run('test/scripts/fixtures/pool/pid.spec.ts');
    assert.is(again.code, 0, 'a new worker after the crash');
    assert.not.equal(/pid=(\d+)/.exec(again.output)![1], /pid=(\d+)/.exec(first.output)![1]);
  } finally {
    await pool.close();
  }
});

test('a failing file in the pool: its exit code is 1, and the next file in that worker passes', async () => {
  const failing = createWorkerPool({ env: { ...process.env, TEST_TIER: 'unit', POOL_FIXTURE_FAIL: '1' }, timeoutMs: 10 * 60_000 });
  try {
    const failed = await failing.run('test/scripts/fixtures/pool/pid.spec.ts');
    assert.is(failed.code, 1);
    assert.match(failed.output, 'asked to fail');
    const next = await failing.run(`${FIXTURES}/fine.spec.ts`);
    assert.is(next.code, 0);
    assert.equal(totalsOf(next.output), { total: 1, passed: 1, skipped: 0 });
  } finally {
    await failing.close();
  }
});

test('a file\'s environment in the pool is its own: set for it, put back after it', async () => {
  const pool = createWorkerPool({ env: { ...process.env, TEST_TIER: 'unit' }, timeoutMs: 10 * 60_000 });
  try {
    const failed = await pool.run('test/scripts/fixtures/pool/pid.spec.ts', { POOL_FIXTURE_FAIL: '1' });
    assert.is(failed.code, 1);
    const next = await pool.run('test/scripts/fixtures/pool/env.spec.ts');
    assert.is(next.code, 0, 'the variable was removed after the file that set it');
    assert.is(/pid=(\d+)/.exec(next.output)![1], /pid=(\d+)/.exec(failed.output)![1], 'the same worker ran both');
  } finally {
    await pool.close();
  }
});

test('a check (the typecheck) counts one test: passed when its command exits 0, failed with its output otherwise', async () => {
  const ok = await runCheck('a passing check', [process.execPath, '-e', '']);
  assert.equal(ok.totals, { total: 1, passed: 1, skipped: 0 });
  assert.type(ok.cpuMs, 'number');
  const bad = await runCheck('a failing check', [process.execPath, '-e', 'console.log("error TS2322"); process.exit(2)']);
  assert.equal(bad.totals, { total: 1, passed: 0, skipped: 0 });
  assert.is(bad.code, 2);
  assert.match(bad.output, /^a failing check\nerror TS2322\n[^]*FAILED/);
});

test('when the sample site does not build, every file waiting for it fails with the build\'s error', async () => {
  const waiting = `${FIXTURES}/fine.spec.ts`;
  const results = await runAll([waiting], { jobs: 2, isolate: false, typecheck: true, site: Promise.reject(new Error('astro build failed')) }, () => {});
  assert.equal(results.map((r) => r.file).sort(), [TYPECHECK, waiting].sort());
  for (const r of results) {
    assert.is(r.code, 1);
    assert.match(r.output, 'the sample site did not build: Error: astro build failed');
  }
});

const UNIT = 'test/server/memo.test.ts';
const SERVER = 'test/server/mcp/http.test.ts';
const BROWSER = 'test/site/lighthouse.test.ts';
const BROWSER_2 = 'test/site/chromium.test.ts';
const E2E = 'test/reliability/publish.test.ts';
const ALONE = 'test/reliability/redis-cluster.test.ts';
const ASTRO = 'test/reliability/first-start.test.ts';

test('run order: the typecheck, the browser files, the other e2e files, then the rest as listed', () => {
  assert.equal(runOrder([UNIT, SERVER, E2E, BROWSER], true), [TYPECHECK, BROWSER, E2E, UNIT, SERVER]);
  assert.equal(runOrder([UNIT, E2E], false), [E2E, UNIT]);
});

test('what starts next: unit files while the site builds, then the rest; one browser; alone files alone; Astro after the typecheck', () => {
  const ready = { jobs: 3, siteReady: true };
  // While the sample site builds, only unit files start.
  assert.is(nextToStart([TYPECHECK, E2E, UNIT], [], { jobs: 3, siteReady: false }), 2);
  assert.is(nextToStart([TYPECHECK, E2E], [UNIT], { jobs: 3, siteReady: false }), -1);
  assert.is(nextToStart([TYPECHECK, E2E], [], ready), 0);
  // No more than `jobs` at once.
  assert.is(nextToStart([UNIT], [SERVER, E2E, BROWSER], ready), -1);
  // One browser file at a time: the next in line is passed over, not waited for.
  assert.is(nextToStart([BROWSER_2, SERVER], [BROWSER], ready), 1);
  // An alone file waits for the others to end, and nothing starts beside it.
  assert.is(nextToStart([ALONE, SERVER], [UNIT], ready), 1);
  assert.is(nextToStart([ALONE], [], ready), 0);
  assert.is(nextToStart([SERVER], [ALONE], ready), -1);
  // A file that runs Astro in the project root waits while the typecheck is queued or running.
  assert.is(nextToStart([ASTRO, SERVER], [TYPECHECK], ready), 1);
  assert.is(nextToStart([TYPECHECK, ASTRO], [], { jobs: 3, siteReady: false }), -1);
  assert.is(nextToStart([ASTRO], [SERVER], ready), 0);
});

test('the time report: per tier, then the slowest files first', () => {
  const report = timeReport([
    { file: 'test/server/memo.test.ts', wallMs: 1500, cpuMs: 900 },
    { file: 'test/site/icons.test.ts', wallMs: 20_000, cpuMs: 7000 },
    { file: 'test/server/mcp/http.test.ts', wallMs: 9000, cpuMs: null },
  ], 2);
  assert.match(report, /unit\s+1 files\s+1\.5s\s+0\.9s/);
  assert.match(report, /server\s+1 files\s+9\.0s\s+\?/);
  assert.match(report, /20\.0s\s+7\.0s  test\/site\/icons\.test\.ts\n\s+9\.0s\s+\?  test\/server\/mcp\/http\.test\.ts\n$/);
  assert.match(timeReport([{ file: TYPECHECK, wallMs: 20_000, cpuMs: 25_000 }]), /typecheck\s+20\.0s\s+25\.0s\n/);
});

test.run();
