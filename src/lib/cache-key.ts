/**
 * The `cacheKey` each page of a `getStaticPaths` route returns (experimental.incrementalBuild):
 * Astro reuses the page's last HTML while its key and its modules' code are unchanged. Astro hashes
 * the code the page imports but not the content it reads, so a key holds every piece of content
 * the page shows, and whatever else changes its bytes without changing code.
 */
import { createHash } from 'node:crypto';
import { copyrightYear, listedGuides, loadSite, nearbyGuides, type Guide, type SiteData } from './site.ts';

/** The parts' SHA-256, each part ended so that no two lists of parts run together alike. */
export function pageKey(...parts: string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(`${part.length}:`).update(part);
  return hash.digest('hex');
}

/**
 * What every page shows or is addressed by: the site's address (canonical links, JSON-LD), the
 * company, every service and city (header, footer and asides list them all) and the footer's year.
 */
export function siteKey(site: SiteData): string {
  return pageKey(import.meta.env.SITE ?? '', String(copyrightYear()), JSON.stringify([site.company, site.services, site.cities]));
}

/** A guide on its own page: its file's digest (frontmatter and body) as Astro's loader took it. */
export function guideKey(guide: Guide): string {
  return guide.digest === undefined ? pageKey(JSON.stringify(guide.data), guide.body ?? '') : String(guide.digest);
}

/** Guides as other pages list them, in order: ids and frontmatter; a guide's body is on its own page only. */
export function listedGuidesKey(guides: readonly Guide[]): string {
  return pageKey(...guides.map((g) => `${g.id}\n${JSON.stringify(g.data)}`));
}

export interface CacheKeys {
  site: string;
  /** The guides a service's pages list (site.ts `listedGuides`). */
  serviceGuides(serviceId: string): string;
  /** The guides a guide's page lists (site.ts `nearbyGuides`). */
  nearbyGuides(guide: Guide): string;
}

let cached: Promise<CacheKeys> | undefined;

/** The keys shared by many pages, made once per build: a site of many guides lists each in hundreds of pages. */
export function cacheKeys(): Promise<CacheKeys> {
  cached ??= loadSite().then((site) => {
    const byService = new Map<string, string>();
    return {
      site: siteKey(site),
      serviceGuides: (id) => {
        let key = byService.get(id);
        if (key === undefined) {
          const { shown, more } = listedGuides(id, site.guides);
          byService.set(id, key = pageKey(listedGuidesKey(shown), String(more)));
        }
        return key;
      },
      nearbyGuides: (guide) => listedGuidesKey(nearbyGuides(guide, site.guides)),
    };
  });
  return cached;
}
