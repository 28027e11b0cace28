/**
 * The sample site and its read model, built once per test process: when `dist/client` or a
 * read model of this code's format is missing, runs the real build (`astro build` only when the site itself is
 * missing) with the default directories and SITE_URL (SITE_URL, else http://localhost:$PORT,
 * server/config.ts). A site built for another SITE_URL (an earlier `SITE_URL=… npm start` or
 * `npm run build`) is built again, whole: its pages carry that address, and the tests compare
 * them with documents made for theirs.
 * Returns the folder of the current read-model build.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildReadModel } from '../../build-scripts/build.ts';
import { parseConfig, type Config } from '../../server/config.ts';
import { readModelUsable } from '../../server/ensure-built.ts';
import { currentBuildDir } from '../../formats/read-model/pointer.ts';
import { refuseInUnitTier } from '../tiers.ts';

/** What a test process must build before it reads the sample site: nothing, the read model, or both. */
export async function toBuild(config: Pick<Config, 'distDir' | 'readModelDir' | 'siteUrl'>): Promise<'nothing' | 'read model' | 'site'> {
  const siteBuilt = fs.existsSync(path.join(config.distDir, 'client', 'index.html'));
  const current = await currentBuildDir(config.readModelDir);
  if (!siteBuilt || !current) return siteBuilt ? 'read model' : 'site';
  // The read model is made from the site and records the SITE_URL both were built for.
  const built = builtFor(current);
  if (built !== null && built !== config.siteUrl) return 'site';
  return readModelUsable(config.readModelDir) ? 'nothing' : 'read model';
}

function builtFor(buildDir: string): string | null {
  try {
    return (JSON.parse(fs.readFileSync(path.join(buildDir, 'manifest.json'), 'utf8')) as { site_url?: string }).site_url ?? null;
  } catch {
    return null;
  }
}

let pending: Promise<string> | undefined;

async function ensure(): Promise<string> {
  const config = parseConfig();
  const missing = await toBuild(config);
  if (missing === 'nothing') return (await currentBuildDir(config.readModelDir))!;
  process.stderr.write(`built-site: building ${missing === 'site' ? `the site and read model for ${config.siteUrl}` : 'the read model'} (once)…\n`);
  const result = await buildReadModel({ skipAstro: missing === 'read model', log: () => {} });
  return result.buildDir;
}

export function builtReadModel(): Promise<string> {
  refuseInUnitTier('The built sample site');
  pending ??= ensure();
  return pending;
}

/** Static files of the built site (Astro's dist/client). */
export function builtSiteDir(): string {
  return path.join(parseConfig().distDir, 'client');
}
