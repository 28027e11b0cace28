/**
 * The search index of one read-model build: Pagefind's bundle plus the sidecar the in-Node
 * runtime needs (server/search/sidecar.ts describes both).
 *
 * Pages go in with `addCustomRecord`, not `addHTMLFile`: the read model already holds each
 * page's main content, and indexing its plain text keeps the words Pagefind locates identical
 * to the words excerpts are cut from (`text.split(' ')`), with no menus or markup to exclude.
 * The title goes in as `meta.title`, which Pagefind 1.6 also ranks (a title match outweighs a
 * body mention), so the heading weighting `addHTMLFile` would add is not lost.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import * as pagefind from 'pagefind';
import type { ReadModelPage } from '../../server/schemas/read-model.ts';
import { markdownToText } from '../../server/search/plain-text.ts';
import { PAGEFIND_DIR, SIDECAR_FILE, SIDECAR_FORMAT, type Sidecar } from '../../server/search/sidecar.ts';
import { words } from '../../server/search/text.ts';

/** Files Pagefind writes for browsers (UI, highlighting, worker); the Node runtime needs none. */
const BROWSER_ONLY = [
  'pagefind-ui.js', 'pagefind-ui.css', 'pagefind-modular-ui.js', 'pagefind-modular-ui.css',
  'pagefind-component-ui.js', 'pagefind-component-ui.css', 'pagefind-highlight.js', 'pagefind-worker.js',
];

/** The text indexed for a page: its description (when the body does not already say it), then the body. */
export function indexedText(page: Pick<ReadModelPage, 'description' | 'markdown'>): string {
  const body = markdownToText(page.markdown);
  const description = page.description.replace(/\s+/g, ' ').trim();
  return description === '' || body.includes(description) ? body : `${description} ${body}`;
}

/** Records in flight to Pagefind at once. */
const RECORD_WINDOW = 64;

function fail(what: string, errors: string[]): never {
  throw new Error(`pagefind ${what}: ${errors.join('; ')}`);
}

/** Pagefind page id → record URL, read back from the fragments it wrote (single or grouped). */
async function fragmentUrls(bundle: string): Promise<Map<string, string>> {
  const dir = path.join(bundle, 'fragment');
  const out = new Map<string, string>();
  for (const name of await fs.readdir(dir)) {
    if (!name.endsWith('.pf_fragment')) continue;
    let data = gunzipSync(await fs.readFile(path.join(dir, name)));
    const signature = data.subarray(0, 12).toString();
    if (signature !== 'pagefind_dcd') throw new Error(`unexpected fragment format in ${name}`);
    data = data.subarray(12);
    const json = JSON.parse(data.toString('utf8')) as { url?: string } | Record<string, { url: string }>;
    if (typeof json.url === 'string') out.set(name.slice(0, -'.pf_fragment'.length), json.url);
    else for (const [id, fragment] of Object.entries(json as Record<string, { url: string }>)) out.set(id, fragment.url);
  }
  return out;
}

export async function buildSearchIndex(opts: { pages: ReadModelPage[]; outDir: string; siteUrl: string }): Promise<{ indexed: number }> {
  const { pages, outDir, siteUrl } = opts;
  const bundle = path.join(outDir, PAGEFIND_DIR);
  await fs.rm(outDir, { recursive: true, force: true });
  await fs.mkdir(outDir, { recursive: true });

  const texts = new Map<string, string>();
  const df = new Map<string, number>();
  for (const page of pages) {
    const text = indexedText(page);
    texts.set(page.path, text);
    for (const w of new Set(words(`${page.title} ${text}`))) df.set(w, (df.get(w) ?? 0) + 1);
  }

  const created = await pagefind.createIndex({ forceLanguage: 'es' });
  if (!created.index) fail('createIndex', created.errors);
  const index = created.index;
  try {
    // Records go to Pagefind's process in order, a window at a time: awaiting each reply before
    // sending the next made the stage a chain of round trips (most of its time on 10,000 pages).
    for (let i = 0; i < pages.length; i += RECORD_WINDOW) {
      const batch = pages.slice(i, i + RECORD_WINDOW);
      const added = await Promise.all(batch.map((page) => index.addCustomRecord({
        url: page.path,
        content: texts.get(page.path)!,
        language: 'es',
        meta: { title: page.title },
        filters: page.city ? { city: [page.city] } : {},
      })));
      added.forEach((a, k) => { if (a.errors.length) fail(`addCustomRecord ${batch[k]!.path}`, a.errors); });
    }
    const written = await index.writeFiles({ outputPath: bundle });
    if (written.errors.length) fail('writeFiles', written.errors);
  } finally {
    await index.deleteIndex().catch(() => null);
    await pagefind.close();
  }
  await Promise.all(BROWSER_ONLY.map((f) => fs.rm(path.join(bundle, f), { force: true })));

  const ids = await fragmentUrls(bundle);
  const sidecar: Sidecar = {
    format: SIDECAR_FORMAT,
    site_url: siteUrl,
    cursor_key: randomBytes(32).toString('base64url'),
    pages: [...ids].map(([id, url]) => {
      const text = texts.get(url);
      if (text === undefined) throw new Error(`pagefind returned a page that was not added: ${url}`);
      return { id, path: url, text };
    }).sort((a, b) => (a.path < b.path ? -1 : 1)),
    vocabulary: [...df].sort((a, b) => (a[0] < b[0] ? -1 : 1)),
  };
  await fs.writeFile(path.join(outDir, SIDECAR_FILE), JSON.stringify(sidecar));
  return { indexed: sidecar.pages.length };
}
