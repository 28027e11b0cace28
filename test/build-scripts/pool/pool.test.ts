/** The build's worker pool (build-scripts/pool/): results, failures, shutdown. */
import { spawnSync } from 'node:child_process';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BuildError, forPage } from '../../../build-scripts/errors.ts';
import { COMPILED_DIR, compiledTaskModule } from '../../../build-scripts/pool/compile.ts';
import { createPool } from '../../../build-scripts/pool/pool.ts';
import { ROOT } from '../../../server/config.ts';
import { threads, threadsSettled } from '../../helpers/threads.ts';
import type { TestTask } from './fixtures/tasks.ts';

const TASKS = new URL('./fixtures/tasks.ts', import.meta.url);

async function rejects(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  const outcome = await promise.then(() => null, (err: unknown) => err);
  assert.instance(outcome, Error, 'the promise should have been rejected');
  assert.match((outcome as Error).message, pattern);
}

test('each result answers its own task, whichever finishes first', async () => {
  const pool = createPool<TestTask, number>(TASKS, { size: 2 });
  try {
    // The first task is slow (ten times what the 19 others take together on an idle machine): all the others overtake it.
    const inputs = Array.from({ length: 20 }, (_, n) => ({ n, delayMs: n === 0 ? 3000 : 1 }));
    const finished: number[] = [];
    const results = await Promise.all(inputs.map((t) => pool.run(t).then((r) => { finished.push(t.n); return r; })));
    assert.equal(results, inputs.map((t) => t.n * 2));
    assert.is(finished.at(-1), 0, `finished in order ${finished.join(' ')}`);
  } finally {
    await pool.close();
  }
});

test('broadcast runs a task once in every worker, beside the tasks they hold', async () => {
  const pool = createPool<TestTask, number>(TASKS, { size: 3 });
  try {
    await Promise.all([0, 1, 2].map((n) => pool.run({ n }))); // the workers are up
    // Every worker busy with a slow task and another queued behind it.
    const busy = Array.from({ length: 6 }, (_, n) => pool.run({ n, delayMs: 1000, thread: true }));
    busy.forEach((p) => p.catch(() => {}));
    let done = 0;
    for (const p of busy) void p.then(() => { done++; }, () => {});
    const threads = await pool.broadcast({ n: 0, thread: true });
    // Waiting for the queue would mean after all six: each worker's second task ends a second after its first.
    assert.ok(done <= 3, `it does not wait for the queue (${done} of the 6 tasks done before it)`);
    assert.is(new Set(threads).size, 3);
    assert.equal(new Set(await Promise.all(busy)), new Set(threads));
  } finally {
    await pool.close();
  }
});

test('a task that throws rejects with its message; the pool goes on, and forPage names the stage and page', async () => {
  const pool = createPool<TestTask, number>(TASKS, { size: 2 });
  try {
    const err = await forPage('pages', '/guias/x/', () => pool.run({ n: 7, fail: true })).catch((e: unknown) => e);
    assert.instance(err, BuildError);
    assert.is((err as BuildError).message, 'build failed at stage pages, page /guias/x/: task 7 cannot be done');
    assert.is(await pool.run({ n: 8 }), 16);
  } finally {
    await pool.close();
  }
});

test('a worker that dies fails every pending task and every later one', async () => {
  const pool = createPool<TestTask, number>(TASKS, { size: 2 });
  try {
    // The other tasks outlast any start-up of the dying worker, however busy the machine: they end only by being failed.
    const pending = [pool.run({ n: 1, delayMs: 30_000 }), pool.run({ n: 2, exit: true }), pool.run({ n: 3, delayMs: 30_000 })];
    const settled = await Promise.allSettled(pending);
    for (const s of settled) assert.is(s.status, 'rejected');
    const reason = (settled[1] as PromiseRejectedResult).reason as Error;
    assert.match(reason.message, /a build worker stopped \(exit code 3\)/);
    await rejects(pool.run({ n: 4 }), /a build worker stopped/);
  } finally {
    await pool.close();
  }
});

test('close stops the workers (their threads end) and rejects what was still queued', async () => {
  const before = threads();
  const pool = createPool<TestTask, number>(TASKS, { size: 2 });
  assert.is(await pool.run({ n: 1 }), 2);
  assert.ok(threads() >= before + 2, 'two worker threads while the pool is open');
  const queued = rejects(pool.run({ n: 2, delayMs: 30_000 }), /closed/);
  await pool.close();
  await queued;
  assert.is(await threadsSettled(before), before);
  await rejects(pool.run({ n: 3 }), /closed/);
});

test('workers run their task module compiled to JavaScript, one bundle per content', async () => {
  const compiled = compiledTaskModule(TASKS);
  assert.match(compiled.pathname, new RegExp(`^${COMPILED_DIR}/tasks-[0-9a-f]{16}\\.mjs$`));
  assert.is(compiledTaskModule(TASKS).href, compiled.href, 'the same module compiles to the same file');
  assert.is(compiledTaskModule(compiled).href, compiled.href, 'JavaScript runs as it is');
  const pool = createPool<TestTask, number | string>(TASKS, { size: 2 });
  try {
    // Under tsx the module would run from its .ts file, on a loader thread per worker.
    const where = await Promise.all([0, 1, 2, 3].map((n) => pool.run({ n, where: true, delayMs: 20 })));
    assert.equal(where, [compiled.href, compiled.href, compiled.href, compiled.href]);
  } finally {
    await pool.close();
  }
});

test('writing a new bundle removes that module\'s bundles untouched for a day, and no other', async () => {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'agentes-prune-'));
  const base = `prune-${process.pid}`;
  const stale = path.join(COMPILED_DIR, `${base}-0000000000000000.mjs`);
  const recent = path.join(COMPILED_DIR, `${base}-1111111111111111.mjs`);
  const otherStale = path.join(COMPILED_DIR, `other-${base}-0000000000000000.mjs`);
  try {
    await fsp.mkdir(COMPILED_DIR, { recursive: true });
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60_000);
    for (const f of [stale, recent, otherStale]) await fsp.writeFile(f, '');
    for (const f of [stale, otherStale]) await fsp.utimes(f, twoDaysAgo, twoDaysAgo);
    await fsp.writeFile(path.join(dir, `${base}.ts`), `export const made = ${Date.now()};\n`);
    const written = compiledTaskModule(new URL(`file://${path.join(dir, `${base}.ts`)}`));
    const left = (await fsp.readdir(COMPILED_DIR)).filter((n) => n.includes(base)).sort();
    assert.equal(left, [path.basename(written.pathname), path.basename(recent), path.basename(otherStale)].sort());
  } finally {
    const mine = (await fsp.readdir(COMPILED_DIR)).filter((n) => n.includes(base));
    await Promise.all(mine.map((n) => fsp.rm(path.join(COMPILED_DIR, n), { force: true })));
    await fsp.rm(dir, { recursive: true, force: true });
  }
});

test('a task module that does not compile fails the pool at once, naming the error', () => {
  const broken = new URL('./fixtures/broken.ts', import.meta.url);
  assert.throws(() => createPool(broken, { size: 1 }), (err: Error) => /Build failed with 1 error/.test(err.message) && err.message.includes('broken.ts:2:'));
});

test('an idle pool does not keep Node running', async () => {
  // A process that opens a pool, runs one task and never closes it must still exit.
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'agentes-pool-'));
  try {
    const script = path.join(dir, 'forgets-close.mts');
    await fsp.writeFile(script, `import { createPool } from ${JSON.stringify(new URL('../../../build-scripts/pool/pool.ts', import.meta.url).href)};
const pool = createPool(new URL(${JSON.stringify(TASKS.href)}), { size: 1 });
process.stdout.write(String(await pool.run({ n: 21 })));
`);
    const res = spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
    assert.is(res.stdout.trim(), '42', res.stderr);
    assert.is(res.status, 0, res.stderr);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
});

test.run();
