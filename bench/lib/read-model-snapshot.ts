/**
 * A private copy of the current read-model build for a benchmark's servers, so a build published
 * meanwhile does not swap it mid-run, and the pages that make its long and short reads.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseConfig } from '../../server/config.ts';
import { buildPath, readPointer } from '../../formats/read-model/pointer.ts';

/** The id of the build `readModel` (default: the sample site's READ_MODEL_DIR) points to; throws when there is none. */
export async function currentBuildId(readModel = parseConfig().readModelDir): Promise<string> {
  const id = await readPointer(readModel);
  if (id === null) throw new Error(`no read model in ${readModel}: run \`npm run build\` first`);
  return id;
}

/** Copies the current read-model build, so a build published meanwhile does not swap it mid-run. */
export async function snapshotReadModel(dir: string): Promise<{ dir: string; pagesDir: string }> {
  const source = parseConfig().readModelDir;
  const id = await currentBuildId(source);
  await fs.cp(buildPath(source, id), buildPath(dir, id), { recursive: true });
  await fs.writeFile(path.join(dir, 'current'), JSON.stringify({ build_id: id }) + '\n');
  return { dir, pagesDir: path.join(buildPath(dir, id), 'pages') };
}

/** Slugs of the longest and shortest pages (by their read-model JSON). */
export async function longAndShort(pagesDir: string): Promise<{ longSlug: string; shortSlug: string }> {
  const files = await fs.readdir(pagesDir);
  const sized = await Promise.all(files.map(async (f) => ({ slug: f.replace(/\.json$/, ''), size: (await fs.stat(path.join(pagesDir, f))).size })));
  sized.sort((a, b) => a.size - b.size || (a.slug < b.slug ? -1 : 1));
  return { longSlug: sized[sized.length - 1]!.slug, shortSlug: sized[0]!.slug };
}
