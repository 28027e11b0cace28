/**
 * Astro: builds the site (`astro build`) in a child process. Its output is kept out of the way
 * and shown (the last lines) only when it fails; the pages it writes drive the progress line.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { BuildContext } from '../context.ts';
import { BuildError } from '../errors.ts';

export const STAGE = 'astro';
const TAIL_LINES = 40;
const ANSI = /\x1b\[[0-9;]*m/g;

export async function astroBuild(ctx: BuildContext, root: string): Promise<{ pages: number }> {
  const bin = path.join(root, 'node_modules', 'astro', 'astro.js');
  // Astro writes `<outDir>/client` (and `server`): the build's DIST_DIR, so `DIST_DIR=… npm run
  // build` builds and crawls the same folder.
  const child = spawn(process.execPath, [bin, 'build', '--outDir', path.dirname(ctx.distDir)], {
    cwd: root,
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', SITE_URL: ctx.siteUrl, NO_COLOR: '1', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail: string[] = [];
  let pages = 0;
  let partial = '';
  const onData = (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const raw of lines) {
      const line = raw.replace(ANSI, '');
      tail.push(line);
      if (tail.length > TAIL_LINES) tail.shift();
      // Astro lists each generated page as `├─ /servicios/x/index.html (+3ms)`.
      if (/[├└]─ \/\S*\.html\b/.test(line)) ctx.progress(++pages);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (c, signal) => resolve(c ?? (signal ? 128 : null)));
  });
  if (partial) tail.push(partial.replace(ANSI, ''));
  if (code !== 0) {
    for (const line of tail) ctx.log(`  astro | ${line}`);
    throw new BuildError(STAGE, undefined, `astro build exited with code ${code}`);
  }
  return { pages };
}
