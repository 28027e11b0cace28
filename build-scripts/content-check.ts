/**
 * After `astro build`: proof that the site was built from the sources as they are now. Astro keeps
 * its content store between builds and renders a guide again only when the file's digest changed,
 * and the pages are bundled from the store as written on disk: whatever leaves that file behind
 * the sources (a lost write, a cache restored from elsewhere) builds old pages and still exits 0.
 * So each guide must have its entry, with its file's digest, and its page must hold the guide's
 * HTML; the entries of the JSON collections must equal the files' items.
 * Astro renders every page again on each build, so a bundle built from an older store shows in
 * the pages of the guides that changed: only those are read, the others' digests being recorded
 * when their pages were last found right (all are read when there is no record).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import xxhash from 'xxhash-wasm';
import { checkedFile, readContentStore, type ContentStore, type StoreEntry } from './astro-store.ts';
import { renderGuideFile } from '../src/lib/guide-markdown.ts';

export interface StaleContent {
  /** The site path built from it. */
  page: string;
  detail: string;
}

export interface ContentCheckOptions {
  /** The project Astro built (its content store is in node_modules/.astro). */
  root: string;
  /** src/content. */
  contentDir: string;
  /** The built site (dist/client). */
  distDir: string;
}

const GUIDES = 'guides';
/** The page of a guide, as src/pages/guias/[slug].astro names it. */
const guidePage = (id: string) => `/guias/${id}/`;

/** The JSON collections of src/content.config.ts: their entries by id, as the file loader makes them. */
const DATA_COLLECTIONS: readonly { name: string; file: string; page: string; items(json: unknown): [string, unknown][] }[] = [
  { name: 'company', file: 'company.json', page: '/', items: (json) => [['empresa', json]] },
  { name: 'services', file: 'services.json', page: '/servicios/', items: (json) => (json as { id: string }[]).map((s) => [s.id, s]) },
  { name: 'cities', file: 'cities.json', page: '/ciudades/', items: (json) => (json as { id: string }[]).map((c) => [c.id, c]) },
];

/** JSON with keys sorted: the schema may give the keys another order than the file's. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : v));
}

async function guideFiles(dir: string): Promise<string[] | undefined> {
  try {
    return (await fs.readdir(dir)).filter((name) => name.endsWith('.md')).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Pages read at once. */
const READ_AHEAD = 16;

/** The first guide or data entry the built site does not reflect, or null when it reflects them all (then recorded as checked). */
export async function findStaleContent(options: ContentCheckOptions): Promise<StaleContent | null> {
  const guidesDir = path.join(options.contentDir, GUIDES);
  const files = await guideFiles(guidesDir);
  const store = await readContentStore(options.root);
  if (!store) {
    // A project with guides always has a store after `astro build`: not finding it means Astro
    // keeps it elsewhere now, and this check would prove nothing.
    if (files?.length) return { page: guidePage(files[0]!.slice(0, -3)), detail: `Astro's content store is not in ${path.join(options.root, 'node_modules', '.astro')}: the pages cannot be checked against src/content` };
    return null;
  }
  const guides = files ? await staleGuide(options, guidesDir, files, store) : undefined;
  const stale = guides?.stale ?? await staleData(options.contentDir, store);
  if (!stale && guides?.digests) await fs.writeFile(checkedFile(options.root), JSON.stringify(guides.digests));
  return stale;
}

/** The first stale guide, else the guides' digests, to be recorded as checked. */
async function staleGuide(options: ContentCheckOptions, dir: string, files: string[], store: ContentStore): Promise<{ stale?: StaleContent; digests?: Record<string, string> }> {
  const { h64ToString } = await xxhash();
  const byFile = new Map<string, StoreEntry>();
  for (const entry of store.get(GUIDES)?.values() ?? []) if (entry.filePath) byFile.set(path.basename(entry.filePath), entry);
  const source = (name: string) => path.relative(options.root, path.join(dir, name));
  const checked = await readChecked(options.root);
  const toRead: [string, StoreEntry][] = [];
  for (const name of files) {
    const entry = byFile.get(name);
    if (!entry) return { stale: { page: guidePage(name.slice(0, -3)), detail: `${source(name)} is not in Astro's content store` } };
    byFile.delete(name);
    // Astro's glob loader digests the file's whole text with xxhash64.
    const digest = h64ToString(await fs.readFile(path.join(dir, name), 'utf8'));
    if (entry.digest !== digest) {
      return { stale: { page: guidePage(entry.id), detail: `Astro's content store holds an older ${source(name)} (digest ${entry.digest}, the file's is ${digest})` } };
    }
    if (checked?.[entry.id] !== digest) toRead.push([name, entry]);
  }
  for (const entry of byFile.values()) {
    return { stale: { page: guidePage(entry.id), detail: `Astro's content store still holds ${entry.filePath}, which is gone` } };
  }
  for (let i = 0; i < toRead.length; i += READ_AHEAD) {
    const found = await Promise.all(toRead.slice(i, i + READ_AHEAD).map(async ([name, entry]) => {
      const html = await fs.readFile(path.join(options.distDir, 'guias', entry.id, 'index.html'), 'utf8').catch(() => undefined);
      if (html === undefined) return { page: guidePage(entry.id), detail: `${source(name)} has no built page` };
      return html.includes(await expectedHtml(options.root, entry)) ? null
        : { page: guidePage(entry.id), detail: `the built page does not hold ${source(name)} as it renders` };
    }));
    const stale = found.find((f) => f !== null);
    if (stale) return { stale };
  }
  return { digests: Object.fromEntries([...store.get(GUIDES)?.values() ?? []].map((e) => [e.id, e.digest!])) };
}

/**
 * What a guide's page must hold: the HTML Astro's loader rendered into the store, or, as the site's
 * loader keeps none (src/lib/guides-loader.ts), the file rendered as its page renders it.
 */
async function expectedHtml(root: string, entry: StoreEntry): Promise<string> {
  if (entry.rendered?.html !== undefined) return entry.rendered.html;
  return entry.filePath ? renderGuideFile(entry.filePath, root) : '\0';
}

async function readChecked(root: string): Promise<Record<string, string> | undefined> {
  try {
    return JSON.parse(await fs.readFile(checkedFile(root), 'utf8')) as Record<string, string>;
  } catch {
    return undefined; // none yet, or unreadable: every page is read
  }
}

async function staleData(contentDir: string, store: ContentStore): Promise<StaleContent | null> {
  for (const collection of DATA_COLLECTIONS) {
    const text = await fs.readFile(path.join(contentDir, collection.file), 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    const entries = store.get(collection.name) ?? new Map<string, StoreEntry>();
    const items = collection.items(JSON.parse(text));
    for (const [id, item] of items) {
      const entry = entries.get(id);
      if (!entry || canonical(entry.data) !== canonical(item)) {
        return { page: collection.page, detail: `Astro's content store ${entry ? 'holds an older' : 'lacks the'} entry ${id} of src/content/${collection.file}` };
      }
    }
    if (entries.size !== items.length) {
      return { page: collection.page, detail: `Astro's content store holds ${entries.size} entries of src/content/${collection.file}, which has ${items.length}` };
    }
  }
  return null;
}
