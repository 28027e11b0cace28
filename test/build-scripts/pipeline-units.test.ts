/** Small parts of the build: progress output, the slug rule, build ids, reading one page, the pages stage. */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { select } from 'hast-util-select';
import { toString } from 'hast-util-to-string';
import type { BuildContext, CrawledPage, PageMeta } from '../../build-scripts/context.ts';
import { BuildError } from '../../build-scripts/errors.ts';
import { htmlToMarkdown, parseHtml } from '../../build-scripts/markdown/index.ts';
import { createReporter } from '../../build-scripts/progress.ts';
import { readFacts, slugOf } from '../../build-scripts/stages/extract.ts';
import { pageSource, writePages } from '../../build-scripts/stages/pages.ts';
import { checkPackedPages } from '../../build-scripts/stages/validate.ts';
import { createTextSpill } from '../../build-scripts/text-spill.ts';
import { readPage } from '../../build-scripts/tasks/page-read.ts';
import { newBuildId } from '../../build-scripts/build-id.ts';
import { basePages, pageHtml, SITE_URL } from './fixture-site.ts';

function sink() {
  let out = '';
  const stream = { write: (s: string) => { out += s; return true; }, isTTY: false } as unknown as NodeJS.WriteStream;
  return { stream, text: () => out };
}

/** readFacts by its definition: the selectors it stands for, through hast-util-select. */
function factsBySelectors(html: string) {
  const tree = parseHtml(html);
  const meta = (name: string) => {
    const content = select(`meta[name="${name}"]`, tree)?.properties.content;
    return typeof content === 'string' ? content.replace(/\s+/g, ' ').trim() : undefined;
  };
  const h1 = select('main h1', tree) ?? select('h1', tree);
  const title = select('head > title', tree) ?? select('title', tree);
  const canonical = select('link[rel~=canonical]', tree)?.properties.href;
  const text = (el: typeof h1) => (el ? toString(el).replace(/\s+/g, ' ').trim() : '');
  return {
    title: text(h1) || text(title), hasH1: Boolean(h1), canonical: typeof canonical === 'string' ? canonical : undefined,
    description: meta('description'), kind: meta('agentes:kind'), city: meta('agentes:city'),
  };
}

test('readFacts finds what its selectors find, in one walk', () => {
  const documents = [
    // h1 outside <main> first, one inside later; titles in head and in an SVG; rel lists; repeated metas.
    `<html><head><meta name="description" content=" Uno  dos "><meta name="description" content="otra">
      <link rel="stylesheet" href="/a.css"><link rel="alternate CANONICAL" href="/x/"><link rel="preload canonical" href="/c/">
      <link rel="canonical" href="/d/"><title>T  de  cabeza</title></head>
      <body><h1>Fuera</h1><svg><title>svg</title></svg><main><div><h1>Dentro <b>de</b> main</h1></div></main><h1>Otro</h1></body></html>`,
    // No <main>: the first <h1>; no head title: the first title anywhere (parse5 hoists it into head anyway).
    '<body><p><h1>Primero</h1></p><h1>Segundo</h1><meta name="agentes:kind" content="guide"><meta name="agentes:city"></body>',
    // No h1 at all; <title> only; meta name without content; a link with rel but no href.
    '<title>Solo título</title><link rel="canonical"><meta name="agentes:city" content="madrid">',
    // Nested mains, h1 in the inner; metas named with odd case (compared exactly).
    '<main><main><h1>Anidado</h1></main></main><meta name="Description" content="no"><meta name="agentes:kind" content="">',
    '',
  ];
  for (const [pagePath, spec] of Object.entries(basePages())) documents.push(pageHtml(spec, pagePath));
  for (const html of documents) assert.equal(readFacts(parseHtml(html)), factsBySelectors(html), html.slice(0, 120));
});

test('without a terminal: a line at every 10 %, stage lines in between', () => {
  const s = sink();
  const r = createReporter(s.stream, false);
  for (let i = 0; i <= 200; i++) r.progress({ stage: 'markdown', done: i, total: 200 });
  r.log('✓ markdown');
  const lines = s.text().trimEnd().split('\n');
  assert.is(lines.length, 12);
  assert.is(lines[0], 'markdown: 1/200 (0 %)');
  assert.is(lines[1], 'markdown: 20/200 (10 %)');
  assert.is(lines[10], 'markdown: 200/200 (100 %)');
  assert.is(lines[11], '✓ markdown');
});

test('without a terminal and without a total: a line per hundred', () => {
  const s = sink();
  const r = createReporter(s.stream, false);
  for (let i = 0; i <= 250; i++) r.progress({ stage: 'astro', done: i, total: undefined });
  assert.is(s.text(), 'astro: 100\nastro: 200\n');
});

test('on a terminal: one line rewritten in place and cleared before other output', () => {
  const s = sink();
  const r = createReporter(s.stream, true);
  r.progress({ stage: 'crawl', done: 1, total: 2 });
  r.log('warning: x');
  r.progress({ stage: 'crawl', done: 2, total: 2 });
  r.done();
  assert.is(s.text(), '\r\x1b[Kcrawl: 1/2 (50 %)\r\x1b[Kwarning: x\n\r\x1b[Kcrawl: 2/2 (100 %)\r\x1b[K');
});

test('two stages side by side: each keeps its own 10 % steps', () => {
  const s = sink();
  const r = createReporter(s.stream, false);
  for (let i = 1; i <= 10; i++) {
    r.progress({ stage: 'search', done: i, total: 10 });
    r.progress({ stage: 'site', done: i * 2, total: 20 });
  }
  const lines = s.text().trimEnd().split('\n');
  assert.is(lines.filter((l) => l.startsWith('search: ')).length, 10);
  assert.is(lines.filter((l) => l.startsWith('site: ')).length, 10);
  assert.is(lines.at(-1), 'site: 20/20 (100 %)');
});

test('one read of a page gives its links, ids, facts and Markdown, as reading each apart would', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-read-'));
  try {
    const url = `${SITE_URL}/servicios/fontaneria/`;
    const html = pageHtml({ h1: 'Fontanería', links: ['/contacto/', '#precios'], body: '<h2 id="precios">Precios</h2><p><a href="../">Arriba</a></p>' }, '/servicios/fontaneria/');
    await fs.writeFile(path.join(dir, 'a.html'), html);
    const read = await readPage({ file: path.join(dir, 'a.html'), url });
    assert.equal(read.facts, readFacts(parseHtml(html)));
    assert.is(read.markdown, htmlToMarkdown(html, { baseUrl: url }));
    assert.ok(read.hrefs.includes('/contacto/') && read.hrefs.includes('#precios') && read.hrefs.includes('../'));
    assert.ok(read.ids.has('precios'));
    assert.is(read.redirect, null);

    // Without an <h1>, the title (from <title>) heads the Markdown.
    const untitled = pageHtml({ title: 'Aviso legal' }, '/aviso-legal/');
    await fs.writeFile(path.join(dir, 'b.html'), untitled);
    const b = await readPage({ file: path.join(dir, 'b.html'), url: `${SITE_URL}/aviso-legal/` });
    assert.ok(b.markdown?.startsWith('# Aviso legal | Casa Fixture\n'), b.markdown ?? '');

    // A redirect is followed, never converted; a conversion failure is kept for the pages stage.
    await fs.writeFile(path.join(dir, 'c.html'), '<html><head><meta http-equiv="refresh" content="0;url=/nuevo/"><title>x</title></head></html>');
    const c = await readPage({ file: path.join(dir, 'c.html'), url: `${SITE_URL}/viejo/` });
    assert.is(c.redirect, '/nuevo/');
    assert.is(c.markdown, null);
    const d = await readPage({ file: path.join(dir, 'a.html'), url: 'not a url' });
    assert.is(d.markdown, null);
    assert.match(d.markdownError ?? '', /Invalid URL/);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('the pages stage fails on a page whose conversion failed, naming stage and page', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-md-'));
  const spill = createTextSpill(path.join(dir, 'spill'));
  try {
    const ctx = { stagingDir: dir, progress: () => {} } as unknown as BuildContext;
    const facts = { title: 'Hola', hasH1: true, canonical: undefined, description: undefined, kind: undefined, city: undefined };
    const meta = (p: string): PageMeta => ({ path: p, url: SITE_URL + p, slug: slugOf(p), title: 'Hola', description: '', city: '', kind: 'info', hasH1: true });
    const crawled: CrawledPage[] = [
      { path: '/a/', file: '', facts, markdown: spill.put('# Hola\n') },
      { path: '/b/', file: '', facts, markdown: null, markdownError: 'tabla imposible' },
    ];
    let err: unknown = null;
    try { pageSource(spill, crawled, crawled.map((c) => meta(c.path))); } catch (e) { err = e; }
    assert.instance(err, BuildError);
    assert.is((err as BuildError).message, 'build failed at stage pages, page /b/: tabla imposible');
    const pages = pageSource(spill, crawled.slice(0, 1), [meta('/a/')]);
    const [entry] = await writePages(ctx, pages);
    assert.equal(JSON.parse(await fs.readFile(path.join(dir, 'pages', 'a.json'), 'utf8')), pages.page(0));
    assert.is(entry!.hash, pages.page(0).hash);
  } finally {
    spill.remove();
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('the Markdown spill gives back each text as put, in any order, whatever its characters', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-spill-'));
  const spill = createTextSpill(path.join(dir, 'spill'));
  try {
    const texts = ['# Hola\n', '', 'ñandú — 💧 fuga\n'.repeat(1000), 'a'];
    const refs = texts.map((t) => spill.put(t));
    for (const i of [3, 1, 0, 2, 0]) assert.is(spill.get(refs[i]!), texts[i]);
  } finally {
    spill.remove();
    assert.equal(await fs.readdir(dir), [], 'the spill removed');
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('the pages a search session reads come from the spill, and no more once the build has failed', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-source-'));
  const spill = createTextSpill(path.join(dir, 'spill'));
  try {
    const facts = { title: 'Hola', hasH1: true, canonical: undefined, description: undefined, kind: undefined, city: undefined };
    const meta = (p: string): PageMeta => ({ path: p, url: SITE_URL + p, slug: slugOf(p), title: `T ${p}`, description: `D ${p}`, city: 'madrid', kind: 'info', hasH1: true });
    const crawled: CrawledPage[] = ['/a/', '/b/', '/c/'].map((p) => ({ path: p, file: '', facts, markdown: spill.put(`# ${p}\n`) }));
    const abort = new AbortController();
    const pages = pageSource(spill, crawled, crawled.map((c) => meta(c.path)), abort.signal);
    assert.equal(pages.read(1, 3), [
      { path: '/b/', title: 'T /b/', city: 'madrid', description: 'D /b/', markdown: '# /b/\n' },
      { path: '/c/', title: 'T /c/', city: 'madrid', description: 'D /c/', markdown: '# /c/\n' },
    ]);
    const reason = new Error('validate failed');
    abort.abort(reason);
    assert.throws(() => pages.read(0, 1), (err: unknown) => err === reason);
  } finally {
    spill.remove();
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('validate reads packed pages back and refuses an unknown field, a wrong type, another page or a page file of another size', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-check-'));
  const spill = createTextSpill(path.join(dir, 'spill'));
  try {
    const ctx = { stagingDir: dir, progress: () => {} } as unknown as BuildContext;
    const facts = { title: 'Hola', hasH1: true, canonical: undefined, description: undefined, kind: undefined, city: undefined };
    const meta = (p: string): PageMeta => ({ path: p, url: SITE_URL + p, slug: slugOf(p), title: 'Hola', description: '', city: '', kind: 'info', hasH1: true });
    const crawled: CrawledPage[] = ['/a/', '/b/'].map((p) => ({ path: p, file: '', facts, markdown: spill.put(`# Hola ${p}\n`) }));
    const pages = pageSource(spill, crawled, crawled.map((c) => meta(c.path)));
    const entries = await writePages(ctx, pages);
    const pack = path.join(dir, 'pages.pack');
    const written = await fs.readFile(pack);
    const b = entries[1]!;
    /** The pack with page b's bytes replaced by `content` (padded to its length: the index is unchanged). */
    const check = async (content: unknown) => {
      const json = Buffer.from(JSON.stringify(content).padEnd(b.length - 1) + '\n');
      await fs.writeFile(pack, Buffer.concat([written.subarray(0, b.offset), json]));
      return checkPackedPages({ dir, entries });
    };
    const page = { ...pages.page(1), markdown: '#' };
    // One after the other on the same schema, as a worker checks every page of a build.
    assert.is(checkPackedPages({ dir, entries }), null);
    const at = `pages/b.json (pages.pack at byte ${b.offset})`;
    assert.equal(await check({ ...page, x: 1 }), { page: '/b/', problem: `${at} is invalid: (root): Unrecognized key: "x"` });
    assert.match((await check({ ...page, title: 7 }))?.problem ?? '', `${at} is invalid: title: `);
    assert.equal(await check({ ...page, markdown: '# Hola /b/\n', hash: 'f'.repeat(64) }), { page: '/b/', problem: `${at} does not hold what was written` });
    assert.equal(await check({ ...pages.page(0), markdown: '# Hola /a/\n' }), { page: '/b/', problem: `${at} does not hold what was written` });
    await fs.writeFile(pack, written);
    assert.is(checkPackedPages({ dir, entries }), null);
    await fs.appendFile(path.join(dir, 'pages', 'a.json'), ' ');
    assert.equal(checkPackedPages({ dir, entries }), { page: '/a/', problem: `pages/a.json (pages.pack at byte 0) holds ${entries[0]!.length + 1} bytes, its packed copy ${entries[0]!.length}` });
    await fs.rm(path.join(dir, 'pages', 'a.json'));
    assert.equal(checkPackedPages({ dir, entries }), { page: '/a/', problem: 'pages/a.json (pages.pack at byte 0) was not written' });
  } finally {
    spill.remove();
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('slugs follow the rule of the read-model schema', () => {
  assert.is(slugOf('/'), 'inicio');
  assert.is(slugOf('/servicios/'), 'servicios');
  assert.is(slugOf('/servicios/fontaneria/'), 'fontaneria');
  assert.is(slugOf('/servicios/fontaneria/a-coruna/'), 'fontaneria-a-coruna');
  assert.is(slugOf('/ciudades/las-palmas/'), 'las-palmas');
  assert.is(slugOf('/guias/salta-el-diferencial/'), 'salta-el-diferencial');
  assert.is(slugOf('/aviso-legal/'), 'aviso-legal');
  assert.is(slugOf('/api/sandbox/'), 'api-sandbox');
});

test('build ids sort by creation time', () => {
  const a = newBuildId(new Date('2025-01-02T03:04:05.006Z'));
  const b = newBuildId(new Date('2025-01-02T03:04:05.007Z'));
  assert.match(a, /^20250102T030405006Z-[0-9a-f]{6}$/);
  assert.ok(a < b);
});

test.run();
