/**
 * Astro's own content store (its MutableDataStore, from the installed package) for tests that
 * need a store exactly as `astro build` writes one. The class is not among Astro's exports:
 * it is loaded from its file, and a test fails here first when Astro moves it.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../../server/config.ts';

export interface AstroEntry {
  id: string;
  data: Record<string, unknown>;
  body?: string;
  filePath?: string;
  digest?: string;
  rendered?: { html: string; metadata?: Record<string, unknown> };
}

export interface AstroStore {
  scopedStore(collection: string): { set(entry: AstroEntry): boolean; delete(id: string): void };
  metaStore(): { set(key: string, value: string): void };
  writeToDisk(): Promise<void>;
  waitUntilSaveComplete(): Promise<void>;
}

interface AstroStoreClass {
  fromFile(file: URL): Promise<AstroStore>;
  fromDir(dir: URL, chunkSize: number, logger: { warn(...args: unknown[]): void }): Promise<AstroStore>;
}

/** The installed Astro's MutableDataStore. */
export async function astroStoreClass(): Promise<AstroStoreClass> {
  const file = path.join(ROOT, 'node_modules', 'astro', 'dist', 'content', 'mutable-data-store.js');
  const mod = await import(pathToFileURL(file).href) as { MutableDataStore: AstroStoreClass };
  return mod.MutableDataStore;
}

/** The store file `astro build` writes in the project at `root` (single-file storage). */
export const storeFile = (root: string) => pathToFileURL(path.join(root, 'node_modules', '.astro', 'data-store.json'));
/** The folder `experimental.collectionStorage: 'chunked'` writes instead (a trailing slash: a URL base). */
export const storeDir = (root: string) => pathToFileURL(path.join(root, 'node_modules', '.astro', 'data-store') + '/');
