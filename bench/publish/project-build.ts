/**
 * `npm run build` in a project copy, as in the repository (`node --import tsx
 * build-scripts/build.ts`), measured as the build section measures it: wall time, and the peak of
 * the build and all its children summed (astro, workers' threads, Pagefind), from /proc. Stage
 * times come from the published manifest, and the Pagefind bundle's, which follows the publish,
 * from the build's summary line.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { currentBuildDir } from '../../formats/read-model/pointer.ts';
import { measure } from '../build/run-build.ts';

export interface ProjectBuild {
  wallMs: number;
  cpuMs: number;
  peakTreeRss: number;
  peakTreeLargest: string;
  /** Stage → ms in running order, `pagefind` last. */
  stages: Record<string, number>;
  /** Pages Astro rendered (the others it reused). */
  rendered: number;
  buildDir: string;
  /** The build's failure after it published (the Pagefind bundle's): the read model is live, the build exited 1. */
  error?: string;
}

export async function buildProject(opts: { root: string; distDir: string; readModelDir: string; full?: boolean }): Promise<ProjectBuild> {
  const m = await measure(['--import', 'tsx', path.join('build-scripts', 'build.ts'), ...(opts.full ? ['--full'] : [])],
    { DIST_DIR: opts.distDir, READ_MODEL_DIR: opts.readModelDir, CI: '1' }, opts.root);
  const output = (m.stdout + m.stderr).split('\n\tCommand being timed')[0]!;
  const unbundled = /^pagefind: .*is published.*$/m.exec(output)?.[0];
  if (m.code !== 0 && !unbundled) throw new Error(`npm run build${opts.full ? ' -- --full' : ''} failed (exit ${m.code}):\n${output.split('\n').slice(-20).join('\n')}`);
  const buildDir = (await currentBuildDir(opts.readModelDir))!;
  const manifest = JSON.parse(await fs.readFile(path.join(buildDir, 'manifest.json'), 'utf8')) as { timings_ms: Record<string, number> };
  const pagefind = /pagefind (\d+) ms; total/.exec(output)?.[1];
  return {
    wallMs: m.wallMs, cpuMs: m.cpuMs, peakTreeRss: m.peakTreeRss, peakTreeLargest: m.peakTreeLargest,
    stages: { ...manifest.timings_ms, ...(pagefind ? { pagefind: Number(pagefind) } : {}) },
    rendered: Number(/✓ astro .* (\d+) rendered/.exec(output)?.[1] ?? Number.NaN),
    buildDir,
    ...(m.code !== 0 && unbundled ? { error: unbundled } : {}),
  };
}
