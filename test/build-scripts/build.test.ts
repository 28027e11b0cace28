/**
 * The read-model pipeline on fixture mini-sites (no Astro): what a good build publishes, and
 * that a failing one names its stage and page and leaves the published model current.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BuildError, buildReadModel, type BuildOptions } from '../../build-scripts/build.ts';
import { KEEP_BUILDS, prune } from '../../build-scripts/stages/publish.ts';
import { ROOT } from '../../server/config.ts';
import { SEARCH_PAGE_PATH } from '../../formats/search-page.ts';
import { pointerPath, readPointer } from '../../formats/read-model/pointer.ts';
import { ManifestSchema, ReadModelPageSchema } from '../../formats/schemas/read-model.ts';
import { CompanyInfoSchema, COMPANY_SECTIONS } from '../../formats/schemas/resources.ts';
import { pagefindChildren, pagefindChildrenGone } from '../helpers/processes.ts';
import { BUNDLES_DIR } from '../../formats/pagefind-bundle.ts';
import { threads, threadsSettled } from '../helpers/threads.ts';
import { basePages, createFixtureSite, SITE_URL, type FixtureSite, type PageSpec } from './fixture-site.ts';

/** A fixture site has a few pages: one worker thread reads them all, started once per build. */
function options(site: FixtureSite, lines: string[] = []): BuildOptions {
  return { distDir: site.distDir, outDir: site.outDir, contentDir: site.contentDir, siteUrl: SITE_URL, skipAstro: true, workers: 1, log: (l) => lines.push(l) };
}

async function readJson(file: string): Promise<unknown> {
  return JSON.parse(await fs.readFile(file, 'utf8'));
}

/** Everything under the read-model folder (names and contents), to prove a failed build touched nothing. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const file = path.join(e.parentPath, e.name);
    if (e.name === '.build.lock') continue;
    out[path.relative(dir, file)] = (await fs.readFile(file)).toString('base64');
  }
  return out;
}

async function expectFailure(promise: Promise<unknown>): Promise<BuildError> {
  try {
    await promise;
  } catch (err) {
    assert.instance(err, BuildError);
    return err as BuildError;
  }
  assert.unreachable('the build should have failed');
  throw new Error('unreachable');
}

/** A test on a fresh fixture site, removed afterwards. */
function siteTest(name: string, fn: (site: FixtureSite) => Promise<void>, pages: () => Record<string, PageSpec> = basePages): void {
  test(name, async () => {
    const site = await createFixtureSite(pages());
    try {
      await fn(site);
    } finally {
      await site.cleanup();
    }
  });
}

/** Publishes a good build, breaks the site, and checks the next build fails and leaves the model exactly as it was. */
async function failsKeepingPrevious(site: FixtureSite, breakSite: () => Promise<void>): Promise<BuildError> {
  const first = await buildReadModel(options(site));
  const before = await snapshot(site.outDir);
  await breakSite();
  const err = await expectFailure(buildReadModel(options(site)));
  assert.is(await readPointer(site.outDir), first.buildId);
  assert.equal(await snapshot(site.outDir), before, 'the failed build changed the read model folder');
  return err;
}

siteTest('a good build publishes valid pages, company sections, search index and manifest, and switches the pointer', async (site) => {
  const lines: string[] = [];
  const result = await buildReadModel(options(site, lines));
  assert.is(await readPointer(site.outDir), result.buildId);
  assert.is(result.previous, null);

  const dir = path.join(site.outDir, 'builds', result.buildId);
  const manifest = ManifestSchema.parse(await readJson(path.join(dir, 'manifest.json')));
  assert.is(manifest.build_id, result.buildId);
  assert.is(manifest.site_url, SITE_URL);
  assert.equal(manifest.counts, { pages: 9, cities: 1, services: 1, guides: 1, company_sections: 5 });
  for (const stage of ['crawl', 'extract', 'pages', 'company', 'search', 'validate', 'site']) {
    assert.type(manifest.timings_ms[stage], 'number', `timing of ${stage}`);
  }

  const files = (await fs.readdir(path.join(dir, 'pages'))).sort();
  assert.equal(files, [
    'aviso-legal.json', 'ciudades.json', 'contacto.json', 'fontaneria-madrid.json', 'fontaneria.json',
    'fuga.json', 'inicio.json', 'madrid.json', 'servicios.json',
  ]);
  const page = ReadModelPageSchema.parse(await readJson(path.join(dir, 'pages', 'fontaneria-madrid.json')));
  assert.is(page.url, `${SITE_URL}/servicios/fontaneria/madrid/`);
  assert.is(page.path, '/servicios/fontaneria/madrid/');
  assert.is(page.title, 'Fontanería en Madrid');
  assert.is(page.kind, 'service-city');
  assert.is(page.city, 'madrid');
  assert.is(page.description, 'Descripción de Fontanería en Madrid');
  assert.ok(page.markdown.startsWith('# Fontanería en Madrid\n'));
  assert.ok(page.markdown.includes(`[Enlace a ../](${SITE_URL}/servicios/fontaneria/)`), 'relative link made absolute');
  assert.ok(page.markdown.includes('| Grifo | 45 € |'), 'table kept');
  for (const chrome of ['Menú', 'Casa Fixture', 'Publicidad lateral', 'Pie de Casa Fixture']) {
    assert.not.ok(page.markdown.includes(chrome), `"${chrome}" leaked into the Markdown`);
  }

  const all = CompanyInfoSchema.parse(await readJson(path.join(dir, 'company', 'all.json')));
  assert.is(all.website, SITE_URL);
  assert.equal(all.services, [{ name: 'Fontanería', url: `${SITE_URL}/servicios/fontaneria/` }]);
  assert.equal(all.cities, [{ slug: 'madrid', name: 'Madrid', url: `${SITE_URL}/ciudades/madrid/` }]);
  assert.equal(all.pages, {
    contacto: `${SITE_URL}/contacto/`, aviso_legal: `${SITE_URL}/aviso-legal/`, precios_fontaneria: `${SITE_URL}/servicios/fontaneria/#precios`,
  });
  const contact = await readJson(path.join(dir, 'company', 'contact.json'));
  assert.equal(Object.keys(contact as object), ['brand', 'website', 'legal_name', 'phone', 'email', 'hours']);
  for (const section of COMPANY_SECTIONS) CompanyInfoSchema.parse(await readJson(path.join(dir, 'company', `${section}.json`)));
  assert.ok((await fs.readdir(path.join(dir, 'search'))).length > 0, 'search index written');

  assert.ok(lines.some((l) => l.startsWith('✓ pages')), 'stage lines logged');
  assert.equal(result.warnings, []);
  assert.equal((await fs.readdir(path.join(site.outDir, 'builds'))).filter((n) => n.startsWith('.')), [], 'no staging left');
  assert.equal((await fs.readdir(dir)).filter((n) => n.startsWith('.')), [], 'no Markdown spill left in the build');

  const second = await buildReadModel(options(site));
  assert.is(second.previous, result.buildId);
  assert.is(await readPointer(site.outDir), second.buildId);
  assert.ok(second.buildId > result.buildId, 'build ids sort by time');
  const pageAgain = await readJson(path.join(site.outDir, 'builds', second.buildId, 'pages', 'fontaneria-madrid.json')) as { hash: string };
  assert.is(pageAgain.hash, page.hash, 'same content, same hash');
});

siteTest('a broken internal link fails at crawl naming the page and target; the previous model stays current', async (site) => {
  const err = await failsKeepingPrevious(site, () => site.writePage('/contacto/', { h1: 'Contacto', links: ['../no-existe/'] }));
  assert.is(err.stage, 'crawl');
  assert.is(err.page, '/contacto/');
  assert.is(err.message, 'build failed at stage crawl, page /contacto/: broken link to ../no-existe/');
});

siteTest('a relative link is resolved against each page that holds it', async (site) => {
  // `fontaneria/` is /servicios/fontaneria/ from /servicios/ (built) and /ciudades/fontaneria/ from /ciudades/ (not).
  const err = await failsKeepingPrevious(site, () => site.writePage('/ciudades/', { h1: 'Ciudades', links: ['/ciudades/madrid/', 'fontaneria/'] }));
  assert.is(err.message, 'build failed at stage crawl, page /ciudades/: broken link to fontaneria/');
});

siteTest('a build stops the Pagefind processes its workers kept between sessions, and collects their exit', async (site) => {
  const before = pagefindChildren({ zombies: true });
  await buildReadModel({ ...options(site), workers: 2 });
  assert.ok(await pagefindChildrenGone({ zombies: true, except: before }), `left: ${pagefindChildren({ zombies: true }).join(' ')}`);
});

siteTest('a failing build stops its worker threads', async (site) => {
  await buildReadModel(options(site));
  const before = threads();
  await site.writePage('/contacto/', { h1: 'Contacto', links: ['/nada/'] });
  const err = await expectFailure(buildReadModel({ ...options(site), workers: 2 }));
  assert.is(err.stage, 'crawl');
  assert.is(await threadsSettled(before), before);
});

siteTest('the build\'s site holds copies of Astro\'s files with its own siblings; dist/ and a published build are never changed', async (site) => {
  const big = `<svg xmlns="http://www.w3.org/2000/svg">${'<g/>'.repeat(400)}</svg>`;
  await fs.writeFile(path.join(site.distDir, 'big.svg'), big);
  const distBefore = (await fs.readdir(site.distDir, { recursive: true })).sort();
  const first = await buildReadModel(options(site));
  const siteDir = path.join(site.outDir, 'builds', first.buildId, 'site');
  const [copied, original] = await Promise.all([fs.stat(path.join(siteDir, 'big.svg')), fs.stat(path.join(site.distDir, 'big.svg'))]);
  assert.is.not(copied.ino, original.ino, 'Astro\'s own file is copied');
  assert.equal((await fs.readdir(site.distDir, { recursive: true })).sort(), distBefore, 'dist/ is left as Astro wrote it');
  const publishedBr = await fs.readFile(path.join(siteDir, 'big.svg.br'));
  assert.is(brotliDecompressSync(publishedBr).toString(), big);

  // Astro rewrites the file in place; the next build compresses it again.
  const changed = big.replace('<g/>', '<circle/>');
  await fs.writeFile(path.join(site.distDir, 'big.svg'), changed);
  const second = await buildReadModel(options(site));
  assert.is(await fs.readFile(path.join(siteDir, 'big.svg'), 'utf8'), big, 'the published build keeps its file');
  assert.equal(await fs.readFile(path.join(siteDir, 'big.svg.br')), publishedBr, 'and its sibling');
  const secondSite = path.join(site.outDir, 'builds', second.buildId, 'site');
  assert.is(await fs.readFile(path.join(secondSite, 'big.svg'), 'utf8'), changed);
  assert.is(brotliDecompressSync(await fs.readFile(path.join(secondSite, 'big.svg.br'))).toString(), changed);
  assert.is(gunzipSync(await fs.readFile(path.join(secondSite, 'big.svg.gz'))).toString(), changed);
});

siteTest('the build is followed by Pagefind\'s bundle of every page; a pagefind/ dist/ carried is not copied', async (site) => {
  await fs.mkdir(path.join(site.distDir, 'pagefind'));
  await fs.writeFile(path.join(site.distDir, 'pagefind', 'pagefind.js'), 'stale');
  const lines: string[] = [];
  const result = await buildReadModel(options(site, lines));
  const bundle = path.join(site.outDir, BUNDLES_DIR, result.buildId);
  for (const file of ['pagefind.js', 'pagefind-entry.json', 'wasm.es.pagefind']) assert.ok(fsSync.existsSync(path.join(bundle, file)), file);
  assert.is.not(await fs.readFile(path.join(bundle, 'pagefind.js'), 'utf8'), 'stale', 'the build\'s own pagefind.js');
  assert.ok((await fs.readdir(path.join(bundle, 'fragment'))).length > 0, 'fragments');
  assert.not.ok(fsSync.existsSync(path.join(site.outDir, 'builds', result.buildId, 'site', 'pagefind')), 'no bundle in the site');
  assert.type(result.timings.pagefind, 'number', 'timing of pagefind');
  assert.ok(lines.some((l) => /^✓ pagefind .* 9 pages indexed/.test(l)), lines.join('\n'));
});

siteTest('the site and crawl stages share one listing of the built site', async (site) => {
  const listings: string[] = [];
  const readdirSync = fsSync.readdirSync;
  fsSync.readdirSync = ((dir: fsSync.PathLike, opts?: unknown) => {
    if (path.resolve(String(dir)) === path.resolve(site.distDir)) listings.push(String(dir));
    return (readdirSync as (d: fsSync.PathLike, o?: unknown) => unknown)(dir, opts);
  }) as typeof fsSync.readdirSync;
  let result: Awaited<ReturnType<typeof buildReadModel>>;
  try {
    result = await buildReadModel(options(site));
  } finally {
    fsSync.readdirSync = readdirSync;
  }
  assert.is(listings.length, 1, 'one listing on the main thread');
  assert.ok(result.manifest.counts.pages > 0);
  const siteDir = path.join(site.outDir, 'builds', result.buildId, 'site');
  assert.ok(fsSync.existsSync(path.join(siteDir, 'index.html')), 'the site stage copied from it');
});

siteTest('siblings an older build left in dist/ are made again from their file; other .gz files are copied', async (site) => {
  const big = `<svg xmlns="http://www.w3.org/2000/svg">${'<g/>'.repeat(400)}</svg>`;
  await fs.writeFile(path.join(site.distDir, 'big.svg'), big);
  await fs.writeFile(path.join(site.distDir, 'big.svg.br'), 'stale');
  await fs.writeFile(path.join(site.distDir, 'big.svg.gz'), 'stale');
  await fs.writeFile(path.join(site.distDir, 'datos.csv.gz'), 'a download');
  const result = await buildReadModel(options(site));
  const siteDir = path.join(site.outDir, 'builds', result.buildId, 'site');
  assert.is(brotliDecompressSync(await fs.readFile(path.join(siteDir, 'big.svg.br'))).toString(), big);
  assert.is(gunzipSync(await fs.readFile(path.join(siteDir, 'big.svg.gz'))).toString(), big);
  assert.is(await fs.readFile(path.join(siteDir, 'datos.csv.gz'), 'utf8'), 'a download');
});

siteTest('a page without a title fails at extract; the previous model stays current', async (site) => {
  const err = await failsKeepingPrevious(site, () => site.writePage('/aviso-legal/', { body: '<p>Sin título.</p>' }));
  assert.is(err.message, 'build failed at stage extract, page /aviso-legal/: page has no title (no <h1> and no <title>)');
});

siteTest('npm run build prints one error line and exits 1 on failure', async (site) => {
  await site.writePage('/contacto/', { h1: 'Contacto', links: ['/nada/'] });
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'build-scripts', 'build.ts'), '--skip-astro'], {
    cwd: ROOT,
    env: { ...process.env, SITE_URL, DIST_DIR: path.join(site.root, 'dist'), READ_MODEL_DIR: site.outDir, CI: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
  const code = await new Promise((resolve) => child.once('close', resolve));
  assert.is(code, 1);
  const last = stderr.trimEnd().split('\n').pop();
  assert.is(last, 'build failed at stage crawl, page /contacto/: broken link to /nada/');
  assert.is(await readPointer(site.outDir), null);
});

siteTest('pages only the sitemap lists are published and reported; output-only orphans and missing anchors are reported', async (site) => {
  await site.writePage('/borrador/', { h1: 'Borrador', kind: 'info', city: '' });
  const result = await buildReadModel(options(site));
  assert.equal(result.warnings, [
    '2 page(s) no link reaches: /borrador/ /guias/huerfana/',
    'page /guias/huerfana/: link /contacto/#horario names a missing anchor #horario',
  ]);
  const files = await fs.readdir(path.join(result.buildDir, 'pages'));
  assert.ok(files.includes('huerfana.json'));
  assert.not.ok(files.includes('borrador.json'));
}, () => ({ ...basePages(), '/guias/huerfana/': { h1: 'Guía huérfana', kind: 'guide', city: '', links: ['/contacto/#horario'] } }));

siteTest('the search results page is built as a shell the server fills: links to it pass, it is neither published nor reported, the build\'s site holds it', async (site) => {
  await site.writePage(SEARCH_PAGE_PATH, { h1: 'Buscar', kind: 'info', city: '' });
  await site.writePage('/contacto/', { h1: 'Contacto', links: [SEARCH_PAGE_PATH, `${SEARCH_PAGE_PATH}?q=grifo&ciudad=madrid`] });
  const result = await buildReadModel(options(site));
  assert.equal(result.warnings, []);
  assert.not.ok((await fs.readdir(path.join(result.buildDir, 'pages'))).includes('buscar.json'));
  assert.ok((await fs.stat(path.join(result.buildDir, 'site', 'buscar', 'index.html'))).isFile());
});

siteTest('two pages with the same slug fail at extract', async (site) => {
  await site.writePage('/contacto/', { h1: 'Contacto', links: ['/guias/fontaneria/'] });
  await site.writePage('/guias/fontaneria/', { h1: 'Guía de fontanería' });
  const err = await expectFailure(buildReadModel(options(site)));
  assert.is(err.message, 'build failed at stage extract, page /servicios/fontaneria/: slug "fontaneria" is already used by /guias/fontaneria/');
  assert.is(await readPointer(site.outDir), null);
});

siteTest('a city the contract does not know fails at extract', async (site) => {
  await site.writePage('/contacto/', { h1: 'Contacto', city: 'atlantis' });
  const err = await expectFailure(buildReadModel(options(site)));
  assert.is(err.message, 'build failed at stage extract, page /contacto/: agentes:city "atlantis" is not a city slug of the contract');
});

siteTest('a company URL without a published page fails at company', async (site) => {
  await fs.writeFile(path.join(site.contentDir, 'cities.json'), JSON.stringify([{ id: 'madrid', name: 'Madrid' }, { id: 'bilbao', name: 'Bilbao' }]));
  const err = await expectFailure(buildReadModel(options(site)));
  assert.is(err.message, 'build failed at stage company, page /ciudades/bilbao/: cities.json "bilbao" links to /ciudades/bilbao/, which is not a published page');
  assert.is(await readPointer(site.outDir), null);
  assert.equal(await fs.readdir(path.join(site.outDir, 'builds')), [], 'the staging folder is removed');
});

siteTest('the pointer is replaced by rename: a reader polling it never sees a partial file or a missing build', async (site) => {
  const first = await buildReadModel(options(site));
  const inode = (await fs.stat(pointerPath(site.outDir))).ino;
  // A separate process reads the pointer and the manifest it names as fast as it can.
  const reader = spawn(process.execPath, ['-e', `
    const fs = require('fs'), path = require('path');
    const dir = ${JSON.stringify(site.outDir)};
    let reads = 0, bad = [];
    const stop = Date.now() + 60000;
    process.stdin.on('data', () => { console.log(JSON.stringify({ reads, bad })); process.exit(0); });
    (function loop() {
      for (let i = 0; i < 200 && Date.now() < stop; i++) {
        reads++;
        try {
          const { build_id } = JSON.parse(fs.readFileSync(path.join(dir, 'current'), 'utf8'));
          JSON.parse(fs.readFileSync(path.join(dir, 'builds', build_id, 'manifest.json'), 'utf8'));
        } catch (e) { bad.push(String(e.message)); }
      }
      setImmediate(loop);
    })();`], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  reader.stdout.on('data', (d: Buffer) => { out += d.toString(); });
  const ids = [first.buildId];
  for (let i = 0; i < 4; i++) ids.push((await buildReadModel(options(site))).buildId);
  reader.stdin.write('stop\n');
  await new Promise((resolve) => reader.once('close', resolve));
  const { reads, bad } = JSON.parse(out) as { reads: number; bad: string[] };
  assert.ok(reads > 100, `the reader ran (${reads} reads)`);
  assert.equal(bad, [], 'the reader saw a broken pointer or a half-published build');

  assert.is.not((await fs.stat(pointerPath(site.outDir))).ino, inode, 'the pointer file was rewritten in place, not renamed over');
  assert.equal((await fs.readdir(site.outDir)).sort(), ['builds', 'cache', 'current', 'pagefind'], 'no temp files left beside the pointer');
  const kept = (await fs.readdir(path.join(site.outDir, 'builds'))).sort();
  assert.equal(kept, ids.slice(-KEEP_BUILDS), `keeps the newest ${KEEP_BUILDS} builds`);
});

/**
 * A stand-in `astro` package in the site's root, its command named by its package.json as Astro's
 * is. As `astro build` does, it empties its --outDir and writes the whole site to its client/ (the
 * fixture's pages, copied when it is installed), then runs `source`, which sees `outDir`, `dist`
 * and `hadOutput` (an old output was there when it started) and may edit the pages or fail.
 */
async function fakeAstro(site: FixtureSite, source: string): Promise<void> {
  const pages = path.join(site.root, 'astro-pages');
  await fs.cp(site.distDir, pages, { recursive: true });
  const dir = path.join(site.root, 'node_modules', 'astro');
  await fs.mkdir(path.join(dir, 'bin'), { recursive: true });
  await fs.writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'astro', bin: { astro: './bin/astro.cjs' } }));
  await fs.writeFile(path.join(dir, 'bin', 'astro.cjs'), `
    const fs = require('fs'), path = require('path');
    const outDir = process.argv[process.argv.indexOf('--outDir') + 1], dist = path.join(outDir, 'client');
    const hadOutput = fs.existsSync(outDir);
    fs.rmSync(outDir, { recursive: true, force: true });
    fs.cpSync(${JSON.stringify(pages)}, dist, { recursive: true });
    ${source}
  `);
}

siteTest('the astro stage runs astro build into DIST_DIR with SITE_URL and telemetry off, and fails with its output', async (site) => {
  const seen = path.join(site.root, 'seen.json');
  await fakeAstro(site, `
    fs.writeFileSync(${JSON.stringify(seen)}, JSON.stringify({ argv: process.argv.slice(2), site: process.env.SITE_URL, telemetry: process.env.ASTRO_TELEMETRY_DISABLED }));
    console.log('\u001b[34m  ├─\u001b[39m /a/index.html (+1ms)');
    console.log('  └─ /b/index.html (+1ms)');
    if (process.env.FAKE_ASTRO_FAIL) { console.error('[ERROR] Cannot read frontmatter of guias/x.md'); process.exit(3); }
  `);
  const lines: string[] = [];
  const result = await buildReadModel({ ...options(site, lines), skipAstro: false, root: site.root });
  // Astro writes <outDir>/client: the folder the crawler reads.
  assert.equal(JSON.parse(await fs.readFile(seen, 'utf8')), { argv: ['build', '--outDir', path.dirname(site.distDir)], site: SITE_URL, telemetry: '1' });
  assert.ok(lines.some((l) => /^✓ astro .* 2 pages built, 2 rendered$/.test(l)), lines.join('\n'));
  assert.type(result.timings.astro, 'number');

  process.env.FAKE_ASTRO_FAIL = '1';
  try {
    lines.length = 0;
    const err = await expectFailure(buildReadModel({ ...options(site, lines), skipAstro: false, root: site.root }));
    assert.is(err.message, 'build failed at stage astro: astro build exited with code 3');
    assert.ok(lines.includes('  astro | [ERROR] Cannot read frontmatter of guias/x.md'), 'astro output shown on failure');
    assert.is(await readPointer(site.outDir), result.buildId);
  } finally {
    delete process.env.FAKE_ASTRO_FAIL;
  }
});

siteTest('Astro finds its last output set aside and removed, with any an interrupted build left; a failed Astro leaves the served site, --skip-astro moves nothing', async (site) => {
  const seen = path.join(site.root, 'seen.json');
  await fakeAstro(site, `
    fs.writeFileSync(${JSON.stringify(seen)}, JSON.stringify({ hadOutput }));
    if (process.env.FAKE_ASTRO_FAIL) process.exit(3);
  `);
  const setAside = async () => (await fs.readdir(site.root)).filter((n) => n.startsWith('.dist-old-'));
  const interrupted = path.join(site.root, '.dist-old-1-1', 'client');
  await fs.mkdir(interrupted, { recursive: true });
  await fs.writeFile(path.join(interrupted, 'index.html'), '<p>old</p>');
  const build = () => buildReadModel({ ...options(site), skipAstro: false, root: site.root });
  const first = await build();
  assert.equal(JSON.parse(await fs.readFile(seen, 'utf8')), { hadOutput: false }, 'the old output was set aside before Astro ran');
  assert.equal(await setAside(), [], 'what was set aside is removed by the time the build ends');
  assert.is(first.manifest.counts.pages, 9);

  const served = path.join(site.outDir, 'builds', first.buildId, 'site', 'index.html');
  const page = await fs.readFile(served, 'utf8');
  process.env.FAKE_ASTRO_FAIL = '1';
  try {
    await expectFailure(build());
  } finally {
    delete process.env.FAKE_ASTRO_FAIL;
  }
  assert.is(await readPointer(site.outDir), first.buildId);
  assert.is(await fs.readFile(served, 'utf8'), page, 'the site served is the published build\'s');
  assert.equal(await setAside(), []);

  await fs.rm(seen);
  const client = (await fs.stat(site.distDir)).ino;
  await buildReadModel(options(site));
  assert.not.ok(fsSync.existsSync(seen), '--skip-astro runs no Astro');
  assert.is((await fs.stat(site.distDir)).ino, client, '--skip-astro reads dist/client where it is');
  assert.equal(await setAside(), []);
});

/**
 * A stand-in `astro` that writes its content store with Astro's own MutableDataStore, from the
 * fixture's content folder, and the guide's page from the store as written on disk, as Astro
 * bundles it. FAKE_ASTRO_STALE=store keeps a store already there (Astro 5's lost write);
 * FAKE_ASTRO_STALE=page writes the page from text that is in no source (a bundle of another
 * store: the check reads the pages of changed guides only, so the test changes the guide too).
 */
async function storeAstro(site: FixtureSite): Promise<void> {
  const module = (...parts: string[]) => pathToFileURL(path.join(ROOT, 'node_modules', ...parts)).href;
  await fakeAstro(site, `
    const content = ${JSON.stringify(site.contentDir)};
    const file = path.join(${JSON.stringify(site.root)}, 'node_modules', '.astro', 'data-store.json');
    (async () => {
      const { MutableDataStore } = await import(${JSON.stringify(module('astro', 'dist', 'content', 'mutable-data-store.js'))});
      const devalue = await import(${JSON.stringify(module('devalue', 'index.js'))});
      const { h64ToString } = await (await import(${JSON.stringify(module('xxhash-wasm', 'esm', 'xxhash-wasm.js'))})).default();
      const render = (text) => '<p>' + text.split('---\\n').at(-1).trim() + '</p>';
      if (!(process.env.FAKE_ASTRO_STALE === 'store' && fs.existsSync(file))) {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        const store = await MutableDataStore.fromFile(require('url').pathToFileURL(file));
        const json = (name) => JSON.parse(fs.readFileSync(path.join(content, name), 'utf8'));
        store.scopedStore('company').set({ id: 'empresa', data: json('company.json') });
        for (const s of json('services.json')) store.scopedStore('services').set({ id: s.id, data: s });
        for (const c of json('cities.json')) store.scopedStore('cities').set({ id: c.id, data: c });
        for (const name of fs.readdirSync(path.join(content, 'guides'))) {
          const text = fs.readFileSync(path.join(content, 'guides', name), 'utf8');
          store.scopedStore('guides').set({ id: name.slice(0, -3), data: {}, filePath: 'content/guides/' + name, digest: h64ToString(text), rendered: { html: render(text) } });
        }
        await store.waitUntilSaveComplete();
      }
      for (const entry of devalue.parse(fs.readFileSync(file, 'utf8')).get('guides').values()) {
        const page = path.join(dist, 'guias', entry.id, 'index.html');
        const html = process.env.FAKE_ASTRO_STALE === 'page' ? '<p>Texto que no está en ninguna guía.</p>' : entry.rendered.html;
        fs.writeFileSync(page, fs.readFileSync(page, 'utf8').replace('</main>', '<div class="guia">' + html + '</div></main>'));
      }
    })().catch((err) => { console.error(err); process.exit(1); });
  `);
  await fs.mkdir(path.join(site.contentDir, 'guides'));
  await fs.writeFile(path.join(site.contentDir, 'guides', 'fuga.md'), '---\ntitle: "Fuga de agua"\n---\n\nCierra la llave de paso.\n');
}

siteTest('a site astro built from a stale content store is built again from the sources, or the build fails naming the page', async (site) => {
  await storeAstro(site);
  const build = (lines: string[]) => buildReadModel({ ...options(site, lines), skipAstro: false, root: site.root });
  const guideMarkdown = async (buildId: string) =>
    ReadModelPageSchema.parse(await readJson(path.join(site.outDir, 'builds', buildId, 'pages', 'fuga.json'))).markdown;
  const first = await build([]);
  assert.ok((await guideMarkdown(first.buildId)).includes('Cierra la llave de paso.'));

  await fs.appendFile(path.join(site.contentDir, 'guides', 'fuga.md'), '\n## Si gotea el tragaluz\n\nRevisa las tejas.\n');
  process.env.FAKE_ASTRO_STALE = 'store';
  try {
    const lines: string[] = [];
    const second = await build(lines);
    const retried = lines.filter((l) => l.startsWith('warning: astro: '));
    assert.is(retried.length, 1, lines.join('\n'));
    assert.match(retried[0]!, /^warning: astro: \/guias\/fuga\/ was built from stale content \(Astro's content store holds an older content\/guides\/fuga\.md \(digest [0-9a-f]{16}, the file's is [0-9a-f]{16}\)\); building again with Astro's caches cleared$/);
    assert.ok((await guideMarkdown(second.buildId)).includes('Si gotea el tragaluz'), 'the edit is published');
    assert.equal(second.warnings, [retried[0]!.slice('warning: '.length)]);

    await fs.appendFile(path.join(site.contentDir, 'guides', 'fuga.md'), '\nY llama al tejador.\n');
    process.env.FAKE_ASTRO_STALE = 'page';
    const err = await expectFailure(build([]));
    assert.is(err.message, 'build failed at stage astro, page /guias/fuga/: the built site does not reflect the sources: the built page does not hold content/guides/fuga.md as it renders');
    assert.is(await readPointer(site.outDir), second.buildId, 'the published model stays as it was');
  } finally {
    delete process.env.FAKE_ASTRO_STALE;
  }
});

siteTest('SITE_URL unset: the build, Astro included, takes the local address on PORT', async (site) => {
  const seen = path.join(site.root, 'seen.json');
  await fakeAstro(site, `fs.writeFileSync(${JSON.stringify(seen)}, JSON.stringify({ site: process.env.SITE_URL }));`);
  const saved = { SITE_URL: process.env.SITE_URL, PORT: process.env.PORT };
  delete process.env.SITE_URL;
  process.env.PORT = '5210';
  let build: Promise<unknown>;
  try {
    build = buildReadModel({ ...options(site), siteUrl: undefined, skipAstro: false, root: site.root });
  } finally {
    for (const [name, value] of Object.entries(saved)) if (value === undefined) delete process.env[name]; else process.env[name] = value;
  }
  // The fixture's pages say they are on ${SITE_URL}: the crawl of a build on another address refuses them.
  const err = await expectFailure(build);
  assert.match(err.message, 'not on SITE_URL http://localhost:5210');
  assert.equal(JSON.parse(await fs.readFile(seen, 'utf8')), { site: 'http://localhost:5210' });
});

siteTest('prune keeps the newest builds, the current one and the one just replaced', async (site) => {
  const builds = path.join(site.outDir, 'builds');
  const ids = ['20250101T000000000Z-aaaaaa', '20250102T000000000Z-bbbbbb', '20250103T000000000Z-cccccc', '20250104T000000000Z-dddddd', '20250105T000000000Z-eeeeee'];
  for (const id of ids) await fs.mkdir(path.join(builds, id), { recursive: true });
  const removed = await prune(site.outDir, [ids[4]!, ids[0]!]);
  assert.equal(removed, [ids[1]]);
  assert.equal((await fs.readdir(builds)).sort(), [ids[0], ids[2], ids[3], ids[4]]);
});

siteTest('a file the site stage cannot copy fails it naming the file; the previous model stays current and no thread is left', async (site) => {
  await buildReadModel(options(site));
  const before = threads();
  // A named pipe: fs.cp refuses to copy one.
  const fifo = path.join(site.distDir, 'pipe.txt');
  const err = await failsKeepingPrevious(site, async () => {
    const made = spawn('mkfifo', [fifo], { stdio: 'inherit' });
    assert.is(await new Promise((resolve) => made.on('close', resolve)), 0, 'mkfifo');
  });
  assert.is(err.stage, 'site');
  assert.is(err.page, fifo);
  assert.match(err.detail, /pipe|FIFO/i);
  assert.is(await threadsSettled(before), before);
});

siteTest('the site stage writes gzip and brotli siblings of text files of 1 KB or more', async (site) => {
  await fs.writeFile(path.join(site.distDir, 'big.svg'), `<svg xmlns="http://www.w3.org/2000/svg">${'<g/>'.repeat(400)}</svg>`);
  await fs.writeFile(path.join(site.distDir, 'photo.jpg'), Buffer.alloc(4096, 7));
  // Random bytes do not compress: a sibling that is not smaller is not written.
  await fs.writeFile(path.join(site.distDir, 'noise.txt'), randomBytes(4096));
  const result = await buildReadModel(options(site));
  const siteDir = path.join(site.outDir, 'builds', result.buildId, 'site');
  for (const file of ['_astro/site.css', 'big.svg']) {
    const original = await fs.readFile(path.join(site.distDir, file));
    assert.equal(await fs.readFile(path.join(siteDir, file)), original, file);
    assert.equal(gunzipSync(await fs.readFile(path.join(siteDir, `${file}.gz`))), original, `${file}.gz`);
    assert.equal(brotliDecompressSync(await fs.readFile(path.join(siteDir, `${file}.br`))), original, `${file}.br`);
  }
  const names = await fs.readdir(siteDir);
  assert.ok(names.includes('robots.txt') && names.includes('photo.jpg') && names.includes('noise.txt'), 'every file is copied');
  assert.not.ok(names.includes('robots.txt.gz'), 'files under 1 KB are left alone');
  assert.not.ok(names.includes('photo.jpg.gz'), 'binary formats are left alone');
  assert.not.ok(names.includes('noise.txt.gz') || names.includes('noise.txt.br'), 'no sibling that is not smaller');
});

test.run();
