/**
 * Build section:
 *   1. the full `npm run build` of the sample site (astro + every read-model stage) into temp
 *      folders (DIST_DIR, READ_MODEL_DIR), so the repository's dist/ and var/ are left alone;
 *      stage times come from the build's manifest (`timings_ms`);
 *   2. the read-model stage alone (`buildReadModel({ skipAstro: true })`) on a generated site of
 *      `pages` pages (generate-site.ts), in a child process (read-model-child.ts).
 * Peak memory: the largest single process (`/usr/bin/time -v` when it exists, else the child's
 * own `maxRSS`) and the largest sum over the process tree — the build drives Pagefind's own
 * binary, whose memory is part of what the stage needs — sampled from /proc.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../../server/config.ts';
import { currentBuildDir } from '../../formats/read-model/pointer.ts';
import { treeRss } from '../lib/processes.ts';
import { generateSite } from './generate-site.ts';

export interface BuildRun {
  /** Wall time of the whole command, ms. */
  totalMs: number;
  /** User + system CPU of the process tree, ms (from /usr/bin/time), NaN when unknown. */
  cpuMs: number;
  /** Largest resident set of one process of the tree, bytes. */
  peakRss: number;
  /** Largest sum over the process tree (build + Pagefind's binary + astro), bytes, and who held most. */
  peakTreeRss: number;
  peakTreeLargest: string;
  /** Stage → ms, in running order. */
  stages: Record<string, number>;
  pages: number;
}

export interface BuildReport {
  full?: BuildRun;
  /** Also: the build process's own peak (its `maxRSS`), without the Pagefind binary. */
  readModel?: BuildRun & { generatedMs: number; siteBytes: number; buildProcessPeakRss: number };
}

const TIME = '/usr/bin/time';

export interface Measured {
  code: number; stdout: string; stderr: string; wallMs: number;
  /** Largest resident set of one process of the tree (/usr/bin/time). */
  peakRss: number;
  /** Largest sum of the resident sets of the whole tree, sampled every SAMPLE_MS. */
  peakTreeRss: number;
  /** The process that held the most memory at that peak (node, pagefind…). */
  peakTreeLargest: string;
  cpuMs: number;
}

const SAMPLE_MS = 200;

/** Runs node with `args` in `cwd`, under `/usr/bin/time -v` when present, and reads its peak RSS and CPU. */
export async function measure(args: string[], env: Record<string, string>, cwd = ROOT): Promise<Measured> {
  const timed = fs.existsSync(TIME);
  const [cmd, argv] = timed ? [TIME, ['-v', process.execPath, ...args]] : [process.execPath, args];
  const started = performance.now();
  const child = spawn(cmd, argv, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let peakTreeRss = 0;
  let peakTreeLargest = '';
  const sampler = setInterval(() => {
    const t = treeRss(child.pid!);
    if (t.total > peakTreeRss) { peakTreeRss = t.total; peakTreeLargest = `${t.largestName} ${Math.round(t.largest / 1024 / 1024)} MB`; }
  }, SAMPLE_MS);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
  const code = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (c) => resolve(c ?? 1));
  });
  clearInterval(sampler);
  const wallMs = performance.now() - started;
  const field = (name: string) => Number(new RegExp(`${name}:\\s*([\\d.]+)`).exec(stderr)?.[1] ?? Number.NaN);
  return {
    code, stdout, stderr, wallMs, peakTreeRss, peakTreeLargest,
    peakRss: timed ? field('Maximum resident set size \\(kbytes\\)') * 1024 : Number.NaN,
    cpuMs: timed ? (field('User time \\(seconds\\)') + field('System time \\(seconds\\)')) * 1000 : Number.NaN,
  };
}

function fail(what: string, m: Measured): never {
  throw new Error(`${what} failed (exit ${m.code}):\n${(m.stdout + m.stderr).split('\n').slice(-30).join('\n')}`);
}

export async function runBuild(opts: { pages: number; profileDir?: string; log(line: string): void }): Promise<BuildReport> {
  const tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'agentes-bench-build-'));
  // Astro's prerender step imports its own server output, which must resolve this project's
  // node_modules: the site is built inside the repository (var/ is not tracked).
  await fsp.mkdir(path.join(ROOT, 'var', 'bench'), { recursive: true });
  const inRepo = await fsp.mkdtemp(path.join(ROOT, 'var', 'bench', 'build-'));
  const report: BuildReport = {};
  try {
    opts.log(`build: npm run build of the sample site (DIST_DIR and READ_MODEL_DIR in ${path.relative(ROOT, inRepo)})`);
    const dist = path.join(inRepo, 'dist');
    const readModel = path.join(inRepo, 'read-model');
    const full = await measure(['--import', 'tsx', path.join(ROOT, 'build-scripts', 'build.ts')], { DIST_DIR: dist, READ_MODEL_DIR: readModel, CI: '1' });
    if (full.code !== 0) fail('npm run build', full);
    const buildDir = await currentBuildDir(readModel);
    const manifest = JSON.parse(await fsp.readFile(path.join(buildDir!, 'manifest.json'), 'utf8')) as { counts: { pages: number }; timings_ms: Record<string, number> };
    report.full = {
      totalMs: full.wallMs, cpuMs: full.cpuMs, peakRss: full.peakRss, peakTreeRss: full.peakTreeRss, peakTreeLargest: full.peakTreeLargest,
      stages: manifest.timings_ms, pages: manifest.counts.pages,
    };

    // The sample site just built is the template of the generated one (the repository's own
    // dist/client would do as well, but may be rebuilt by someone meanwhile).
    opts.log(`build: generating a ${opts.pages}-page site`);
    const t = performance.now();
    const site = await generateSite(path.join(dist, 'client'), path.join(tmp, 'big', 'client'), opts.pages);
    const generatedMs = performance.now() - t;
    // The sample build stays on disk until the end: on ext4 without a journal, creating a file
    // costs far more soon after others were deleted, so deleting its files here would tax the
    // stage measured next.

    opts.log(`build: read-model stage on ${site.pages} pages`);
    const prof = opts.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.join(opts.profileDir, 'read-model-build')}`] : [];
    const rm = await measure([...prof, '--import', 'tsx', path.join(ROOT, 'bench', 'build', 'read-model-child.ts'), site.distDir, path.join(tmp, 'big-read-model')], {});
    if (rm.code !== 0) fail('the read-model build', rm);
    const result = JSON.parse(rm.stdout.trim().split('\n').pop()!) as { totalMs: number; timings: Record<string, number>; peakRssBytes: number; pages: number };
    report.readModel = {
      totalMs: result.totalMs,
      cpuMs: rm.cpuMs,
      peakRss: Number.isFinite(rm.peakRss) ? rm.peakRss : result.peakRssBytes,
      peakTreeRss: rm.peakTreeRss,
      peakTreeLargest: rm.peakTreeLargest,
      stages: result.timings,
      pages: result.pages,
      generatedMs,
      siteBytes: site.bytes,
      buildProcessPeakRss: result.peakRssBytes,
    };
    return report;
  } finally {
    await fsp.rm(tmp, { recursive: true, force: true });
    await fsp.rm(inRepo, { recursive: true, force: true });
  }
}
