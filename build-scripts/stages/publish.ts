/**
 * Publish: the staged build becomes `builds/<id>` (one rename), the manifest is checked, then
 * `current` is switched to it (write-temp + rename, last). Old builds are pruned afterwards:
 * the newest KEEP_BUILDS stay, and never the current one or the one just replaced, which a
 * running server may still be reading.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ManifestSchema, type Manifest } from '../../formats/schemas/read-model.ts';
import { BUILDS_DIR, buildPath, readPointer, writePointer } from '../../formats/read-model/pointer.ts';
import type { BuildContext } from '../context.ts';
import { pruneNewest, writeJson, readJson } from '../files.ts';

export const STAGE = 'publish';
export const KEEP_BUILDS = 3;
/** Built once: `.strict()` returns a new schema, which zod compiles on its first use. */
const StrictManifest = ManifestSchema.strict();

export interface PublishResult {
  buildDir: string;
  previous: string | null;
  removed: string[];
}

export async function publish(ctx: BuildContext, manifest: Manifest): Promise<PublishResult> {
  const parsed = StrictManifest.parse(manifest);
  const manifestFile = path.join(ctx.stagingDir, 'manifest.json');
  await writeJson(manifestFile, parsed);
  StrictManifest.parse(await readJson(manifestFile));

  const buildDir = buildPath(ctx.outDir, ctx.buildId);
  await fs.rename(ctx.stagingDir, buildDir);
  const previous = await readPointer(ctx.outDir).catch(() => null);
  await writePointer(ctx.outDir, ctx.buildId);
  // The new model is live from here on: a failed clean-up is worth a warning, not a failed build.
  const removed = await prune(ctx.outDir, [ctx.buildId, previous]).catch((err: unknown) => {
    ctx.warn(`could not remove old builds: ${err instanceof Error ? err.message : String(err)}`);
    return [];
  });
  return { buildDir, previous, removed };
}

/** Removes builds beyond the newest KEEP_BUILDS, sparing `protect`, and stale staging folders. */
export const prune = (outDir: string, protect: (string | null)[]): Promise<string[]> =>
  pruneNewest(path.join(outDir, BUILDS_DIR), KEEP_BUILDS, protect);
