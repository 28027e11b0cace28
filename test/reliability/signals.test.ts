/**
 * Signals and configuration mistakes of the real process (`npm start`'s bundle): SIGHUP, the
 * documented reload, is accepted while the server is still starting; a bad REDIS_URL stops the
 * start without printing its password.
 */
import { spawn } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../../server/config.ts';
import { serverCommand } from '../helpers/server-command.ts';
import { sharedReadModel } from '../helpers/read-model.ts';
import { serverEnv, stubSite } from './helpers/cluster.ts';

test('SIGHUP while the server starts: it starts, serves, and exits 0 on SIGTERM', async () => {
  const fixture = await sharedReadModel();
  const site = await stubSite();
  const child = spawn(process.execPath, await serverCommand(), {
    cwd: ROOT,
    env: { ...process.env, ...serverEnv({ SITE_URL: fixture.siteUrl, READ_MODEL_DIR: fixture.dir, DIST_DIR: site.distDir }) },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => { stderr += c.toString(); });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  try {
    // Sent as soon as the process says it is evaluating the server, long before it listens.
    const url = await new Promise<string>((resolve, reject) => {
      child.on('message', (m: { starting?: boolean; ready?: boolean; url?: string }) => {
        if (m.starting) { child.kill('SIGHUP'); child.kill('SIGHUP'); }
        if (m.ready && m.url) resolve(m.url);
      });
      void exited.then((e) => reject(new Error(`exited before it was ready: ${JSON.stringify(e)}\n${stderr}`)));
    });
    const res = await fetch(`${url}/wp-json/agentes/v1/get_company_info`);
    assert.is(res.status, 200);
    child.kill('SIGTERM');
    assert.equal(await exited, { code: 0, signal: null });
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await site.remove();
  }
});

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
