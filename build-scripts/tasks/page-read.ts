/**
 * Everything the build needs from one built HTML page, from a single parse: its links, element
 * ids and meta-refresh target (crawl), the facts extraction checks (extract.ts `readFacts`), and
 * its Markdown (build-scripts/markdown/). Runs in the build's worker threads (worker.ts).
 *
 * Parsing is the same work for every stage, so the page is parsed once and converted right away,
 * while its tree exists: keeping trees between stages would make memory grow with the site, and
 * parsing each file a second time would redo a good part of the per-page work. The Markdown is
 * only used, and a conversion failure only reported, by the pages stage, after extraction
 * has accepted the page — so a page fails at the same stage, with the same message, as if each
 * stage read the file itself.
 */
import fs from 'node:fs';
import type { Element, Root } from 'hast';
import type { PageFacts } from '../context.ts';
import { messageOf } from '../errors.ts';
import { hastToMarkdown, parseHtml } from '../markdown/index.ts';
import { mainContainer } from '../markdown/select-main.ts';
import { walkElements } from '../markdown/walk.ts';
import { readFacts } from '../stages/extract.ts';
import { loadPageRead, pageReadKey, storePageRead } from '../cache/page-reads.ts';
import type { CacheFolders } from '../cache/store.ts';

export interface PageReadTask {
  /** The built HTML file. */
  file: string;
  /** The page's URL on SITE_URL: links and images in its Markdown resolve against it. */
  url: string;
  /** Earlier builds' reads (cache/page-reads.ts), and where this build leaves the reads it makes; none: read afresh. */
  cache?: CacheFolders;
}

/** How a read used the cache: its key, and whether the entry was there, missing or unreadable. */
export interface CacheUse {
  key: string;
  state: 'hit' | 'miss' | 'damaged';
}

export interface PageRead {
  hrefs: string[];
  ids: Set<string>;
  redirect: string | null;
  facts: PageFacts;
  /** Null for redirects and pages without a title, which are never converted (extraction rejects the latter). */
  markdown: string | null;
  /** Why the conversion failed, reported by the pages stage. */
  markdownError?: string;
  /** Set when the task named a cache; not part of what is cached. */
  cache?: CacheUse;
}

/** Link targets, element ids and a meta-refresh target of one document. */
function scan(tree: Root): { hrefs: string[]; ids: Set<string>; redirect: string | null } {
  const hrefs: string[] = [];
  const ids = new Set<string>();
  let redirect: string | null = null;
  // Document order, as unist-util-visit would go, without its per-node ancestor bookkeeping.
  walkElements(tree, (node: Element) => {
    const { id, href, httpEquiv, content } = node.properties;
    if (typeof id === 'string' && id) ids.add(id);
    if (node.tagName === 'a' && typeof href === 'string') hrefs.push(href.trim());
    if (node.tagName === 'meta' && String(httpEquiv).toLowerCase() === 'refresh' && typeof content === 'string') {
      const target = /url\s*=\s*['"]?([^'"]+)/i.exec(content)?.[1];
      if (target) redirect = target.trim();
    }
  });
  return { hrefs, ids, redirect };
}

/** The title heads every page's Markdown, also when it came from `<title>`, not an `<h1>`. */
function addHeading(tree: Root, title: string): void {
  const container = mainContainer(tree);
  const h1: Element = { type: 'element', tagName: 'h1', properties: {}, children: [{ type: 'text', value: title }] };
  if (container) container.children.unshift(h1);
}

export async function readPage({ file, url, cache }: PageReadTask): Promise<PageRead> {
  // Synchronous: a worker thread blocks only itself, and a promise read costs several times the CPU.
  const html = fs.readFileSync(file);
  if (cache === undefined) return readFresh(html, url);
  const key = pageReadKey(html, url);
  const cached = loadPageRead(cache.dir, key);
  if (cached !== undefined && cached !== 'damaged') return { ...cached, cache: { key, state: 'hit' } };
  const fresh = readFresh(html, url);
  storePageRead(cache.newDir, key, fresh);
  return { ...fresh, cache: { key, state: cached ?? 'miss' } };
}

function readFresh(html: Buffer, url: string): PageRead {
  const tree = parseHtml(html.toString('utf8'));
  const { hrefs, ids, redirect } = scan(tree);
  const facts = readFacts(tree);
  const read: PageRead = { hrefs, ids, redirect, facts, markdown: null };
  if (redirect !== null || !facts.title) return read;
  try {
    if (!facts.hasH1) addHeading(tree, facts.title);
    read.markdown = hastToMarkdown(tree, { baseUrl: url });
  } catch (err) {
    read.markdownError = messageOf(err);
  }
  return read;
}
