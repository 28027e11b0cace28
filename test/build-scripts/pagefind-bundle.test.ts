/**
 * The Pagefind bundle writer on a handful of pages, with the real Pagefind: every file of its
 * bundle written (the content-hashed ones told apart as the server tells them), its process
 * stopped, and Pagefind's own `pagefind.js`, loaded in Node and fed the bundle over HTTP, finding
 * the pages by word and by city.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sirv from 'sirv';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writePagefindBundle } from '../../build-scripts/pagefind-bundle.ts';
import type { IndexPage } from '../../build-scripts/search-index/search-index.ts';
import { BUNDLE_PATH, BundleParts, isContentHashed, PARTS_FILE } from '../../formats/pagefind-bundle.ts';
import { pagefindChildren, pagefindChildrenGone } from '../helpers/processes.ts';

const page = (p: string, title: string, city: IndexPage['city'], body: string): IndexPage =>
  ({ path: p, title, city, description: `${title}: ${body.split('.')[0]}.`, markdown: `# ${title}\n\n${body}\n` });

const PAGES: IndexPage[] = [
  page('/servicios/fontaneria/madrid/', 'Fontanería en Madrid', 'madrid', 'Un fontanero de Madrid repara fugas, grifos y cisternas.'),
  page('/servicios/fontaneria/bilbao/', 'Fontanería en Bilbao', 'bilbao', 'Un fontanero de Bilbao repara fugas, grifos y cisternas.'),
  page('/servicios/electricidad/', 'Electricidad', '', 'Un electricista revisa el cuadro cuando salta el diferencial.'),
  page('/guias/fuga-de-agua/', 'Qué hacer ante una fuga de agua', '', 'Cierre la llave de paso y llame a un fontanero.'),
  page('/precios/', 'Precios', '', 'El presupuesto es gratuito y sin compromiso.'),
];

/** What this test uses of the API `pagefind.js` exports (Pagefind's documented search API). */
interface PagefindApi {
  options(options: { basePath: string }): Promise<void>;
  mergeIndex(url: string): Promise<void>;
  search(term: string | null, options?: { filters?: Record<string, string> }): Promise<{ results: { data(): Promise<ResultData> }[] }>;
  filters(): Promise<Record<string, Record<string, number>>>;
  destroy(): Promise<void>;
}

interface ResultData {
  url: string;
  meta: Record<string, string>;
  filters: Record<string, string[]>;
}

/** Files of Pagefind's bundle that keep their name from one build to the next. */
const UNHASHED = [
  'pagefind.js', 'pagefind-entry.json', 'pagefind-worker.js', 'pagefind-highlight.js', 'wasm.es.pagefind', 'wasm.unknown.pagefind',
  'pagefind-ui.js', 'pagefind-ui.css', 'pagefind-modular-ui.js', 'pagefind-modular-ui.css', 'pagefind-component-ui.js', 'pagefind-component-ui.css',
];

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/** The files of `dir` on a loopback port, as a static host serves them. */
async function serveFiles(dir: string): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer(sirv(dir, { dev: true }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agentes-pagefind-bundle-'));
const bundle = path.join(root, 'pagefind');
const progress: number[] = [];
let written: ReturnType<typeof writePagefindBundle> | undefined;
const before = pagefindChildren({ zombies: true });
/** The bundle of PAGES, written once for the file by the first test that needs it. */
const write = () => (written ??= writePagefindBundle({ pages: PAGES, outDir: bundle, progress: (done) => progress.push(done) }));

test.after(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

test('writes the whole bundle: script, entry, wasm, UI files and content-hashed shards; stops its Pagefind process', async () => {
  const result = await write();
  assert.equal(result.indexed, PAGES.length);
  assert.equal(progress.at(-1), PAGES.length);
  const files = filesUnder(bundle);
  assert.is(result.files, files.length);
  for (const name of UNHASHED) {
    assert.ok(files.includes(name), `${name} written`);
    assert.ok(fs.statSync(path.join(bundle, name)).size > 0, `${name} not empty`);
    assert.not.ok(isContentHashed(name), `${name} keeps its name: not told hashed`);
  }
  const hashed = files.filter(isContentHashed);
  for (const folder of ['index/', 'fragment/', 'filter/']) assert.ok(hashed.some((f) => f.startsWith(folder)), `${folder} shards`);
  assert.is(hashed.filter((f) => f.endsWith('.pf_meta')).length, 1, 'one meta file');
  // Whatever other files a Pagefind version adds, its shards and meta must all be told hashed.
  for (const f of files.filter((name) => !isContentHashed(name))) assert.ok(!f.includes('/') && !/\.pf_\w+$/.test(f), `${f}: a shard or meta not told hashed`);
  assert.ok(await pagefindChildrenGone({ except: before }), `Pagefind left running: ${pagefindChildren().join(' ')}`);
});

test('refuses a bundle folder that exists, and leaves no Pagefind process', async () => {
  await write();
  try {
    await writePagefindBundle({ pages: PAGES.slice(0, 1), outDir: bundle });
    assert.unreachable('an existing bundle folder was written over');
  } catch (err) {
    assert.match((err as NodeJS.ErrnoException).code ?? '', 'EEXIST');
  }
  assert.ok(await pagefindChildrenGone({ except: before }), `Pagefind left running: ${pagefindChildren().join(' ')}`);
});

test('Pagefind\'s own pagefind.js finds the pages by word, with their URL and title, and by city', async () => {
  await write();
  const host = await serveFiles(root);
  const pf = await import(pathToFileURL(path.join(bundle, 'pagefind.js')).href) as PagefindApi;
  try {
    await pf.options({ basePath: `${host.origin}${BUNDLE_PATH}` });
    // Result URLs are the records' paths on the site the bundle was loaded from.
    const site = (p: string) => `${host.origin}${p}`;
    const found = await pf.search('fontanero');
    const data = await Promise.all(found.results.map((r) => r.data()));
    assert.equal(data.map((d) => d.url).sort(), ['/guias/fuga-de-agua/', '/servicios/fontaneria/bilbao/', '/servicios/fontaneria/madrid/'].map(site));
    const madrid = data.find((d) => d.url === site('/servicios/fontaneria/madrid/'))!;
    assert.is(madrid.meta.title, 'Fontanería en Madrid');
    assert.equal(madrid.filters.city, ['madrid']);

    const inMadrid = await pf.search('fontanero', { filters: { city: 'madrid' } });
    assert.equal(await Promise.all(inMadrid.results.map(async (r) => (await r.data()).url)), [site('/servicios/fontaneria/madrid/')]);
    assert.equal((await pf.filters()).city, { bilbao: 1, madrid: 1 });
    const everyPage = await pf.search(null);
    assert.is(everyPage.results.length, PAGES.length, 'every page is in the bundle');
  } finally {
    await pf.destroy();
    await host.close();
  }
});

test('one part for a site within the limits: its list of other parts is empty', async () => {
  const result = await write();
  assert.is(result.parts, 1);
  assert.equal(BundleParts.parse(JSON.parse(fs.readFileSync(path.join(bundle, PARTS_FILE), 'utf8'))), { parts: [] });
});

/** Every page found through Pagefind's own script, with the bundle's other parts merged in as a client does. */
async function searchAllParts(dir: string, term: string | null, filters?: Record<string, string>): Promise<string[]> {
  const host = await serveFiles(path.dirname(dir));
  const pf = await import(`${pathToFileURL(path.join(dir, 'pagefind.js')).href}?${path.basename(dir)}`) as PagefindApi;
  try {
    const base = `${host.origin}/${path.basename(dir)}/`;
    await pf.options({ basePath: base });
    const { parts } = BundleParts.parse(await (await fetch(new URL(PARTS_FILE, base))).json());
    for (const part of parts) await pf.mergeIndex(new URL(part, base).href);
    const found = await pf.search(term, filters ? { filters } : {});
    // Merged parts give site paths, a lone bundle URLs on the origin it was loaded from.
    return (await Promise.all(found.results.map(async (r) => new URL((await r.data()).url, host.origin).pathname))).sort();
  } finally {
    await pf.destroy();
    await host.close();
  }
}

test('a site past a part\'s limits is written in parts, each a whole bundle with its own process, merged by clients', async () => {
  const dir = path.join(root, 'by-pages');
  const result = await writePagefindBundle({ pages: PAGES, outDir: dir, partLimits: { pages: 2, textChars: 1e9 } });
  assert.equal({ indexed: result.indexed, parts: result.parts }, { indexed: PAGES.length, parts: 3 });
  assert.equal(BundleParts.parse(JSON.parse(fs.readFileSync(path.join(dir, PARTS_FILE), 'utf8'))), { parts: ['part-2/', 'part-3/'] });
  const files = filesUnder(dir);
  assert.is(result.files, files.length);
  for (const part of ['', 'part-2/', 'part-3/']) {
    assert.ok(files.includes(`${part}pagefind-entry.json`), `${part || 'first part'}: an entry`);
    assert.is(files.filter((f) => f.startsWith(part) && f.slice(part.length).match(/^pagefind\.[^/]+\.pf_meta$/)).length, 1, `${part || 'first part'}: one meta`);
  }
  for (const f of files.filter((name) => /\.pf_\w+$/.test(name))) assert.ok(isContentHashed(f), `${f} told hashed`);
  assert.ok(await pagefindChildrenGone({ except: before }), `Pagefind left running: ${pagefindChildren().join(' ')}`);

  assert.equal(await searchAllParts(dir, null), PAGES.map((p) => p.path).sort(), 'every page, once');
  assert.equal(await searchAllParts(dir, 'fontanero'), ['/guias/fuga-de-agua/', '/servicios/fontaneria/bilbao/', '/servicios/fontaneria/madrid/']);
  assert.equal(await searchAllParts(dir, 'fontanero', { city: 'bilbao' }), ['/servicios/fontaneria/bilbao/']);
});

test('a part closes once its text reaches the limit, and holds one page at least', async () => {
  const dir = path.join(root, 'by-text');
  const result = await writePagefindBundle({ pages: PAGES, outDir: dir, partLimits: { pages: 1000, textChars: 1 } });
  assert.is(result.parts, PAGES.length, 'one page a part');
  assert.equal(await searchAllParts(dir, null), PAGES.map((p) => p.path).sort());
});

test.run();
