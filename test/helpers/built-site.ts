/**
 * The sample site and its read model, built once per test process: when `dist/client` or a
 * read model of this code's format is missing, runs the real build (`astro build` only when the site itself is
 * missing) with the default directories and SITE_URL (http://localhost:4321 unless set).
 * Returns the folder of the current read-model build.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildReadModel } from '../../build-scripts/build.ts';
import { parseConfig } from '../../server/config.ts';
import { readModelUsable } from '../../server/ensure-built.ts';
import { currentBuildDir } from '../../server/read-model/pointer.ts';

let pending: Promise<string> | undefined;

async function ensure(): Promise<string> {
  const config = parseConfig();
  const siteBuilt = fs.existsSync(path.join(config.distDir, 'client', 'index.html'));
  const current = await currentBuildDir(config.readModelDir);
  if (siteBuilt && current && readModelUsable(config.readModelDir)) return current;
  process.stderr.write(`built-site: ${siteBuilt ? 'building the read model' : 'building the site and read model'} (once)…\n`);
  const result = await buildReadModel({ skipAstro: siteBuilt, log: () => {} });
  return result.buildDir;
}

export function builtReadModel(): Promise<string> {
  pending ??= ensure();
  return pending;
}

/** Static files of the built site (Astro's dist/client). */
export function builtSiteDir(): string {
  return path.join(parseConfig().distDir, 'client');
}
