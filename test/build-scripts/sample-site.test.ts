/**
 * The read model of the real sample site (built once by test/helpers/built-site.ts): every
 * city and service is there as pages and in the company sections, no page's Markdown carries
 * the site's menus, footer or asides, and every company URL is a published page.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Element, Root } from 'hast';
import { selectAll } from 'hast-util-select';
import { toString } from 'hast-util-to-string';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseHtml } from '../../build-scripts/markdown/index.ts';
import { ROOT } from '../../server/config.ts';
import { CITY_SLUGS } from '../../formats/schemas/cities.ts';
import { ManifestSchema, ReadModelPageSchema, type ReadModelPage } from '../../formats/schemas/read-model.ts';
import { CompanyInfoSchema, type CompanyInfo } from '../../formats/schemas/resources.ts';
import { builtReadModel, builtSiteDir } from '../helpers/built-site.ts';

interface Model {
  dir: string;
  pages: ReadModelPage[];
  byUrl: Map<string, ReadModelPage>;
  company: (section: string) => Promise<CompanyInfo>;
}

let model: Promise<Model> | undefined;

function load(): Promise<Model> {
  model ??= (async () => {
    const dir = await builtReadModel();
    const names = await fs.readdir(path.join(dir, 'pages'));
    const pages = await Promise.all(names.map(async (n) =>
      ReadModelPageSchema.parse(JSON.parse(await fs.readFile(path.join(dir, 'pages', n), 'utf8')))));
    return {
      dir,
      pages,
      byUrl: new Map(pages.map((p) => [p.url, p])),
      company: async (section) => CompanyInfoSchema.parse(JSON.parse(await fs.readFile(path.join(dir, 'company', `${section}.json`), 'utf8'))),
    };
  })();
  return model;
}

async function content(name: string): Promise<{ id: string; name: string }[]> {
  return JSON.parse(await fs.readFile(path.join(ROOT, 'src', 'content', name), 'utf8'));
}

test('the manifest matches the pages', async () => {
  const { dir, pages } = await load();
  const manifest = ManifestSchema.parse(JSON.parse(await fs.readFile(path.join(dir, 'manifest.json'), 'utf8')));
  assert.is(manifest.counts.pages, pages.length);
  assert.is(manifest.counts.cities, 21);
});

test('all 21 cities have their page and are listed with it in the coverage section', async () => {
  const { pages, byUrl, company } = await load();
  const cityPages = pages.filter((p) => p.kind === 'city');
  assert.equal(cityPages.map((p) => p.city).sort(), [...CITY_SLUGS].sort());
  for (const p of cityPages) assert.is(p.path, `/ciudades/${p.city}/`);
  const coverage = await company('coverage');
  assert.equal(coverage.cities!.map((c) => c.slug).sort(), [...CITY_SLUGS].sort());
  for (const c of coverage.cities!) assert.is(byUrl.get(c.url)?.city, c.slug, `${c.url} is the page of ${c.slug}`);
  const names = new Map((await content('cities.json')).map((c) => [c.id, c.name]));
  for (const c of coverage.cities!) assert.is(c.name, names.get(c.slug));
});

test('every service has its page and is listed with it in the services section', async () => {
  const { pages, byUrl, company } = await load();
  const services = await content('services.json');
  assert.ok(services.length >= 14, `${services.length} services`);
  const servicePaths = pages.filter((p) => p.kind === 'service').map((p) => p.path).sort();
  assert.equal(servicePaths, services.map((s) => `/servicios/${s.id}/`).sort());
  const listed = (await company('services')).services!;
  assert.equal(listed.map((s) => s.name), services.map((s) => s.name));
  for (const s of listed) assert.is(byUrl.get(s.url)?.kind, 'service', `${s.url} is a service page`);
});

test('the services page lists the services in the order of services.json', async () => {
  const { pages } = await load();
  const services = await content('services.json');
  const page = pages.find((p) => p.path === '/servicios/')!;
  const linked = [...page.markdown.matchAll(/^- \[[^\]]+\]\([^)]*\/servicios\/([a-z0-9-]+)\/\)$/gm)].map((m) => m[1]);
  assert.equal(linked, services.map((s) => s.id));
});

test('at least 250 service-city pages, each with its city', async () => {
  const { pages } = await load();
  const serviceCity = pages.filter((p) => p.kind === 'service-city');
  assert.ok(serviceCity.length >= 250, `${serviceCity.length} service-city pages`);
  for (const p of serviceCity) assert.ok(p.path.endsWith(`/${p.city}/`) && p.city !== '', `${p.path} has city ${p.city}`);
});

test('at least 25 guides, some long enough to be truncated', async () => {
  const { pages } = await load();
  const guides = pages.filter((p) => p.kind === 'guide');
  assert.ok(guides.length >= 25, `${guides.length} guides`);
  const long = guides.filter((p) => p.markdown.length >= 20_000);
  assert.ok(long.length >= 2, `${long.length} guides of 20,000+ characters`);
  assert.ok(long.some((p) => /^\| .+ \|$/m.test(p.markdown) && /^- /m.test(p.markdown)), 'a long guide has tables and lists');
});

test('every company URL resolves to a published page', async () => {
  const { byUrl, company } = await load();
  const all = await company('all');
  const urls = [...all.services!.map((s) => s.url), ...all.cities!.map((c) => c.url), ...Object.values(all.pages ?? {})];
  assert.ok(urls.length > 21 + 14);
  for (const url of urls) {
    const u = new URL(url);
    assert.ok(byUrl.has(`${u.origin}${u.pathname}`), `${url} is not a published page`);
  }
  assert.is(all.website, new URL([...byUrl.keys()][0]!).origin);
});

const gfm = unified().use(remarkParse).use(remarkGfm);

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * What a page shows outside its main content (header, footer, asides, navigation, anything
 * marked data-pagefind-ignore) and does not also say inside it: its links as Markdown
 * `[text](url)` and its plain sentences.
 */
function chromeOf(html: string, pageUrl: string): { links: string[]; sentences: string[] } {
  const tree: Root = parseHtml(html);
  const main = selectAll('main', tree);
  const inMain = (el: Element) => main.some((m) => m === el || selectAll('*', m).includes(el));
  const chrome = selectAll('body > header, body > footer, aside, nav, [data-pagefind-ignore]', tree).filter((el) => !inMain(el));
  const linkOf = (a: Element) => {
    const url = new URL(String(a.properties.href), pageUrl);
    return url.protocol.startsWith('http') ? `[${collapse(toString(a))}](${url.href})` : null;
  };
  const mainLinks = new Set(main.flatMap((m) => selectAll('a[href]', m)).map(linkOf));
  const mainText = collapse(main.map((m) => toString(m)).join(' '));
  const links = new Set<string>();
  const sentences = new Set<string>();
  for (const el of chrome) {
    for (const a of selectAll('a[href]', el)) {
      const link = linkOf(a);
      if (link && !mainLinks.has(link) && collapse(toString(a))) links.add(link);
    }
    for (const block of selectAll('p, li', el)) {
      const text = collapse(toString(block));
      if (block.children.every((c) => c.type === 'text') && text.length >= 25 && !mainText.includes(text)) sentences.add(text);
    }
  }
  return { links: [...links], sentences: [...sentences] };
}

test('no page carries the menu, footer or asides of the site', async () => {
  const { pages } = await load();
  const site = builtSiteDir();
  let checked = 0;
  for (const page of pages) {
    const html = await fs.readFile(path.join(site, ...page.path.split('/').filter(Boolean), 'index.html'), 'utf8');
    const { links, sentences } = chromeOf(html, page.url);
    checked += links.length + sentences.length;
    for (const link of links) assert.not.ok(page.markdown.includes(link), `${page.path}: the chrome link ${link} is in the Markdown`);
    for (const text of sentences) assert.not.ok(page.markdown.includes(text), `${page.path}: the chrome text "${text}" is in the Markdown`);
    const raw: string[] = [];
    visit(gfm.parse(page.markdown), 'html', (node) => { raw.push(node.value); });
    assert.equal(raw, [], `${page.path} holds raw HTML`);
  }
  // The header menu alone has six links on every page: the check must have found the chrome.
  assert.ok(checked >= pages.length * 6, `found ${checked} chrome items in ${pages.length} pages`);
});

test.run();
