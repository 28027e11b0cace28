/**
 * The schema.org JSON-LD, canonical and Open Graph tags of every built page, checked against the
 * content they come from: the company's contact points and cities, the breadcrumbs the page
 * shows, the cities a service is asked for in, and the questions the page answers.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Element, Root } from 'hast';
import { select, selectAll } from 'hast-util-select';
import { toString } from 'hast-util-to-string';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseHtml } from '../../build-scripts/markdown/index.ts';
import { ROOT } from '../../server/config.ts';
import { ReadModelPageSchema, type ReadModelPage } from '../../formats/schemas/read-model.ts';
import { builtReadModel, builtSiteDir } from '../helpers/built-site.ts';

type Node = Record<string, unknown> & { '@type': string };

interface Built {
  page: ReadModelPage;
  tree: Root;
  nodes: Node[];
}

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();
const attr = (el: Element | undefined, name: string) => (el ? String(el.properties[name] ?? '') : '');
const company = JSON.parse(await fs.readFile(path.join(ROOT, 'src', 'content', 'company.json'), 'utf8'));
const cities: { id: string; name: string; island?: string }[] = JSON.parse(await fs.readFile(path.join(ROOT, 'src', 'content', 'cities.json'), 'utf8'));
const digits = (phone: string) => phone.replace(/[^\d+]/g, '');

let loaded: Promise<Built[]> | undefined;

function load(): Promise<Built[]> {
  loaded ??= (async () => {
    const dir = await builtReadModel();
    const names = await fs.readdir(path.join(dir, 'pages'));
    return Promise.all(names.map(async (name) => {
      const page = ReadModelPageSchema.parse(JSON.parse(await fs.readFile(path.join(dir, 'pages', name), 'utf8')));
      const html = await fs.readFile(path.join(builtSiteDir(), ...page.path.split('/').filter(Boolean), 'index.html'), 'utf8');
      const tree = parseHtml(html);
      const scripts = selectAll('script[type="application/ld+json"]', tree);
      assert.is(scripts.length, 1, `${page.path}: ${scripts.length} JSON-LD scripts`);
      const data = JSON.parse(toString(scripts[0]!));
      assert.is(data['@context'], 'https://schema.org', page.path);
      assert.ok(Array.isArray(data['@graph']) && data['@graph'].length > 0, `${page.path}: empty @graph`);
      return { page, tree, nodes: data['@graph'] as Node[] };
    }));
  })();
  return loaded;
}

const ofType = (nodes: Node[], type: string) => nodes.filter((n) => n['@type'] === type);

test('every page: one JSON-LD graph in <head>, canonical = og:url = its read-model URL, og:title and og:description', async () => {
  const pages = await load();
  assert.ok(pages.length > 400, `${pages.length} pages`);
  for (const { page, tree } of pages) {
    assert.ok(select('head > script[type="application/ld+json"]', tree), `${page.path}: the JSON-LD is not in <head>`);
    assert.is(attr(select('link[rel=canonical]', tree), 'href'), page.url, page.path);
    assert.is(attr(select('meta[property="og:url"]', tree), 'content'), page.url, page.path);
    assert.ok(attr(select('meta[property="og:title"]', tree), 'content'), `${page.path}: og:title`);
    assert.ok(attr(select('meta[property="og:description"]', tree), 'content'), `${page.path}: og:description`);
  }
});

test('the BreadcrumbList is the trail the page shows: same names, same links, the page itself last', async () => {
  let checked = 0;
  for (const { page, tree, nodes } of await load()) {
    const shown = selectAll('nav.breadcrumbs li', tree).map((li) => ({ name: collapse(toString(li)), href: attr(select('a', li), 'href') }));
    const lists = ofType(nodes, 'BreadcrumbList');
    if (shown.length === 0) {
      assert.is(lists.length, 0, page.path);
      continue;
    }
    assert.is(lists.length, 1, page.path);
    const items = lists[0]!.itemListElement as { position: number; name: string; item?: string }[];
    assert.equal(items.map((i) => i.position), shown.map((_, i) => i + 1), page.path);
    assert.equal(items.map((i) => i.name), shown.map((s) => s.name), page.path);
    shown.slice(0, -1).forEach((s, i) => assert.is(items[i]!.item, new URL(s.href, page.url).href, page.path));
    assert.is(items.at(-1)!.item, undefined, `${page.path}: the last crumb is the page itself`);
    checked++;
  }
  assert.ok(checked > 400, `${checked} trails`);
});

test('home and contact describe the company: contact points (phone, WhatsApp), address, the 21 cities and islands served', async () => {
  const pages = await load();
  for (const pagePath of ['/', '/contacto/']) {
    const { nodes } = pages.find((p) => p.page.path === pagePath)!;
    const [org] = ofType(nodes, 'HomeAndConstructionBusiness');
    assert.ok(org, `${pagePath}: no HomeAndConstructionBusiness`);
    assert.is(org['@id'], new URL('/#empresa', pages[0]!.page.url).href);
    assert.is(org.name, company.brand);
    assert.is(org.legalName, company.legal_name);
    assert.is(org.telephone, digits(company.phone));
    const points = org.contactPoint as { contactType: string; telephone: string; url?: string }[];
    assert.equal(points.map((p) => p.telephone), [digits(company.phone), digits(company.whatsapp)]);
    assert.is(points[1]!.url, `https://wa.me/${digits(company.whatsapp).slice(1)}`);
    assert.is((org.address as { postalCode: string }).postalCode, '28003');
    const served = org.areaServed as { '@type': string; name: string }[];
    assert.is(served.length, 21);
    assert.equal(served.map((a) => a.name), cities.map((c) => (c.island ? `${c.island} (isla)` : c.name)));
  }
});

test('service pages: a Service over every city the page links, with the provider by @id; service × city pages: a Service in that city', async () => {
  const pages = await load();
  const orgId = new URL('/#empresa', pages[0]!.page.url).href;
  let services = 0;
  for (const { page, tree, nodes } of pages.filter((p) => p.page.kind === 'service' || p.page.kind === 'service-city')) {
    const [service, more] = ofType(nodes, 'Service');
    assert.ok(service && !more, `${page.path}: one Service`);
    assert.is((service.provider as Node)['@id'], orgId, page.path);
    const h1 = collapse(toString(select('main h1', tree)!));
    if (page.kind === 'service-city') {
      const city = cities.find((c) => c.id === page.city)!;
      assert.is(service.name, h1, page.path);
      assert.is((service.areaServed as { name: string }).name, city.island ? `${city.island} (isla)` : city.name, page.path);
    } else {
      const linked = selectAll(`main a[href^="${page.path}"]`, tree).filter((a) => attr(a, 'href') !== page.path);
      assert.ok(linked.length > 0, page.path);
      assert.is((service.areaServed as unknown[]).length, linked.length, `${page.path}: areaServed against the city pages it links`);
    }
    services++;
  }
  assert.ok(services > 300, `${services} Service nodes`);
});

/**
 * The questions a page shows, each with the text of the blocks after it up to the next heading:
 * a guide's every `<h3>` under its "Preguntas frecuentes" heading, elsewhere every `<h3>` that
 * asks (¿…?).
 */
function questionsShown(tree: Root, guide: boolean): { q: string; a: string }[] {
  const faqs: { q: string; a: string }[] = [];
  for (const parent of selectAll('main, main *', tree)) {
    let inSection = !guide;
    let current: { q: string; a: string } | undefined;
    for (const el of parent.children.filter((c): c is Element => c.type === 'element')) {
      const text = collapse(toString(el));
      if (el.tagName === 'h2' || el.tagName === 'h1') {
        current = undefined;
        if (guide) inSection = /^preguntas frecuentes$/i.test(text);
      } else if (el.tagName === 'h3') {
        current = inSection && (guide || text.startsWith('¿')) ? { q: text, a: '' } : undefined;
        if (current) faqs.push(current);
      } else if (current) {
        current.a = collapse(`${current.a} ${text}`);
      }
    }
  }
  return faqs;
}

test('FAQPage where a service page, a guide or the FAQ answers questions: the same questions and answers, in order', async () => {
  let guides = 0;
  for (const { page, tree, nodes } of await load()) {
    if (page.kind !== 'service' && page.kind !== 'guide' && page.path !== '/preguntas-frecuentes/') continue;
    const shown = questionsShown(tree, page.kind === 'guide');
    const [faq] = ofType(nodes, 'FAQPage');
    if (shown.length === 0) {
      assert.is(faq, undefined, `${page.path}: a FAQPage without questions on the page`);
      continue;
    }
    assert.ok(faq, `${page.path}: no FAQPage`);
    if (page.kind === 'guide') guides++;
    const entities = faq.mainEntity as { name: string; acceptedAnswer: { text: string } }[];
    assert.equal(entities.map((e) => ({ q: e.name, a: collapse(e.acceptedAnswer.text) })), shown, page.path);
  }
  assert.ok(guides >= 4, `${guides} guides with a FAQPage`);
});

test.run();
