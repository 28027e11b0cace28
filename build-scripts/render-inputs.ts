/**
 * Astro renders a guide's Markdown again only when the file's digest, the content config or
 * Astro's config as JSON changed, and reuses a page while its cacheKey and code are unchanged. The
 * Markdown plugins are functions, which that JSON drops, and no page imports them: a changed
 * plugin (or a changed remark/rehype package) leaves every guide's cached HTML and page as they
 * were. So the build keys Astro's caches on what the Markdown goes through as well, and removes
 * them when that changed. Plugins live in src/lib/{remark,rehype}-*.ts (astro.config.mjs).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { checkedFile } from './astro-store.ts';
import { clearAstroCaches } from './incremental-cache.ts';

const FILES = ['astro.config.mjs', 'package-lock.json'];
const PLUGINS = /^(remark|rehype)-.*\.[cm]?[jt]s$/;

/** Where the digest of the inputs the cache was made with is kept, beside Astro's store. */
const recordFile = (root: string) => path.join(path.dirname(checkedFile(root)), 'agentes-render-inputs');

/** A digest of every file the Markdown's rendering depends on beyond Astro's own cache keys. */
export async function renderInputsDigest(root: string): Promise<string> {
  const lib = path.join(root, 'src', 'lib');
  const plugins = (await fs.readdir(lib).catch(() => [] as string[])).filter((n) => PLUGINS.test(n)).map((n) => path.join('src', 'lib', n));
  const hash = createHash('sha256');
  for (const rel of [...FILES, ...plugins].sort()) {
    const text = await fs.readFile(path.join(root, rel)).catch(() => undefined);
    if (text) hash.update(`${rel}\0${text.length}\0`).update(text);
  }
  return hash.digest('hex');
}

/**
 * Removes Astro's caches unless they were made with the Markdown's inputs as they are now; says
 * why when it removed one.
 */
export async function clearCacheIfInputsChanged(root: string): Promise<string | null> {
  const digest = await renderInputsDigest(root);
  const recorded = await fs.readFile(recordFile(root), 'utf8').catch(() => undefined);
  if (recorded === digest) return null;
  const existed = await clearAstroCaches(root);
  await fs.mkdir(path.dirname(recordFile(root)), { recursive: true });
  await fs.writeFile(recordFile(root), digest);
  if (!existed) return null;
  return recorded === undefined ? 'it was made with Markdown inputs not on record' : `the Markdown's inputs changed (${[...FILES, 'src/lib/{remark,rehype}-*'].join(', ')})`;
}
