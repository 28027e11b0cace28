/**
 * Extract: per page, what the read model says about it besides its text — title (the `<h1>` of
 * the main content, else `<title>`), description, canonical URL on SITE_URL, path, slug, kind
 * and city. A page without a title, a duplicate slug, or a kind/city the schema does not know
 * fails the build; the page's own `agentes:kind`/`agentes:city` meta tags win over the path.
 */
import type { Element, Root } from 'hast';
import { toString } from 'hast-util-to-string';
import { CITY_SLUGS } from '../../formats/schemas/cities.ts';
import { PAGE_KINDS } from '../../formats/schemas/read-model.ts';
import type { BuildContext, CrawledPage, PageFacts, PageMeta } from '../context.ts';
import { BuildError, forPage } from '../errors.ts';

export const STAGE = 'extract';

type Kind = (typeof PAGE_KINDS)[number];
type City = (typeof CITY_SLUGS)[number] | '';

const SECTION_PREFIXES = new Set(['servicios', 'ciudades', 'guias']);

/** The slug rule of formats/schemas/read-model.ts: drop a leading servicios|ciudades|guias when more follows. */
export function slugOf(pagePath: string): string {
  const parts = pagePath.split('/').filter(Boolean);
  if (parts.length === 0) return 'inicio';
  if (parts.length > 1 && SECTION_PREFIXES.has(parts[0]!)) parts.shift();
  return parts.join('-');
}

/** The kind a page's path implies, for pages that do not declare one. */
function kindOf(parts: string[]): Kind {
  if (parts.length === 0) return 'home';
  if (parts[0] === 'servicios' && parts.length === 2) return 'service';
  if (parts[0] === 'servicios' && parts.length === 3) return 'service-city';
  if (parts[0] === 'ciudades' && parts.length === 2) return 'city';
  if (parts[0] === 'guias' && parts.length === 2) return 'guide';
  return 'info';
}

function cityOf(parts: string[]): City {
  const candidate = parts[0] === 'ciudades' ? parts[1] : parts[0] === 'servicios' ? parts[2] : undefined;
  return (CITY_SLUGS as readonly string[]).includes(candidate ?? '') ? (candidate as City) : '';
}

const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim();

/**
 * The first element, in document order, each selector extraction reads would find: `main h1`,
 * `h1`, `head > title`, `title`, `link[rel~=canonical]` and `meta[name="…"]` (hast-util-select's
 * matching: tag names and values compared exactly). One walk instead of eight `select` calls,
 * each of which parses its selector and walks the whole document.
 */
interface FirstElements {
  mainH1?: Element;
  h1?: Element;
  headTitle?: Element;
  title?: Element;
  canonical?: Element;
  metas: Map<string, Element>;
}

function firstElements(tree: Root): FirstElements {
  const found: FirstElements = { metas: new Map() };
  const visit = (parent: Root | Element, inMain: boolean): void => {
    for (const node of parent.children) {
      if (node.type !== 'element') continue;
      const { tagName, properties } = node;
      if (tagName === 'h1') {
        found.h1 ??= node;
        if (inMain) found.mainH1 ??= node;
      } else if (tagName === 'title') {
        found.title ??= node;
        if (parent.type === 'element' && parent.tagName === 'head') found.headTitle ??= node;
      } else if (tagName === 'link' && !found.canonical && isCanonical(attributeValue(properties.rel))) {
        found.canonical = node;
      } else if (tagName === 'meta') {
        const name = attributeValue(properties.name);
        if (name !== undefined && !found.metas.has(name)) found.metas.set(name, node);
      }
      visit(node, inMain || tagName === 'main');
    }
  };
  visit(tree, false);
  return found;
}

/** A property as an attribute selector reads it (hast-util-select's normalizeValue for these two). */
function attributeValue(value: Element['properties'][string]): string | undefined {
  if (value === null || value === undefined || value === false) return undefined;
  if (value === true) return '';
  if (Array.isArray(value)) return value.length > 0 ? value.join(' ') : undefined;
  return String(value);
}

/** `[rel~=canonical]`: the whole value, or one of its space-separated words. */
function isCanonical(rel: string | undefined): boolean {
  return rel !== undefined && (rel === 'canonical' || rel.split(/[ \t\n\r\f]+/).includes('canonical'));
}

function metaContent(found: FirstElements, name: string): string | undefined {
  const content = found.metas.get(name)?.properties.content;
  return typeof content === 'string' ? collapse(content) : undefined;
}

/**
 * What extraction reads from a page's document, taken while the crawler holds the parsed tree
 * (the tree itself is not kept: 10,000 of them would not fit in memory).
 */
export function readFacts(tree: Root): PageFacts {
  const found = firstElements(tree);
  const h1 = found.mainH1 ?? found.h1;
  const titleEl = found.headTitle ?? found.title;
  const canonical = found.canonical?.properties.href;
  return {
    title: collapse(h1 ? toString(h1) : '') || collapse(titleEl ? toString(titleEl) : ''),
    hasH1: Boolean(h1),
    canonical: typeof canonical === 'string' ? canonical : undefined,
    description: metaContent(found, 'description'),
    kind: metaContent(found, 'agentes:kind'),
    city: metaContent(found, 'agentes:city'),
  };
}

function extractOne(ctx: BuildContext, page: CrawledPage, facts: PageFacts): PageMeta {
  const site = new URL(ctx.siteUrl);
  const parts = page.path.split('/').filter(Boolean);
  if (!/^\/(?:[a-z0-9-]+\/)*$/.test(page.path)) {
    throw new Error('path must be lower-case letters, digits and hyphens (it becomes the slug)');
  }

  const title = facts.title;
  if (!title) throw new Error('page has no title (no <h1> and no <title>)');

  const canonical = facts.canonical;
  const url = new URL(page.path, site).href;
  if (typeof canonical === 'string' && canonical) {
    const c = new URL(canonical, url);
    if (c.origin !== site.origin) {
      throw new Error(`canonical ${c.href} is not on SITE_URL ${site.origin} — build the site and the read model with the same SITE_URL`);
    }
    if (c.pathname !== page.path) ctx.warn(`page ${page.path}: canonical points elsewhere (${c.href})`);
  }

  const declaredKind = facts.kind;
  if (declaredKind && !(PAGE_KINDS as readonly string[]).includes(declaredKind)) {
    throw new Error(`agentes:kind "${declaredKind}" is not one of ${PAGE_KINDS.join(', ')}`);
  }
  const declaredCity = facts.city;
  if (declaredCity && !(CITY_SLUGS as readonly string[]).includes(declaredCity)) {
    throw new Error(`agentes:city "${declaredCity}" is not a city slug of the contract`);
  }

  return {
    path: page.path,
    url,
    slug: slugOf(page.path),
    title,
    description: facts.description ?? '',
    city: declaredCity === undefined ? cityOf(parts) : (declaredCity as City),
    kind: (declaredKind || kindOf(parts)) as Kind,
    hasH1: facts.hasH1,
  };
}

export async function extract(ctx: BuildContext, pages: CrawledPage[]): Promise<PageMeta[]> {
  const out: PageMeta[] = [];
  const bySlug = new Map<string, string>();
  for (const page of pages) {
    const m = await forPage(STAGE, page.path, () => extractOne(ctx, page, page.facts));
    const other = bySlug.get(m.slug);
    if (other) throw new BuildError(STAGE, page.path, `slug "${m.slug}" is already used by ${other}`);
    bySlug.set(m.slug, page.path);
    out.push(m);
    ctx.progress(out.length, pages.length);
  }
  return out;
}
