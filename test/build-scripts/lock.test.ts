/**
 * The build lock (build-scripts/lock.ts): one build at a time per read-model folder, a lock file
 * never seen without its pid, and a lock left by a dead process taken over by one taker only.
 */
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { acquireLock } from '../../build-scripts/lock.ts';
import { leftBehind, LOCK_FILE, lockOwner } from '../../formats/read-model/build-lock.ts';

const run = promisify(execFile);
const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'agentes-lock-'));
const deadPid = () => spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).stdout.trim();

test('a lock file without its pid yet is one being written: held, not taken over', async () => {
  const dir = tempDir();
  try {
    fs.writeFileSync(path.join(dir, LOCK_FILE), '');
    assert.is.not(lockOwner(dir), null, 'held');
    const refused = await acquireLock(dir).then(() => null, (e: Error) => e);
    assert.instance(refused, Error, 'the lock was taken from a writer');
    assert.match(refused!.message, 'another build (starting)');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a lock left by a dead process is taken over; release removes only its own lock', async () => {
  const dir = tempDir();
  try {
    const file = path.join(dir, LOCK_FILE);
    fs.writeFileSync(file, deadPid());
    assert.is(lockOwner(dir), null);
    const release = await acquireLock(dir);
    assert.is(fs.readFileSync(file, 'utf8'), String(process.pid));
    assert.equal(fs.readdirSync(dir), [LOCK_FILE], 'nothing else left beside it');
    fs.writeFileSync(file, deadPid());
    await release();
    assert.ok(fs.existsSync(file), 'another process\'s lock is left alone');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('only a lock that is there and dead is left behind: an absent one is free, and removing "it" would remove the next owner\'s', () => {
  const dir = tempDir();
  try {
    const file = path.join(dir, LOCK_FILE);
    assert.is(lockOwner(dir), null, 'no owner');
    assert.is(leftBehind(dir), false, 'absent: nothing to take over');
    fs.writeFileSync(file, deadPid());
    assert.is(leftBehind(dir), true, 'a dead owner');
    fs.writeFileSync(file, String(process.ppid));
    assert.is(leftBehind(dir), false, 'a live owner');
    fs.writeFileSync(file, '');
    assert.is(leftBehind(dir), false, 'being written');
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(file, old, old);
    assert.is(leftBehind(dir), true, 'never finished');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('processes racing for the lock: never two holders at once', async () => {
  const dir = tempDir();
  const script = `
    const fs = await import('node:fs');
    const { acquireLock } = await import(${JSON.stringify(new URL('../../build-scripts/lock.ts', import.meta.url).href)});
    const dir = ${JSON.stringify(dir)};
    let held = 0, overlaps = 0;
    for (let i = 0; i < 150; i++) {
      let release;
      try { release = await acquireLock(dir); } catch { continue; }
      held++;
      try { fs.writeFileSync(dir + '/holder', String(process.pid), { flag: 'wx' }); } catch { overlaps++; }
      await new Promise((r) => setImmediate(r));
      fs.rmSync(dir + '/holder', { force: true });
      await release();
    }
    console.log(JSON.stringify({ held, overlaps }));`;
  try {
    const runs = await Promise.all(Array.from({ length: 6 }, () =>
      run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]).then(({ stdout }) => JSON.parse(stdout) as { held: number; overlaps: number })));
    assert.equal(runs.map((r) => r.overlaps), [0, 0, 0, 0, 0, 0], JSON.stringify(runs));
    assert.ok(runs.reduce((n, r) => n + r.held, 0) > 0, 'someone held it');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
