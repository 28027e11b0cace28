/**
 * Crawl: walks the built site from its entry points — the home page by links, then the sitemap —
 * and returns every published page with what extraction needs from it (extract.ts `readFacts`)
 * and its Markdown (left in the build's spill, text-spill.ts), which the pages stage uses once
 * extraction has accepted the page. Pages are read by the build's worker threads
 * (tasks/page-read.ts: one parse per page, the tree dropped after); several are read at once, but
 * their results are taken in the order a one-at-a-time walk would visit them, so warnings, the
 * first broken link and the published pages do not depend on timing. Of each page only what the
 * end of the walk still needs is kept: its element ids and the links that name an anchor.
 *
 * - A link to a path of this site that is neither a built page, a built file, nor a route the
 *   server answers itself fails the build, naming the page that holds it.
 * - Pages the sitemap lists or the output holds but no link reaches are reported as a warning.
 *   Sitemap pages are still published; pages only in the output (no link, not in the sitemap) are not.
 * - `<meta http-equiv="refresh">` pages (Astro redirects) are followed, not published.
 */
import path from 'node:path';
import type { BuildContext, CrawledPage } from '../context.ts';
import { BuildError, forPage } from '../errors.ts';
import { listFiles } from '../files.ts';
import { byPath } from '../page-index.ts';
import type { PageRead } from '../tasks/page-read.ts';
import { readSitemap } from '../sitemap.ts';
import { SEARCH_PAGE_PATH } from '../../formats/search-page.ts';

export const STAGE = 'crawl';

/**
 * Paths the server answers at run time (API, OAuth, discovery, MCP): links to them cannot be
 * checked against the static output. Kept in step with the server's routes by the contract.
 */
export const SERVER_PATHS: readonly RegExp[] = [
  /^\/wp-json\//, /^\/oauth\//, /^\/\.well-known\//, /^\/mcp(?:\/|$)/, /^\/agent\/identity$/,
  /^\/openapi\.json$/, /^\/agents\.md$/, /^\/auth\.md$/, /^\/api\/sandbox\/?$/,
  new RegExp(`^${SEARCH_PAGE_PATH.slice(0, -1)}/?$`),
];

/**
 * Built pages that are the server's to fill per request (the search results' shell): never
 * crawled, so never published; links to them are links to a server route.
 */
const SHELLS: ReadonlySet<string> = new Set([SEARCH_PAGE_PATH]);

export interface CrawlResult {
  pages: CrawledPage[];
  /** Published pages no link from the home page reaches (already reported as a warning). */
  unlinked: string[];
  /** The cache entries this build's pages use, and how many pages were read from the cache, or again in place of an unreadable entry. */
  cache: { keys: Set<string>; hits: number; damaged: number };
}

interface Link {
  href: string;
  /** Target page path, or null for a built file or a server route (nothing to crawl). */
  page: string | null;
  fragment: string;
}

/** Pages being read ahead of the one the walk takes next, per worker. */
const READ_AHEAD = 8;

interface Visited {
  page: CrawledPage;
  ids: Set<string>;
  /** Its links that name an anchor, checked once the walk is done; the others are only followed. */
  anchored: Link[];
  redirect: string | null;
}

/** `dist/client/a/b/index.html` → `/a/b/`. */
function pagePathOf(distDir: string, file: string): string {
  const rel = path.relative(distDir, path.dirname(file)).split(path.sep).filter(Boolean).join('/');
  return rel ? `/${rel}/` : '/';
}

function pageFile(distDir: string, pagePath: string): string {
  return path.join(distDir, ...pagePath.split('/').filter(Boolean), 'index.html');
}

/** URLs carry paths percent-encoded; the output folder names are the decoded form. */
function decode(s: string): string {
  try { return decodeURIComponent(s); } catch { return s; }
}

export async function crawl(ctx: BuildContext): Promise<CrawlResult> {
  const site = new URL(ctx.siteUrl);
  const files = listFiles(ctx.distDir, ctx.siteEntries());
  const output = new Set(files.filter((f) => path.basename(f) === 'index.html').map((f) => pagePathOf(ctx.distDir, f)).filter((p) => !SHELLS.has(p)));
  if (!output.has('/')) throw new BuildError(STAGE, '/', `no home page: ${path.join(ctx.distDir, 'index.html')} does not exist — was the site built?`);
  const builtFiles = new Set(files.map((f) => '/' + path.relative(ctx.distDir, f).split(path.sep).join('/')));

  const sitemap = await readSitemap(ctx.distDir, site);
  if (sitemap === null) ctx.warn('no sitemap (sitemap-index.xml or sitemap.xml) in the built site: crawling from / only');
  /** A built page's path for `p`, accepting a missing trailing slash (`/precios` → `/precios/`). */
  const builtPage = (p: string): string | null =>
    output.has(p) ? p : !p.endsWith('/') && output.has(`${p}/`) ? `${p}/` : null;
  const sitemapPages: string[] = [];
  for (const p of sitemap ?? []) {
    const page = builtPage(decode(p));
    if (page === null) throw new BuildError(STAGE, p, 'listed in the sitemap but not built');
    sitemapPages.push(page);
  }

  const resolve = (href: string, from: string): Link | 'external' | 'broken' => {
    let url: URL;
    try { url = new URL(href, new URL(from, site)); } catch { return 'broken'; }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'external';
    if (url.origin !== site.origin) return 'external';
    const fragment = decode(url.hash.slice(1));
    const p = decode(url.pathname);
    const page = builtPage(p);
    if (page !== null) return { href, page, fragment };
    if (builtFiles.has(p) || SERVER_PATHS.some((re) => re.test(p))) return { href, page: null, fragment };
    return 'broken';
  };

  // Most links are the same on every page (menus, footer) and absolute: each is resolved once,
  // and the Link is shared by the pages holding it. Relative ones depend on their page.
  const resolved = new Map<string, Link | 'external' | 'broken'>();
  const resolveCached = (href: string, from: string): Link | 'external' | 'broken' => {
    // `http:x` without `//` is relative to the page in special schemes (WHATWG URL), so not this.
    if (!/^(?:\/|https?:\/\/)/i.test(href)) return resolve(href, from);
    let link = resolved.get(href);
    if (link === undefined) resolved.set(href, link = resolve(href, from));
    return link;
  };

  const queued = new Set<string>();
  const visited = new Map<string, Visited>();
  const broken: { from: string; href: string }[] = [];
  let done = 0;

  const read = (pagePath: string): Promise<PageRead> => {
    const file = pageFile(ctx.distDir, pagePath);
    const task = { file, url: new URL(pagePath, site).href, ...(ctx.pageReadCache ? { cache: ctx.pageReadCache } : {}) };
    const reading = forPage(STAGE, pagePath, () => ctx.workers.read(task));
    // Read ahead: it may fail before the walk awaits it (the walk stops at the first failure it reaches).
    reading.catch(() => {});
    return reading;
  };

  const cache: CrawlResult['cache'] = { keys: new Set(), hits: 0, damaged: 0 };
  const take = (pagePath: string, r: PageRead): Visited & { links: Link[] } => {
    if (r.cache) {
      cache.keys.add(r.cache.key);
      if (r.cache.state === 'hit') cache.hits++;
      else if (r.cache.state === 'damaged') cache.damaged++;
    }
    const links: Link[] = [];
    for (const href of r.redirect ? [...r.hrefs, r.redirect] : r.hrefs) {
      if (href.startsWith('#')) continue;
      const link = resolveCached(href, pagePath);
      if (link === 'broken') broken.push({ from: pagePath, href });
      else if (link !== 'external') links.push(link);
    }
    ctx.progress(++done, output.size);
    const markdown = r.markdown === null ? null : ctx.spill.put(r.markdown);
    const page: CrawledPage = { path: pagePath, file: pageFile(ctx.distDir, pagePath), facts: r.facts, markdown };
    if (r.markdownError !== undefined) page.markdownError = r.markdownError;
    return { page, ids: r.ids, anchored: links.filter((link) => link.fragment), redirect: r.redirect, links };
  };

  const walk = async (seeds: string[]): Promise<void> => {
    const queue = seeds.filter((s) => !queued.has(s));
    for (const s of queue) queued.add(s);
    const reads = new Map<number, Promise<PageRead>>();
    const ahead = READ_AHEAD * ctx.workers.size;
    let started = 0;
    for (let i = 0; i < queue.length; i++) {
      for (; started < queue.length && started <= i + ahead; started++) reads.set(started, read(queue[started]!));
      const current = queue[i]!;
      const { links, ...v } = take(current, await reads.get(i)!);
      reads.delete(i);
      visited.set(current, v);
      for (const link of links) {
        if (link.page && !queued.has(link.page)) {
          queued.add(link.page);
          queue.push(link.page);
        }
      }
    }
  };

  await walk(['/']);
  const linked = new Set(queued);
  await walk([...sitemapPages].sort());

  if (broken.length > 0) {
    const first = broken[0]!;
    const more = broken.length > 1 ? ` (and ${broken.length - 1} more broken link${broken.length > 2 ? 's' : ''})` : '';
    throw new BuildError(STAGE, first.from, `broken link to ${first.href}${more}`);
  }

  const unlinked = [...new Set([...output, ...sitemapPages])].filter((p) => !linked.has(p)).sort();
  if (unlinked.length > 0) ctx.warn(`${unlinked.length} page(s) no link reaches: ${unlinked.join(' ')}`);

  for (const v of visited.values()) {
    for (const link of v.anchored) {
      const target = link.page ? visited.get(link.page) : undefined;
      if (target && !target.ids.has(link.fragment)) {
        ctx.warn(`page ${v.page.path}: link ${link.href} names a missing anchor #${link.fragment}`);
      }
    }
  }

  const pages = [...visited.values()].filter((v) => v.redirect === null).map((v) => v.page);
  pages.sort(byPath);
  return { pages, unlinked, cache };
}
