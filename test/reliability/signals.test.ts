/**
 * Signals and configuration mistakes of the real process (`npm start`'s bundle): SIGHUP, the
 * documented reload, is accepted while the server is still starting, its listener in place before
 * any package loads; a bad REDIS_URL stops the
 * start without printing its password.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../../server/config.ts';
import { serverCommand } from '../helpers/server-command.ts';
import { sharedReadModel } from '../helpers/read-model.ts';
import { serverEnv, stubSite } from './helpers/cluster.ts';

/** A bundled server process, with `preload` (a module path) imported before its entry when given. */
async function startBundled(preload?: string) {
  const fixture = await sharedReadModel();
  const site = await stubSite();
  const command = await serverCommand();
  const child = spawn(process.execPath, preload ? ['--import', preload, ...command] : command, {
    cwd: ROOT,
    env: { ...process.env, ...serverEnv({ SITE_URL: fixture.siteUrl, READ_MODEL_DIR: fixture.dir, DIST_DIR: site.distDir }) },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => { stderr += c.toString(); });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  /** Resolves with the URL once the server listens; `onStarting` runs when its SIGHUP listener is in place. */
  const ready = (onStarting: () => void = () => {}) => new Promise<string>((resolve, reject) => {
    child.on('message', (m: { starting?: boolean; ready?: boolean; url?: string }) => {
      if (m.starting) onStarting();
      if (m.ready && m.url) resolve(m.url);
    });
    void exited.then((e) => reject(new Error(`exited before it was ready: ${JSON.stringify(e)}\n${stderr}`)));
  });
  const stop = async () => {
    child.kill('SIGTERM');
    const end = await exited;
    await site.remove();
    return end;
  };
  const cleanup = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await site.remove();
  };
  return { child, ready, stop, cleanup, stderr: () => stderr };
}

test('the bundled entry has its SIGHUP listener before any package is loaded', async () => {
  // A module hook on the main thread sees every file loaded, and whether the listener is there yet.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentes-sighup-'));
  const hook = path.join(dir, 'hook.mjs');
  fs.writeFileSync(hook, `import { registerHooks } from 'node:module';
    const loaded = [];
    registerHooks({ load(url, context, next) {
      if (url.includes('/node_modules/')) loaded.push([url, process.listenerCount('SIGHUP')]);
      return next(url, context);
    } });
    process.on('exit', () => process.stderr.write('PACKAGES ' + JSON.stringify({ loaded: loaded.length, before: loaded.filter(([, n]) => n === 0).map(([u]) => u.split('/node_modules/')[1]) }) + '\\n'));
  `);
  const server = await startBundled(hook);
  try {
    await server.ready();
    assert.equal(await server.stop(), { code: 0, signal: null });
    const line = /PACKAGES (.*)/.exec(server.stderr());
    assert.ok(line, server.stderr());
    const { loaded, before } = JSON.parse(line![1]!) as { loaded: number; before: string[] };
    assert.ok(loaded > 0, 'the hook saw the packages load');
    assert.equal(before.slice(0, 5), [], `${before.length} package files loaded before the SIGHUP listener`);
  } finally {
    await server.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// Counted from the entry's first line (the listener's IPC message): before it, Node is still
// starting and resets every signal's disposition, so no program can answer a SIGHUP then.
for (const delay of [0, 50, 200, 500]) {
  test(`SIGHUP ${delay} ms into the start, while the server and its packages load: it starts, serves, and exits 0 on SIGTERM`, async () => {
    const server = await startBundled();
    try {
      const url = await server.ready(() => { setTimeout(() => server.child.kill('SIGHUP'), delay); });
      const res = await fetch(`${url}/wp-json/agentes/v1/get_company_info`);
      assert.is(res.status, 200);
      assert.equal(await server.stop(), { code: 0, signal: null });
    } finally {
      await server.cleanup();
    }
  });
}

test('a REDIS_URL that is not a URL stops the start, naming the variable, never printing its password', async () => {
  const child = spawn(process.execPath, await serverCommand(), {
    cwd: ROOT,
    env: { ...process.env, ...serverEnv({ REDIS_URL: 'redis://:s3cret-pass@127.0.0.1:99999' }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => { out += c.toString(); });
  child.stderr!.on('data', (c: Buffer) => { out += c.toString(); });
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  assert.is(code, 1);
  assert.match(out, 'REDIS_URL must be a redis:// or rediss:// URL');
  assert.match(out, 'redis://***@127.0.0.1:99999');
  assert.not.match(out, 's3cret-pass');
});

test.run();
