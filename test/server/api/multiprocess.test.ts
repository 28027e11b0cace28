/**
 * Three real server processes (the bundled server, as `npm start` runs it) sharing one private
 * Redis, with the default limits: exactly 60 of 200 concurrent anonymous requests from one IP
 * are admitted, whichever process answers them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../../../server/config.ts';
import { serverCommand } from '../../helpers/server-command.ts';
import { request } from '../../helpers/http.ts';
import { sharedReadModel } from '../../helpers/read-model.ts';
import { startRedis } from '../../helpers/redis.ts';

async function startServerProcess(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, await serverCommand(), {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => { stderr += c.toString(); });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 30 s: ${stderr}`)), 30_000);
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited with ${code}: ${stderr}`)); });
    child.on('message', (m: { ready?: boolean; url?: string }) => {
      if (m.ready && m.url) { clearTimeout(timer); resolve({ child, url: m.url }); }
    });
  });
}

const stop = (child: ChildProcess) => new Promise<void>((resolve) => {
  if (child.exitCode !== null || child.signalCode !== null) return resolve();
  child.once('exit', () => resolve());
  child.kill('SIGTERM');
  setTimeout(() => child.kill('SIGKILL'), 5000).unref();
});

test('3 processes on one Redis admit exactly 60 of 200 concurrent anonymous requests', async () => {
  const fixture = await sharedReadModel();
  const redis = await startRedis();
  // `npm start` builds first when the site is missing; a stub site is enough for the API.
  const dist = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-dist-'));
  await fs.mkdir(path.join(dist, 'client'));
  await fs.writeFile(path.join(dist, 'client', 'index.html'), '<!doctype html><title>stub</title>');
  const children: ChildProcess[] = [];
  try {
    const env = {
      PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error', REDIS_URL: redis.url, KEY_PREFIX: 'multi',
      SITE_URL: fixture.siteUrl, READ_MODEL_DIR: fixture.dir, DIST_DIR: dist,
      RATE_LIMIT_ANONYMOUS: '', RATE_LIMIT_IDENTIFIED: '', RATE_LIMIT_WINDOW: '',
    };
    const servers = await Promise.all([1, 2, 3].map(() => startServerProcess(env)));
    children.push(...servers.map((s) => s.child));
    const responses = await Promise.all(Array.from({ length: 200 }, (_, i) =>
      request(`${servers[i % 3]!.url}/wp-json/agentes/v1/read_page?url=fontaneria`)));
    const byStatus = new Map<number, number>();
    for (const r of responses) byStatus.set(r.status, (byStatus.get(r.status) ?? 0) + 1);
    assert.equal(Object.fromEntries(byStatus), { 200: 60, 429: 140 });
    for (const r of responses) assert.type(r.headers.ratelimit, 'string', 'every answer carries the quota headers');
    const remaining = responses.filter((r) => r.status === 200).map((r) => Number(r.headers['ratelimit-remaining'])).sort((a, b) => a - b);
    assert.equal(remaining, Array.from({ length: 60 }, (_, i) => i), 'each admitted request saw its own count');
  } finally {
    await Promise.all(children.map(stop));
    await redis.close();
    await fs.rm(dist, { recursive: true, force: true });
  }
});

test.run();
