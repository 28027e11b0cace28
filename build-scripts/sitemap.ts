/**
 * Reads the site's sitemap from the built output (`sitemap-index.xml` from @astrojs/sitemap, or a
 * plain `sitemap.xml`) and returns the page paths it lists. Every location must be on SITE_URL: a
 * sitemap on another origin means the site was built with a different SITE_URL than the read model.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { BuildError } from './errors.ts';
import { exists } from './files.ts';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function locations(xml: string): string[] {
  return [...xml.matchAll(/<loc>\s*([^<]*?)\s*<\/loc>/g)].map((m) =>
    m[1]!.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => ENTITIES[name]!));
}

function onSite(loc: string, site: URL, file: string): URL {
  let url: URL;
  try { url = new URL(loc); } catch { throw new BuildError('crawl', undefined, `${file} lists "${loc}", not a URL`); }
  if (url.origin !== site.origin) {
    throw new BuildError('crawl', undefined,
      `${file} lists ${loc}, not on SITE_URL ${site.origin} — build the site and the read model with the same SITE_URL`);
  }
  return url;
}

/** Page paths listed by the sitemap, or null when the site has none. */
export async function readSitemap(distDir: string, site: URL): Promise<Set<string> | null> {
  const index = path.join(distDir, 'sitemap-index.xml');
  const single = path.join(distDir, 'sitemap.xml');
  const roots = (await exists(index)) ? [index] : (await exists(single)) ? [single] : [];
  if (roots.length === 0) return null;

  const pages = new Set<string>();
  const seen = new Set<string>();
  const read = async (file: string): Promise<void> => {
    if (seen.has(file)) return;
    seen.add(file);
    const xml = await fs.readFile(file, 'utf8').catch(() => {
      throw new BuildError('crawl', undefined, `sitemap ${path.relative(distDir, file)} is listed but not built`);
    });
    const nested = /<sitemapindex[\s>]/.test(xml);
    for (const loc of locations(xml)) {
      const url = onSite(loc, site, path.relative(distDir, file));
      if (nested) await read(path.join(distDir, ...url.pathname.split('/').filter(Boolean)));
      else pages.add(url.pathname);
    }
  };
  for (const root of roots) await read(root);
  return pages;
}
