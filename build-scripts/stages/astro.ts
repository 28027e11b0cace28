/**
 * Astro: builds the site (`astro build`) in a child process. Its output is kept out of the way
 * and shown (the last lines) only when it fails; the pages it writes drive the progress line.
 * Astro reuses the pages whose cacheKey and code are unchanged (experimental.incrementalBuild);
 * its caches are removed first for a full build, when the Markdown's inputs changed
 * (render-inputs.ts), or when the incremental cache is not the one the last build checked
 * (incremental-cache.ts). A site that does not reflect the sources (content-check.ts) is built
 * once more from them alone, the caches removed, and fails the build if it still does not.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { findStaleContent } from '../content-check.ts';
import { clearAstroCaches, clearIncrementalCache, incrementalCacheProblem, recordIncrementalCache } from '../incremental-cache.ts';
import { clearCacheIfInputsChanged } from '../render-inputs.ts';
import type { BuildContext } from '../context.ts';
import { BuildError, messageOf } from '../errors.ts';

export const STAGE = 'astro';
const TAIL_LINES = 40;
const ANSI = /\x1b\[[0-9;]*m/g;

export interface AstroOptions {
  /** Render every page and load every entry again: Astro's caches are removed first. */
  full?: boolean;
}

export interface AstroResult {
  /** Pages Astro wrote. */
  pages: number;
  /** Of them, those it rendered (their output paths, `/guias/x/index.html`); the others it reused. */
  rendered: string[];
}

/** Whether `dir` is `root` or inside it. */
const inside = (root: string, dir: string) => {
  const rel = path.relative(root, dir);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

export async function astroBuild(ctx: BuildContext, root: string, options: AstroOptions = {}): Promise<AstroResult> {
  // Astro writes `<outDir>/client` (and `server`): the build's DIST_DIR, so `DIST_DIR=… npm run
  // build` builds and crawls the same folder. Astro runs the pages' code from its output folder,
  // where packages resolve only inside the project: a DIST_DIR elsewhere is built in var/ first
  // and moved there.
  const target = path.dirname(ctx.distDir);
  const outDir = inside(root, target) ? target : path.join(root, 'var', `astro-${ctx.buildId}`);
  const buildOnce = async () => {
    const { removed } = await setAside(ctx, outDir);
    try {
      const result = await runAstro(ctx, root, outDir);
      if (outDir !== target) await moveOutput(outDir, target);
      return result;
    } finally {
      await removed;
      if (outDir !== target) await fs.rm(outDir, { recursive: true, force: true });
    }
  };
  const check = () => findStaleContent({ root, contentDir: ctx.contentDir, distDir: ctx.distDir });
  await prepareCaches(ctx, root, options);
  const result = await buildOnce();
  const stale = await check();
  if (!stale) {
    await recordIncrementalCache(root);
    return result;
  }
  ctx.warn(`astro: ${stale.page} was built from stale content (${stale.detail}); building again with Astro's caches cleared`);
  await clearAstroCaches(root);
  const again = await buildOnce();
  const still = await check();
  if (still) throw new BuildError(STAGE, still.page, `the built site does not reflect the sources: ${still.detail}`);
  await recordIncrementalCache(root);
  return again;
}

/** Leaves Astro's caches as this build may use them, with one line when every page will be rendered. */
async function prepareCaches(ctx: BuildContext, root: string, options: AstroOptions): Promise<void> {
  // First in any case: it records the Markdown's inputs the caches are now made with.
  const cleared = await clearCacheIfInputsChanged(root);
  if (options.full) {
    await clearAstroCaches(root);
    ctx.log('astro: full build: Astro\'s caches cleared, every page rendered');
    return;
  }
  if (cleared) {
    ctx.log(`astro: caches cleared, every page rendered: ${cleared}`);
    return;
  }
  const problem = await incrementalCacheProblem(root);
  if (!problem) return;
  if (!problem.missing) await clearIncrementalCache(root);
  ctx.log(`astro: ${problem.reason}: every page rendered`);
}

/**
 * Astro empties its output folder one file after another before it builds, slow on a large site:
 * renamed aside at once (beside it, so a rename on the same file system), the old output is
 * removed while Astro runs. Folders an interrupted build set aside are removed with it. Resolves
 * once the rename is done; `removed` settles when they are gone, a failure reported as a warning
 * (the next build removes them).
 */
async function setAside(ctx: BuildContext, dir: string): Promise<{ removed: Promise<void> }> {
  const parent = path.dirname(dir);
  const prefix = `.${path.basename(dir)}-old-`;
  try {
    await fs.rename(dir, path.join(parent, `${prefix}${process.pid}-${Date.now()}`));
  } catch {
    // None yet, or one that cannot be renamed (a mount point): Astro empties it as it would anyway.
  }
  const names = await fs.readdir(parent).then((all) => all.filter((n) => n.startsWith(prefix)), () => []);
  const removed = Promise.all(names.map((n) => fs.rm(path.join(parent, n), { recursive: true, force: true })))
    .then(() => {}, (err) => ctx.warn(`astro: the old output set aside in ${parent} is not removed yet: ${messageOf(err)}`));
  return { removed };
}

/** Replaces `target`'s client/ and server/ with `from`'s (a copy when they are on different file systems). */
async function moveOutput(from: string, target: string): Promise<void> {
  await fs.mkdir(target, { recursive: true });
  for (const part of await fs.readdir(from)) {
    const dest = path.join(target, part);
    await fs.rm(dest, { recursive: true, force: true });
    try {
      await fs.rename(path.join(from, part), dest);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      await fs.cp(path.join(from, part), dest, { recursive: true });
    }
  }
}

/** The `astro` command of the project's Astro, as its package.json names it. */
async function astroBin(root: string): Promise<string> {
  const dir = path.join(root, 'node_modules', 'astro');
  const { bin } = JSON.parse(await fs.readFile(path.join(dir, 'package.json'), 'utf8')) as { bin: string | Record<string, string> };
  const entry = typeof bin === 'string' ? bin : bin.astro;
  if (!entry) throw new BuildError(STAGE, undefined, 'the astro package names no `astro` command');
  return path.join(dir, entry);
}

async function runAstro(ctx: BuildContext, root: string, outDir: string): Promise<AstroResult> {
  const bin = await astroBin(root);
  const child = spawn(process.execPath, [bin, 'build', '--outDir', outDir], {
    cwd: root,
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', SITE_URL: ctx.siteUrl, NO_COLOR: '1', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail: string[] = [];
  const rendered: string[] = [];
  let pages = 0;
  let partial = '';
  const onData = (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const raw of lines) {
      const line = raw.replace(ANSI, '');
      tail.push(line);
      if (tail.length > TAIL_LINES) tail.shift();
      // Astro lists each page it renders as `├─ /servicios/x/index.html (+3ms)`, and each it
      // reuses with `(cached)` or `(restored)` in place of the time.
      const page = /[├└]─ (\/\S*\.html)\b(.*)/.exec(line);
      if (!page) continue;
      ctx.progress(++pages);
      if (!/\((?:cached|restored)\)/.test(page[2]!)) rendered.push(page[1]!);
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
  return { pages, rendered };
}
