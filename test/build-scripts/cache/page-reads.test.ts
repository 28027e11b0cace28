/**
 * What the crawl keeps of each page between builds: found again only for the same HTML bytes and
 * URL, read afresh when unreadable, pruned to the pages of the last build; and a build that reuses
 * it and the site's compressed siblings publishes exactly what a full build of the same site
 * publishes, through edits, additions and removals.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildReadModel, type BuildResult } from '../../../build-scripts/build.ts';
import { loadPageRead } from '../../../build-scripts/cache/page-reads.ts';
import { readPage } from '../../../build-scripts/tasks/page-read.ts';
import { basePages, createFixtureSite, pageHtml, SITE_URL, type FixtureSite } from '../fixture-site.ts';
import { buildIdentity, identityDifferences, siteFiles } from '../../helpers/build-identity.ts';

// New reads go straight into the folder they are read from, as once a build is published.
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'agentes-page-reads-'));
const entryFiles = (dir: string) => fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));

test('an entry is found for the same bytes and URL only, and reads back as the page read afresh', async () => {
  const dir = tmp();
  const cacheDir = path.join(dir, 'cache');
  try {
    const file = path.join(dir, 'index.html');
    fs.writeFileSync(file, pageHtml(basePages()['/servicios/fontaneria/madrid/']!, '/servicios/fontaneria/madrid/'));
    const url = `${SITE_URL}/servicios/fontaneria/madrid/`;
    const fresh = await readPage({ file, url });
    const first = await readPage({ file, url, cache: { dir: cacheDir, newDir: cacheDir } });
    assert.is(first.cache?.state, 'miss');
    const again = await readPage({ file, url, cache: { dir: cacheDir, newDir: cacheDir } });
    assert.is(again.cache?.state, 'hit');
    const { cache: _a, ...fromCache } = again;
    assert.equal({ ...fromCache, facts: { ...fromCache.facts } }, { ...fresh, facts: { ...fresh.facts } }, 'the same read');
    assert.ok(fromCache.ids.has('precios'), 'element ids as a set');
    assert.is((await readPage({ file, url: `${SITE_URL}/otra/`, cache: { dir: cacheDir, newDir: cacheDir } })).cache?.state, 'miss', 'another URL, another entry');
    fs.appendFileSync(file, ' ');
    assert.is((await readPage({ file, url, cache: { dir: cacheDir, newDir: cacheDir } })).cache?.state, 'miss', 'other bytes, another entry');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('an unreadable entry is reported, read afresh and written again', async () => {
  const dir = tmp();
  try {
    const file = path.join(dir, 'index.html');
    fs.writeFileSync(file, pageHtml(basePages()['/guias/fuga/']!, '/guias/fuga/'));
    const url = `${SITE_URL}/guias/fuga/`;
    const cacheDir = path.join(dir, 'cache');
    const { cache } = await readPage({ file, url, cache: { dir: cacheDir, newDir: cacheDir } });
    const [entry] = entryFiles(cacheDir);
    fs.writeFileSync(entry!, '{"hrefs": [');
    assert.is(loadPageRead(cacheDir, cache!.key), 'damaged');
    assert.is((await readPage({ file, url, cache: { dir: cacheDir, newDir: cacheDir } })).cache?.state, 'damaged');
    assert.is((await readPage({ file, url, cache: { dir: cacheDir, newDir: cacheDir } })).cache?.state, 'hit', 'written again');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

const build = (site: FixtureSite, outDir: string, extra: { full?: boolean; log?: (l: string) => void } = {}): Promise<BuildResult> =>
  buildReadModel({ distDir: site.distDir, outDir, contentDir: site.contentDir, siteUrl: SITE_URL, skipAstro: true, log: () => {}, ...extra });

/** The content_id and page hashes of `b` against `a`'s: what differs, none when they are the same. */
const differences = async (a: BuildResult, b: BuildResult) => identityDifferences(await buildIdentity(a.buildDir), await buildIdentity(b.buildDir));

const pageJson = (result: BuildResult, slug: string) => JSON.parse(fs.readFileSync(path.join(result.buildDir, 'pages', `${slug}.json`), 'utf8')) as { markdown: string };

test('a build reusing earlier reads publishes what a full build publishes: edited, added, removed pages', async () => {
  const site = await createFixtureSite();
  const fullDir = path.join(site.root, 'full');
  try {
    const lines: string[] = [];
    const log = (l: string) => lines.push(l);
    const first = await build(site, site.outDir, { log });
    assert.ok(lines.some((l) => /crawl .*9 pages, 0 from the cache/.test(l)), lines.join('\n'));

    const pages = basePages();
    await site.writePage('/guias/fuga/', { ...pages['/guias/fuga/']!, body: '<h2>Si gotea el tragaluz</h2><p>Selle la junta del tragaluz.</p>' });
    await site.writePage('/guias/atasco/', { h1: 'Atasco', kind: 'guide', city: '' });
    await site.writePage('/', { ...pages['/']!, links: [...pages['/']!.links!, '/guias/atasco/'] });
    lines.length = 0;
    const edited = await build(site, site.outDir, { log });
    assert.ok(lines.some((l) => /crawl .*10 pages, 7 from the cache/.test(l)), lines.join('\n'));
    assert.ok(lines.some((l) => /search .*10 pages indexed, 7 from the cache/.test(l)), lines.join('\n'));
    assert.match(pageJson(edited, 'fuga').markdown, 'Si gotea el tragaluz');
    const full = await build(site, fullDir, { full: true });
    assert.equal(await differences(edited, full), [], 'edit and addition: as a full build');
    assert.equal(siteFiles(edited.buildDir), siteFiles(full.buildDir), 'the same site files and siblings, byte for byte');
    assert.is.not(edited.manifest.content_id, first.manifest.content_id);

    await site.removePage('/guias/atasco/');
    await site.writePage('/', pages['/']!);
    const removed = await build(site, site.outDir);
    assert.not.ok(fs.existsSync(path.join(removed.buildDir, 'pages', 'atasco.json')), 'the removed page is gone');
    const fullAgain = await build(site, fullDir, { full: true });
    assert.equal(await differences(removed, fullAgain), [], 'removal: as a full build');
    assert.equal(siteFiles(removed.buildDir), siteFiles(fullAgain.buildDir), 'removal: the same site files');
    const cache = path.join(site.outDir, 'cache', 'page-reads');
    const [version] = fs.readdirSync(cache);
    assert.is(entryFiles(path.join(cache, version!)).length, 9, 'pruned to the pages of the last build');

    for (const f of entryFiles(path.join(cache, version!)).slice(0, 2)) fs.writeFileSync(f, 'not json');
    lines.length = 0;
    const repaired = await build(site, site.outDir, { log });
    assert.ok(lines.some((l) => /crawl .*9 pages, 7 from the cache, 2 unreadable cache entries read again/.test(l)), lines.join('\n'));
    assert.equal(await differences(repaired, fullAgain), [], 'damaged entries: as a full build');
  } finally {
    await site.cleanup();
  }
});

test.run();
