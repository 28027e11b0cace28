/**
 * `npm run build`: builds the Astro site, then the read model (see pipeline.ts), printing
 * progress and a summary. On failure it prints one line naming the stage and page, and exits 1;
 * the published read model is left as it was.
 *
 * Environment: SITE_URL (canonical origin), DIST_DIR, READ_MODEL_DIR (see formats/settings.ts).
 * `--skip-astro` reuses the site already in dist/client; `--full` reuses nothing from earlier
 * builds: Astro renders every page, and every page is read and every file compressed afresh.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BuildError, messageOf } from './errors.ts';
import { buildReadModel, type BuildResult } from './pipeline.ts';
import { createReporter } from './progress.ts';

export { buildReadModel, type BuildOptions, type BuildResult } from './pipeline.ts';
export { BuildError } from './errors.ts';

export function summary(result: BuildResult): string[] {
  const { counts } = result.manifest;
  const mb = (result.peakRssBytes / 1024 / 1024).toFixed(0);
  return [
    `read model ${result.buildId} published (${path.relative(process.cwd(), result.buildDir) || result.buildDir})`,
    `  pages ${counts.pages} (services ${counts.services}, cities ${counts.cities}, guides ${counts.guides}), company sections ${counts.company_sections}`,
    `  time ${Object.entries(result.timings).map(([stage, ms]) => `${stage} ${ms} ms`).join(', ')}; total ${(result.totalMs / 1000).toFixed(1)} s`,
    `  peak RSS ${mb} MB${result.warnings.length ? `; ${result.warnings.length} warning(s) above` : ''}`,
  ];
}

async function main(argv: string[]): Promise<number> {
  const reporter = createReporter();
  try {
    const result = await buildReadModel({
      skipAstro: argv.includes('--skip-astro'),
      full: argv.includes('--full'),
      log: reporter.log,
      progress: reporter.progress,
    });
    reporter.done();
    for (const line of summary(result)) process.stdout.write(line + '\n');
    if (result.bundleError) {
      process.stderr.write(result.bundleError + '\n');
      return 1;
    }
    return 0;
  } catch (err) {
    reporter.done();
    const line = err instanceof BuildError ? err.message : `build failed: ${messageOf(err)}`;
    process.stderr.write(line.split('\n')[0] + '\n');
    if (process.env.DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
