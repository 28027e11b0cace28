import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseConfig } from '../../../server/config.ts';
import { createLogger } from '../../../server/log.ts';
import { openModel } from '../../../server/read-model/holder.ts';
import { PageIndex } from '../../../formats/read-model/page-index.ts';
import { buildPath } from '../../../formats/read-model/pointer.ts';
import { CompanyInfoSchema, PageSchema } from '../../../formats/schemas/resources.ts';
import { createReadModel, FIXTURE_SITE_URL, sharedReadModel } from '../../helpers/read-model.ts';
import { waitUntil } from '../../helpers/wait.ts';

const log = createLogger('silent');
const configFor = (dir: string, env: Record<string, string> = {}) =>
  parseConfig({ SITE_URL: FIXTURE_SITE_URL, READ_MODEL_DIR: dir, LOG_LEVEL: 'silent', ...env });

test('loads every page and company section, with bodies serialized once (pages when first asked for) and strong ETags', async () => {
  const fixture = await sharedReadModel();
  const holder = await openModel(configFor(fixture.dir), log, { watch: false });
  try {
    const model = holder.current();
    assert.is(model.pages.length, fixture.pages.length);
    assert.is(model.manifest.build_id, fixture.buildId);
    for (const seed of fixture.pages) {
      const page = model.byPath.get(seed.path)!;
      assert.ok(page, seed.path);
      assert.is(model.bySlug.get(seed.slug), page);
      const rep = await model.partOf(page, 0);
      const body = PageSchema.strict().parse(JSON.parse(rep.body.toString('utf8')));
      assert.is(body.title, seed.title);
      assert.is(body.url, FIXTURE_SITE_URL + seed.path);
      const digest = createHash('sha256').update(rep.body).digest('base64url').slice(0, 22);
      assert.is(rep.etag, `"${digest}"`);
      // Bodies of 1 KB or more have both stored encodings, made when a client first asks for each.
      if (rep.body.length >= 1024) for (const enc of ['br', 'gzip'] as const) assert.ok(rep[enc] ?? rep.encode!(enc), `${seed.path} ${enc}`);
    }
    for (const [section, rep] of Object.entries(model.company)) {
      const info = CompanyInfoSchema.strict().parse(JSON.parse(rep.body.toString('utf8')));
      assert.equal(info, fixture.company[section as keyof typeof fixture.company], section);
    }
    assert.is(typeof model.search.close, 'function', 'the search engine is opened with the model');
  } finally {
    await holder.close();
  }
});

test('Markdown over READ_PAGE_MAX_CHARS comes in parts cut after a blank line, with truncated: true and next_offset', async () => {
  const fixture = await sharedReadModel();
  const holder = await openModel(configFor(fixture.dir, { READ_PAGE_MAX_CHARS: '5000' }), log, { watch: false });
  try {
    const model = holder.current();
    const long = model.byPath.get(fixture.longPage.path)!;
    const body = JSON.parse((await model.partOf(long, 0)).body.toString('utf8'));
    assert.is(body.truncated, true);
    assert.ok(body.markdown.length <= 5000 && body.markdown.length > 2500, `kept ${body.markdown.length}`);
    assert.ok(fixture.longPage.markdown.startsWith(body.markdown));
    assert.ok(body.markdown.endsWith('\n\n'), 'cut after a blank line');
    assert.is(body.next_offset, body.markdown.length);
    assert.is(body.total_chars, fixture.longPage.markdown.length);
    assert.is((await model.textOf(long)).markdown, fixture.longPage.markdown, 'the full text stays available');
    const short = JSON.parse((await model.partOf(model.bySlug.get('fontaneria')!, 0)).body.toString('utf8'));
    assert.is(short.truncated, false);
  } finally {
    await holder.close();
  }
});

test('served under another SITE_URL, page and company URLs follow the server', async () => {
  const fixture = await sharedReadModel();
  const holder = await openModel(configFor(fixture.dir, { SITE_URL: 'https://staging.example.es' }), log, { watch: false });
  try {
    const model = holder.current();
    const home = JSON.parse((await model.partOf(model.bySlug.get('inicio')!, 0)).body.toString('utf8'));
    assert.is(home.url, 'https://staging.example.es/');
    assert.match(home.markdown, '(https://staging.example.es/servicios/fontaneria/)');
    assert.not.match(home.markdown, FIXTURE_SITE_URL);
    const all = JSON.parse(holder.current().company.all.body.toString('utf8'));
    assert.is(all.website, 'https://staging.example.es');
    assert.is(all.services[0].url, 'https://staging.example.es/servicios/fontaneria/');
  } finally {
    await holder.close();
  }
});

test('a page index damaged, of another format or naming a city the schema does not know is refused, saying so; a page changed in the pack after the build fails that page alone', async () => {
  const fixture = await createReadModel();
  try {
    const buildDir = buildPath(fixture.dir, fixture.buildId);
    const index = path.join(buildDir, 'pages.idx');
    const good = await fs.readFile(index);
    const refusal = async (bytes: Buffer) => {
      await fs.writeFile(index, bytes);
      return String(await openModel(configFor(fixture.dir), log, { watch: false }).then(() => null, (e: Error) => e));
    };
    const at = good.indexOf('/servicios/fontaneria/');
    assert.ok(at > 0);
    const damaged = Buffer.from(good);
    damaged.write('/../../etc/', at, 'latin1');
    assert.match(await refusal(damaged), 'pages.idx: damaged');
    const otherFormat = Buffer.from(good);
    otherFormat.writeUInt32LE(99, 8);
    assert.match(await refusal(otherFormat), 'pages.idx: format 99, this server reads format 1: rebuild the read model');
    assert.match(await refusal(good.subarray(0, good.length - 8)), 'pages.idx: damaged');
    assert.match(await refusal(Buffer.from('{"path":"/"}\n')), 'pages.idx: not a AGPAGIDX file');
    await fs.writeFile(index, good);

    // Pages are read from the pack when asked for: one changed after the build is refused, the others serve.
    const pack = path.join(buildDir, 'pages.pack');
    const pageIndex = await PageIndex.open(index);
    const entry = pageIndex.entry(pageIndex.findSlug('fontaneria'));
    const bytes = await fs.readFile(pack);
    const json = bytes.subarray(entry.offset, entry.offset + entry.length).toString('utf8');
    const changed = Buffer.from(json.replace('Reparación', 'Reparacióm'));
    assert.is(changed.length, entry.length, 'same length, other content');
    changed.copy(bytes, entry.offset);
    await fs.writeFile(pack, bytes);
    const holder = await openModel(configFor(fixture.dir), log, { watch: false });
    try {
      const model = holder.current();
      // Thrown, or rejected for a page read in the threadpool.
      const refused = await Promise.resolve().then(() => model.partOf(model.bySlug.get('fontaneria')!, 0)).then(() => null, (e: Error) => e);
      assert.match(String(refused?.message), `pages.pack at ${entry.offset} does not hold the page the index lists`);
      assert.ok((await model.partOf(model.bySlug.get('cerrajeria')!, 0)).body.length > 0);
    } finally {
      await holder.close();
    }

    await fs.rm(path.join(fixture.dir, 'current'));
    assert.match(String((await openModel(configFor(fixture.dir), log, { watch: false }).catch((e: Error) => e))), 'npm run build');
  } finally {
    await fixture.remove();
  }
});

test('a new build is swapped in without a restart; a broken one is refused and the old one kept', async () => {
  const fixture = await createReadModel();
  const holder = await openModel(configFor(fixture.dir), log);
  try {
    const before = holder.current();
    assert.is(await holder.reload(), false, 'nothing new yet');
    await createReadModel({
      dir: fixture.dir,
      buildId: 'second',
      editPages: (pages) => pages.map((p) => (p.slug === 'fontaneria' ? { ...p, title: 'Fontanería urgente' } : p)),
    });
    // The watcher picks up the new pointer on its own.
    await waitUntil('the swap by the watcher', () => holder.current() !== before);
    const after = holder.current();
    assert.is.not(after, before, 'swapped by the watcher');
    assert.is(after.manifest.build_id, 'second');
    assert.is(JSON.parse((await after.partOf(after.bySlug.get('fontaneria')!, 0)).body.toString('utf8')).title, 'Fontanería urgente');
    assert.is(JSON.parse((await before.partOf(before.bySlug.get('fontaneria')!, 0)).body.toString('utf8')).title, 'Fontanería', 'requests in flight keep their model');

    await createReadModel({
      dir: fixture.dir,
      buildId: 'third',
      editPages: (pages) => pages.map((p) => (p.slug === 'cerrajeria' ? { ...p, city: 'paris' as never } : p)),
    });
    const err = await holder.reload().then(() => null, (e: Error) => e);
    assert.match(String(err?.message), 'pages.idx: cities.');
    assert.is(holder.current().manifest.build_id, 'second', 'the old model still serves');
  } finally {
    await holder.close();
    await fixture.remove();
  }
});

/** This process's open files under `dir` (Linux). */
const openUnder = (dir: string) => fs.readdir('/proc/self/fd').then((fds) => Promise.all(fds.map((fd) => fs.readlink(`/proc/self/fd/${fd}`).catch(() => ''))))
  .then((targets) => targets.filter((t) => t.startsWith(dir + '/')));

test('closing the holder closes the models swapped out and still retiring, with their open files', async () => {
  const fixture = await createReadModel();
  const holder = await openModel(configFor(fixture.dir), log, { watch: false });
  try {
    await createReadModel({ dir: fixture.dir, buildId: 'second' });
    assert.is(await holder.reload(), true);
    const first = await fs.realpath(buildPath(fixture.dir, fixture.buildId));
    assert.ok((await openUnder(first)).length > 0, 'the first build is still open, retiring');
  } finally {
    await holder.close();
  }
  try {
    assert.equal(await openUnder(await fs.realpath(fixture.dir)), [], 'no file of either build left open');
  } finally {
    await fixture.remove();
  }
});

test.run();
