/**
 * Site: the built static site (with its precompressed siblings) is copied into the staged build
 * as `site/`, so the HTML is published with the read model by the same pointer switch. Running
 * servers serve the site of the model they hold; `astro build` rewriting `dist/` in place never
 * reaches them.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { BuildContext } from '../context.ts';
import { listFiles } from '../files.ts';

export const STAGE = 'site';
export const SITE_DIR = 'site';

export async function copySite(ctx: BuildContext): Promise<{ files: number }> {
  const target = path.join(ctx.stagingDir, SITE_DIR);
  await fs.cp(ctx.distDir, target, { recursive: true, errorOnExist: true, force: false });
  return { files: (await listFiles(target)).length };
}
