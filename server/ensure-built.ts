/** `npm start` and the tests build the site and read model first when either is missing. */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT, type Config } from './config.ts';

export function isBuilt(config: Config): boolean {
  return fs.existsSync(path.join(config.distDir, 'client', 'index.html'))
    && fs.existsSync(path.join(config.readModelDir, 'current'));
}

export function ensureBuilt(config: Config): void {
  if (isBuilt(config)) return;
  process.stderr.write('No built site or read model yet: running the build first (npm run build)…\n');
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'build-scripts', 'build.ts')], {
    cwd: ROOT,
    stdio: 'inherit',
    env: process.env,
  });
  if (result.status !== 0) throw new Error(`the build failed (exit ${result.status ?? result.signal})`);
}
