/**
 * Astro's content store, as `astro build` leaves it in its cache folder: one devalue file
 * (`data-store.json`), or a folder of chunks named by a manifest (`experimental.collectionStorage`).
 * The build reads it to check the site against the sources (content-check.ts) and removes it to
 * make Astro load and render every entry again.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import * as devalue from 'devalue';
import { readIfExists } from './files.ts';

/** One entry as Astro's loaders store it: `digest` and `rendered` only where the loader keeps them. */
export interface StoreEntry {
  id: string;
  data: unknown;
  filePath?: string;
  digest?: string;
  rendered?: { html: string };
}

export type ContentStore = Map<string, Map<string, StoreEntry>>;

/** Astro's default `cacheDir`, which the project keeps. */
export const cacheDir = (root: string) => path.join(root, 'node_modules', '.astro');
const singleFile = (root: string) => path.join(cacheDir(root), 'data-store.json');
const chunkDir = (root: string) => path.join(cacheDir(root), 'data-store');
/** The guides' digests as their pages were last found to hold them (content-check.ts). */
export const checkedFile = (root: string) => path.join(cacheDir(root), 'agentes-checked.json');

const readIfThere = async (file: string): Promise<string | undefined> => (await readIfExists(file))?.toString('utf8');

/** The store of the project at `root`, or undefined when it has none. */
export async function readContentStore(root: string): Promise<ContentStore | undefined> {
  const manifest = await readIfThere(path.join(chunkDir(root), 'manifest.json'));
  if (manifest !== undefined) return readChunks(root, JSON.parse(manifest) as Record<string, string[]>);
  const text = await readIfThere(singleFile(root));
  return text === undefined ? undefined : devalue.parse(text) as ContentStore;
}

/** Each collection's chunks, joined, are lines of `[id, entry]`; a line may span two chunks. */
async function readChunks(root: string, manifest: Record<string, string[]>): Promise<ContentStore> {
  const store: ContentStore = new Map();
  for (const [collection, files] of Object.entries(manifest)) {
    const entries = new Map<string, StoreEntry>();
    let rest = '';
    for (const file of files) {
      const lines = (rest + await fs.readFile(path.join(chunkDir(root), file), 'utf8')).split('\n');
      rest = lines.pop()!;
      for (const line of lines) {
        const [id, entry] = devalue.parse(line) as [string, StoreEntry];
        entries.set(id, entry);
      }
    }
    if (rest) throw new Error(`${chunkDir(root)}: collection ${collection} ends inside an entry`);
    store.set(collection, entries);
  }
  return store;
}

/**
 * Removes the store in either form, and what was checked of it: Astro's next build starts from
 * the sources alone. Whether there was a store to remove.
 */
export async function clearContentStore(root: string): Promise<boolean> {
  const existed = (await Promise.all([singleFile(root), chunkDir(root)].map((p) => fs.stat(p).then(() => true, () => false)))).some(Boolean);
  await fs.rm(checkedFile(root), { force: true });
  await fs.rm(singleFile(root), { force: true });
  await fs.rm(chunkDir(root), { recursive: true, force: true });
  return existed;
}
