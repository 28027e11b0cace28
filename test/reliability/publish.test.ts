/**
 * Publishing while serving. Running servers pick up a build the pipeline publishes, without a
 * restart: the new model is loaded and validated beside the old one and swapped in with one
 * reference write, so every answer comes from exactly one build; a broken build is refused with
 * a log line while the old one keeps serving; ETags change only for pages whose content changed;
 * SIGHUP reloads where watching is off; and a build folder removed underneath a server (pruned)
 * harms neither what it serves nor what it is loading.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildReadModel, type BuildOptions } from '../../build-scripts/build.ts';
import { parseConfig } from '../../server/config.ts';
import { createLogger, type Logger } from '../../server/log.ts';
import { loadModel, openModel, type ModelConfig } from '../../server/read-model/holder.ts';
import { buildPath, writePointer } from '../../formats/read-model/pointer.ts';
import { SearchPagesParams } from '../../server/schemas/params.ts';
import { searchPages } from '../../server/search/index.ts';
import { INDEX_FORMAT } from '../../formats/search/index-file.ts';
import { basePages, createFixtureSite, SITE_URL, type FixtureSite, type PageSpec } from '../build-scripts/fixture-site.ts';
import { startTestServer } from '../helpers/server.ts';
import { createReadModel } from '../helpers/read-model.ts';
import { serverEnv, startServers, stopAll, stubSite, type ServerProcess } from './helpers/cluster.ts';
import { request } from '../helpers/http.ts';
import { percentile, sleep, startLoad, type PlannedRequest, type Sample } from './helpers/load.ts';
import { writePageFiles } from '../../build-scripts/page-index.ts';
import type { ReadModelPage } from '../../formats/schemas/read-model.ts';
import { waitUntil } from '../helpers/wait.ts';

const API = '/wp-json/agentes/v1';
const GUIDE = '/guias/fuga/';
const UNCHANGED = '/servicios/fontaneria/madrid/';
const QUERIES = ['fuga', 'fontanería madrid'];

const guide = (edition: number): PageSpec => ({
  h1: `Fuga de agua, edición ${edition}`, kind: 'guide', city: '', links: ['/servicios/fontaneria/#precios'],
  body: `<p>Revisión del contenido: edición ${edition}. Cierre la llave de paso antes de avisar al fontanero.</p>`,
});

const buildOptions = (site: FixtureSite): BuildOptions => ({
  distDir: site.distDir, outDir: site.outDir, contentDir: site.contentDir, siteUrl: SITE_URL, skipAstro: true, log: () => {},
});

/** What a build answers, computed in this process from its folder: the oracle for the servers' answers. */
async function expectedAnswers(site: FixtureSite, buildId: string): Promise<Map<string, string>> {
  const config: ModelConfig = { siteUrl: SITE_URL, readModelDir: site.outDir, readPageMaxChars: 20_000, readModelCacheBytes: 1 << 20, cursorSecret: '' };
  const model = await loadModel(config, buildPath(site.outDir, buildId));
  try {
    const out = new Map<string, string>();
    for (const p of model.pages) out.set(`read_page ${p.path}`, (await model.partOf(p, 0)).body.toString('utf8'));
    for (const query of QUERIES) {
      out.set(`search ${query}`, JSON.stringify(await searchPages(model.search, SearchPagesParams.parse({ query }))));
    }
    // The HTML is published inside the build too (build-scripts/stages/site.ts).
    out.set(`html ${GUIDE}`, await fs.readFile(path.join(buildPath(site.outDir, buildId), 'site', 'guias', 'fuga', 'index.html'), 'utf8'));
    return out;
  } finally {
    await model.close();
  }
}

const publishing = suite('publishing while serving (3 processes, real pipeline)');

publishing('a rebuild under load: zero failed or mixed answers, the change served within seconds; a broken build is refused', async () => {
  const site = await createFixtureSite({ ...basePages(), [GUIDE]: guide(1) });
  let servers: ServerProcess[] = [];
  try {
    const v1 = await buildReadModel(buildOptions(site));
    servers = await startServers(3, serverEnv({
      SITE_URL, READ_MODEL_DIR: site.outDir, DIST_DIR: path.join(site.root, 'dist'),
      RATE_LIMIT_ANONYMOUS: '1000000',
    }));
    const etagsOf = async (server: ServerProcess) => {
      const out = new Map<string, string>();
      for (const p of Object.keys(basePages())) {
        const r = await request(`${server.url}${API}/read_page?url=${encodeURIComponent(p)}`);
        assert.is(r.status, 200, p);
        out.set(p, String(r.headers.etag));
      }
      out.set('company', String((await request(`${server.url}${API}/get_company_info`)).headers.etag));
      return out;
    };
    const etagsBefore = await etagsOf(servers[0]!);

    // Load: every process, the changed page, an unchanged one and two searches, without pause.
    const targets = [`${API}/read_page?url=${encodeURIComponent(GUIDE)}`, `${API}/read_page?url=${encodeURIComponent(UNCHANGED)}`, ...QUERIES.map((q) => `${API}/search_pages?query=${encodeURIComponent(q)}`), GUIDE];
    const keys = [`read_page ${GUIDE}`, `read_page ${UNCHANGED}`, ...QUERIES.map((q) => `search ${q}`), `html ${GUIDE}`];
    const load = startLoad(9, (n): PlannedRequest => {
      const target = n % 3;
      const which = Math.floor(n / 3) % targets.length;
      return { kind: keys[which]!, target, url: `${servers[target]!.url}${targets[which]}`, options: { headers: { 'Accept-Encoding': 'identity', Accept: 'text/html' } } };
    });

    await sleep(300);
    await site.writePage(GUIDE, guide(2));
    const v2 = await buildReadModel(buildOptions(site));
    const builtAt = performance.now();
    // Until every process served the new guide (checked below), then a little more.
    const firstNew = (s: number, samples: readonly Sample[]) => samples.find((x) => x.target === s && x.kind === `read_page ${GUIDE}` && x.reply?.text().includes('edición 2'));
    await waitUntil('the new guide from every process', () => servers.every((_, i) => firstNew(i, load.samples)), { everyMs: 20 }).catch(() => {});
    await sleep(300);

    // A broken build (one page fails validation; the guide would say "edición 3") is published.
    const brokenId = `${v2.buildId}-broken`;
    await fs.cp(v2.buildDir, buildPath(site.outDir, brokenId), { recursive: true });
    const pagesDir = path.join(buildPath(site.outDir, brokenId), 'pages');
    const edited: ReadModelPage[] = [];
    for (const file of await fs.readdir(pagesDir)) {
      let p = JSON.parse(await fs.readFile(path.join(pagesDir, file), 'utf8')) as ReadModelPage;
      if (p.path === GUIDE) p = { ...p, title: 'Fuga de agua, edición 3', markdown: p.markdown.replaceAll('edición 2', 'edición 3') };
      if (p.path === UNCHANGED) p = { ...p, city: 'atlantis' as never };
      edited.push(p);
    }
    // Page files, their pack and the index a server loads: the broken page is broken in all of them.
    writePageFiles(buildPath(site.outDir, brokenId), edited);
    await writePointer(site.outDir, brokenId);
    await Promise.all(servers.map((s) => s.waitForLog(new RegExp(`^new read model not loaded; still serving build ${v2.buildId}$`))));
    await sleep(300);
    const samples = await load.stop();

    // Every answer is whole and from exactly one build, byte for byte.
    const expected = [await expectedAnswers(site, v1.buildId), await expectedAnswers(site, v2.buildId)];
    const versionOf = (s: Sample): number => expected.findIndex((e) => e.get(s.kind) === s.reply?.text());
    const bad = samples.filter((s) => s.status !== 200 || versionOf(s) === -1);
    assert.equal(bad.slice(0, 3).map((s) => `${s.kind} → ${s.status || s.error}: ${s.reply?.text().slice(0, 120)}`), [], `${bad.length} failed or mixed answers`);
    assert.ok(expected[0]!.get(`read_page ${GUIDE}`) !== expected[1]!.get(`read_page ${GUIDE}`), 'the guide changed');
    assert.ok(expected[0]!.get('search fuga') !== expected[1]!.get('search fuga'), 'its search results changed');

    // Per process: the new build from one moment on, never the old one after it; within 2 s of the build's end.
    const delays: number[] = [];
    servers.forEach((_, i) => {
      const mine = samples.filter((s) => s.target === i);
      const first = firstNew(i, mine);
      assert.ok(first, `process ${i} served the new guide`);
      delays.push(first!.end - builtAt);
      const stale = mine.filter((s) => s.start > first!.end && versionOf(s) === 0 && expected[0]!.get(s.kind) !== expected[1]!.get(s.kind));
      assert.is(stale.length, 0, `process ${i} answered from the old build after the new one`);
      assert.ok(mine.filter((s) => s.start > first!.end).length > 20, 'load went on after the swap');
    });
    // A bound far above what the switch takes, so a busy machine passes too.
    assert.ok(Math.max(...delays) <= 8000, `new content served ${delays.map((d) => d.toFixed(0)).join(' / ')} ms after the build ended`);

    // ETags: only the changed page's.
    const etagsAfter = await etagsOf(servers[1]!);
    const changed = [...etagsBefore.keys()].filter((k) => etagsBefore.get(k) !== etagsAfter.get(k));
    assert.equal(changed, [GUIDE], 'only the changed page has a new ETag');

    // The broken build was refused: still build v2 everywhere, nothing of "edición 3".
    for (const s of samples.filter((x) => x.kind === `read_page ${GUIDE}`)) assert.not.match(s.reply!.text(), 'edición 3');
    for (const s of servers) {
      assert.ok(s.alive());
      assert.ok(s.logs().some((l) => l.msg === 'read model swapped' && l.build_id === v2.buildId), 'swap logged');
    }

    // A good build after the broken one is taken again, with a page that did not exist before:
    // its HTML is served by the running processes (the site is published with the read model).
    const NEW_PAGE = '/guias/nueva/';
    await site.writePage(NEW_PAGE, { h1: 'Guía nueva', kind: 'guide', city: '', links: [GUIDE], body: '<p>Una guía publicada con el servidor en marcha.</p>' });
    await site.writePage(GUIDE, { ...guide(4), links: [...(guide(4).links ?? []), NEW_PAGE] });
    for (const s of servers) assert.is((await request(`${s.url}${NEW_PAGE}`, { headers: { Accept: 'text/html' } })).status, 404, 'the new page does not exist yet');
    await buildReadModel(buildOptions(site));
    const pending = new Set(servers);
    await waitUntil('the next good build served by every process', async () => {
      for (const s of [...pending]) {
        const r = await request(`${s.url}${API}/read_page?url=${encodeURIComponent(GUIDE)}`);
        if (r.text().includes('edición 4')) pending.delete(s);
      }
      return pending.size === 0;
    }, { everyMs: 20 });
    for (const s of servers) {
      const page = await request(`${s.url}${NEW_PAGE}`, { headers: { Accept: 'text/html', 'Accept-Encoding': 'identity' } });
      assert.is(page.status, 200, 'the new page is served without a restart');
      assert.match(page.text(), 'Una guía publicada con el servidor en marcha.');
      assert.is(Number(page.headers['content-length']), Buffer.byteLength(page.text()), 'its length is the new file\'s');
      assert.match((await request(`${s.url}${GUIDE}`, { headers: { Accept: 'text/html' } })).text(), 'edición 4');
    }

    const exits = await stopAll(servers);
    for (const e of exits) assert.equal(e, { code: 0, signal: null });
    const lat = samples.map((s) => s.ms);
    console.log(`  publish under load: ${samples.length} answers, ${bad.length} failed or mixed; new content served ${delays.map((d) => d.toFixed(0)).join(' / ')} ms after the build; `
      + `p50 ${percentile(lat, 50).toFixed(1)} ms, p99 ${percentile(lat, 99).toFixed(1)} ms, max ${Math.max(...lat).toFixed(0)} ms; broken build refused by 3/3`);
  } finally {
    await stopAll(servers);
    await site.cleanup();
  }
});

publishing('SIGHUP loads a new build where watching is off; nothing new and broken builds are logged', async () => {
  const fixture = await createReadModel({ buildId: 'first' });
  const dist = await stubSite();
  let servers: ServerProcess[] = [];
  try {
    servers = await startServers(1, serverEnv({ SITE_URL: fixture.siteUrl, READ_MODEL_DIR: fixture.dir, DIST_DIR: dist.distDir, READ_MODEL_WATCH: 'off' }));
    const server = servers[0]!;
    const title = async () => (await request(`${server.url}${API}/read_page?url=fontaneria`)).json<{ title: string }>().title;
    assert.is(await title(), 'Fontanería');

    process.kill(server.pid, 'SIGHUP');
    await server.waitForLog(/^read model unchanged$/);

    await createReadModel({ dir: fixture.dir, buildId: 'second', editPages: (pages) => pages.map((p) => (p.slug === 'fontaneria' ? { ...p, title: 'Fontanería 24 h' } : p)) });
    await sleep(800);
    assert.is(await title(), 'Fontanería', 'not watched: still the first build');
    process.kill(server.pid, 'SIGHUP');
    await server.waitForLog(/^read model swapped$/);
    assert.is(await title(), 'Fontanería 24 h');

    await createReadModel({ dir: fixture.dir, buildId: 'third', editPages: (pages) => pages.map((p) => (p.slug === 'cerrajeria' ? { ...p, kind: 'nope' as never } : p)) });
    process.kill(server.pid, 'SIGHUP');
    await server.waitForLog(/^new read model not loaded; still serving build second$/);
    assert.is(await title(), 'Fontanería 24 h');
    assert.ok(server.alive());
    assert.equal(await server.stop(), { code: 0, signal: null });
  } finally {
    await stopAll(servers);
    await dist.remove();
    await fixture.remove();
  }
});

publishing('a build with a broken search index is refused; the server neither crashes nor stops serving', async () => {
  const fixture = await createReadModel({ buildId: 'good' });
  const dist = await stubSite();
  let servers: ServerProcess[] = [];
  const corruptions: Record<string, (dir: string, name: string) => Promise<void> | undefined> = {
    'empty-index': (dir, name) => (name === 'index.bin' ? fs.writeFile(path.join(dir, name), '') : undefined),
    'garbage-postings': (dir, name) => (name === 'postings.bin' ? fs.stat(path.join(dir, name)).then((s) => fs.writeFile(path.join(dir, name), Buffer.alloc(s.size, 7))) : undefined),
    'cut-postings': (dir, name) => (name === 'postings.bin' ? fs.truncate(path.join(dir, name), 100) : undefined),
    'other-format': (dir, name) => (name === 'index.bin' ? fs.readFile(path.join(dir, name)).then((b) => { b.writeUInt32LE(INDEX_FORMAT + 1, 8); return fs.writeFile(path.join(dir, name), b); }) : undefined),
  };
  try {
    servers = await startServers(1, serverEnv({ SITE_URL: fixture.siteUrl, READ_MODEL_DIR: fixture.dir, DIST_DIR: dist.distDir, LOG_LEVEL: 'info' }));
    const server = servers[0]!;
    let refused = 0;
    for (const [kind, corrupt] of Object.entries(corruptions)) {
      // Built elsewhere, broken, then published into the served folder.
      const other = await createReadModel({ buildId: kind });
      const search = path.join(buildPath(other.dir, kind), 'search');
      for (const name of await fs.readdir(search)) await corrupt(search, name);
      await fs.cp(buildPath(other.dir, kind), buildPath(fixture.dir, kind), { recursive: true });
      await other.remove();
      await writePointer(fixture.dir, kind);
      const refusals = () => server.logs().filter((l) => l.msg === 'new read model not loaded; still serving build good').length;
      await waitUntil(`${kind} refused`, () => refusals() > refused).catch(() => {});
      refused++;
      assert.is(server.logs().filter((l) => l.msg === 'new read model not loaded; still serving build good').length, refused, `${kind} refused`);
      assert.ok(server.alive(), `the server survived ${kind}`);
      const r = await request(`${server.url}${API}/search_pages?query=${encodeURIComponent('cerrajería')}`);
      assert.is(r.status, 200);
      assert.ok(r.json().results.length > 0, 'search still answers from the good build');
    }
    assert.equal(await server.stop(), { code: 0, signal: null });
  } finally {
    await stopAll(servers);
    await dist.remove();
    await fixture.remove();
  }
});

publishing.run();

const pruning = suite('builds removed underneath a server (pruning)');
const silent = createLogger('silent');
const recording = () => {
  const lines: string[] = [];
  const log: Logger = { info: (m) => lines.push(m), error: (m) => lines.push(m) };
  return { lines, log };
};
const configFor = (dir: string) => parseConfig({ SITE_URL: 'http://agentes.test', READ_MODEL_DIR: dir, LOG_LEVEL: 'silent' });

pruning('a served build can be deleted: pages, company and new searches still answer from memory', async () => {
  const fixture = await createReadModel();
  const api = await startTestServer({ fixture });
  try {
    await fs.rm(buildPath(fixture.dir, fixture.buildId), { recursive: true });
    for (const p of fixture.pages) {
      const r = await request(`${api.base}/read_page?url=${encodeURIComponent(p.path)}`);
      assert.is(r.status, 200, p.path);
      assert.is(r.json().title, p.title);
    }
    assert.is((await request(`${api.base}/get_company_info?section=contact`)).status, 200);
    for (const query of ['cerrajero vigo', 'calderas', 'fugas de agua', 'aviso legal']) {
      const r = await request(`${api.base}/search_pages?query=${encodeURIComponent(query)}`);
      assert.is(r.status, 200, query);
      assert.ok(r.json().results.length > 0, `${query} finds pages`);
    }
    assert.equal(api.logged, [], 'nothing failed');
  } finally {
    await api.close();
    await fixture.remove();
  }
});

/**
 * Holds the next read of `<build>/manifest.json` until `release()`: the manifest is replaced by a
 * FIFO, so a loader blocks on it deterministically, exactly where a prune would race it.
 */
async function blockManifest(dir: string, buildId: string) {
  const file = path.join(buildPath(dir, buildId), 'manifest.json');
  const manifest = await fs.readFile(file);
  await fs.rm(file);
  execFileSync('mkfifo', [file]);
  return {
    /** Removes the build as a prune would, except the blocked manifest (the loader holds it open). */
    async prune() {
      for (const entry of await fs.readdir(path.dirname(file))) {
        if (entry !== 'manifest.json') await fs.rm(path.join(path.dirname(file), entry), { recursive: true });
      }
    },
    async release() {
      // Opening the FIFO for writing waits for the loader's open for reading.
      const writer = await fs.open(file, 'w');
      await writer.write(manifest);
      await writer.close();
    },
  };
}

pruning('a build pruned while a server loads it: the server loads the current one instead (start and reload)', async () => {
  // At start: `current` names A; while A loads, B is published and A removed.
  const fixture = await createReadModel({ buildId: 'a' });
  try {
    const gate = await blockManifest(fixture.dir, 'a');
    const { lines, log } = recording();
    const opening = openModel(configFor(fixture.dir), log, { watch: false });
    await sleep(100);
    await createReadModel({ dir: fixture.dir, buildId: 'b' });
    await gate.prune();
    await gate.release();
    const holder = await opening;
    try {
      assert.is(holder.current().manifest.build_id, 'b');
      assert.ok(lines.includes('read model replaced while loading; loading the current one'), lines.join('\n'));

      // On reload: serving B; `current` names C; while C loads, D is published and C removed.
      await createReadModel({ dir: fixture.dir, buildId: 'c' });
      const gateC = await blockManifest(fixture.dir, 'c');
      const reloading = holder.reload();
      await sleep(100);
      await createReadModel({ dir: fixture.dir, buildId: 'd' });
      await gateC.prune();
      await gateC.release();
      assert.is(await reloading, true);
      assert.is(holder.current().manifest.build_id, 'd');
    } finally {
      await holder.close();
    }
  } finally {
    await fixture.remove();
  }
});

pruning('a broken build followed at once by a fixed one: the fixed one is loaded (no lost reload)', async () => {
  const fixture = await createReadModel({ buildId: 'good' });
  const holder = await openModel(configFor(fixture.dir), silent, { watch: false });
  try {
    await createReadModel({ dir: fixture.dir, buildId: 'broken', editPages: (pages) => pages.map((p) => (p.slug === 'cerrajeria' ? { ...p, city: 'atlantis' as never } : p)) });
    const gate = await blockManifest(fixture.dir, 'broken');
    const first = holder.reload();
    await sleep(100);
    // The fix is published while the broken build is still loading; its reload joins the running
    // one, which must end on the fixed build rather than fail with the broken one.
    await createReadModel({ dir: fixture.dir, buildId: 'fixed', editPages: (pages) => pages.map((p) => (p.slug === 'fontaneria' ? { ...p, title: 'Fontanería arreglada' } : p)) });
    const second = holder.reload();
    await gate.release();
    await Promise.allSettled([first, second]);
    assert.is(holder.current().manifest.build_id, 'fixed');
    const fixed = holder.current();
    assert.is(JSON.parse((await fixed.partOf(fixed.bySlug.get('fontaneria')!, 0)).body.toString()).title, 'Fontanería arreglada');
  } finally {
    await holder.close();
    await fixture.remove();
  }
});

pruning.run();
