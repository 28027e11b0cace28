/**
 * Astro's incremental build cache (experimental.incrementalBuild): a manifest of the pages it may
 * reuse, with their cacheKeys, and a copy of each such page it restores instead of rendering.
 * Astro trusts both as it finds them: a copy that lost bytes is published as it is. So after each
 * build that passed its checks the size of every copy is recorded, and a cache that no longer
 * matches that record (or any cache made outside this build) is removed before Astro reads it.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { cacheDir, clearContentStore } from './astro-store.ts';
import { readIfExists } from './files.ts';

const manifestFile = (root: string) => path.join(cacheDir(root), 'incremental-build.json');
/** Where Astro keeps its copies, by their paths in the built output. */
const copiesDir = (root: string) => path.join(cacheDir(root), 'dist');
const recordFile = (root: string) => path.join(cacheDir(root), 'agentes-incremental.json');

interface Manifest {
  routes: Record<string, { paths: Record<string, { outputFile: string }> }>;
}

/** What a build that passed its checks left: the manifest's digest and each copy's size. */
interface CacheRecord {
  manifest: string;
  sizes: Record<string, number>;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function outputFiles(manifest: Manifest): string[] {
  return Object.values(manifest.routes).flatMap((route) => Object.values(route.paths).map((p) => p.outputFile));
}

function parseManifest(bytes: Buffer): Manifest | undefined {
  try {
    const manifest = JSON.parse(bytes.toString('utf8')) as Manifest;
    outputFiles(manifest).forEach((file) => { if (typeof file !== 'string') throw new TypeError(); });
    return manifest;
  } catch {
    return undefined;
  }
}

async function sizeOf(file: string): Promise<number | undefined> {
  return fs.stat(file).then((s) => s.size, () => undefined);
}

/**
 * Why the cache cannot be used as it is (then every page is rendered), or null when it can.
 * `missing` is true when there is simply none yet.
 */
export async function incrementalCacheProblem(root: string): Promise<{ reason: string; missing: boolean } | null> {
  const bytes = await readIfExists(manifestFile(root));
  if (bytes === undefined) return { reason: 'no incremental cache yet', missing: true };
  const manifest = parseManifest(bytes);
  if (!manifest) return { reason: 'the incremental cache\'s manifest is damaged', missing: false };
  const record = await readIfExists(recordFile(root)).then((b) => b && JSON.parse(b.toString('utf8')) as CacheRecord).catch(() => undefined);
  if (!record || record.manifest !== sha256(bytes)) return { reason: 'the incremental cache is not the one the last build checked', missing: false };
  for (const file of outputFiles(manifest)) {
    const size = await sizeOf(path.join(copiesDir(root), file));
    if (size === undefined) return { reason: `the incremental cache lost its copy of ${file}`, missing: false };
    if (size !== record.sizes[file]) return { reason: `the incremental cache's copy of ${file} changed since it was written`, missing: false };
  }
  return null;
}

/** Records the cache Astro just wrote, once the site it built has passed its checks. */
export async function recordIncrementalCache(root: string): Promise<void> {
  const bytes = await readIfExists(manifestFile(root));
  const manifest = bytes && parseManifest(bytes);
  if (!bytes || !manifest) {
    await fs.rm(recordFile(root), { force: true });
    return;
  }
  const sizes: Record<string, number> = {};
  for (const file of outputFiles(manifest)) {
    const size = await sizeOf(path.join(copiesDir(root), file));
    if (size !== undefined) sizes[file] = size;
  }
  await fs.writeFile(recordFile(root), JSON.stringify({ manifest: sha256(bytes), sizes } satisfies CacheRecord));
}

/** Removes the incremental cache: Astro renders every page on its next build. Whether there was one. */
export async function clearIncrementalCache(root: string): Promise<boolean> {
  const existed = (await sizeOf(manifestFile(root))) !== undefined;
  await fs.rm(recordFile(root), { force: true });
  await fs.rm(manifestFile(root), { force: true });
  await fs.rm(copiesDir(root), { recursive: true, force: true });
  return existed;
}

/** Removes both of Astro's caches: its next build loads every entry and renders every page. Whether there was either. */
export async function clearAstroCaches(root: string): Promise<boolean> {
  const [store, pages] = await Promise.all([clearContentStore(root), clearIncrementalCache(root)]);
  return store || pages;
}
