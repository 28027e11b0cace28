/** The binary page index: what the build writes a server reads back, finds by path and slug, and refuses when damaged. */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writePageIndex } from '../../../build-scripts/page-index.ts';
import { PageIndex } from '../../../formats/read-model/page-index.ts';
import { indexedPages } from '../../../server/read-model/indexed-pages.ts';
import type { PageIndexEntry } from '../../../formats/schemas/read-model.ts';

const hash = (n: number) => n.toString(16).padStart(64, '0');
const ENTRIES: PageIndexEntry[] = ([
  { path: '/', slug: 'inicio', title: 'Aviso Hogar', description: 'Reparaciones y reformas', city: '', kind: 'home', hash: hash(1), offset: 0, length: 100 },
  { path: '/ciudades/a-coruna/', slug: 'a-coruna', title: 'A Coruña', description: '', city: 'a-coruna', kind: 'city', hash: hash(2), offset: 100, length: 50 },
  { path: '/guias/humedad/', slug: 'humedad', title: 'Humedad en casa: qué hacer 💧', description: 'Guía «práctica»', city: '', kind: 'guide', hash: hash(3), offset: 150, length: 7 },
  ...Array.from({ length: 300 }, (_, i): PageIndexEntry => ({
    path: `/servicios/fontaneria/zona-${i}/`, slug: `fontaneria-zona-${i}`, title: `Fontanería zona ${i}`, description: `Zona ${i}`,
    city: 'madrid', kind: 'service-city', hash: hash(1000 + i), offset: 157 + i, length: 1,
  })),
] satisfies PageIndexEntry[]).sort((a, b) => (a.path < b.path ? -1 : 1));

let dir: string;
test.before(async () => { dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-page-index-')); });
test.after(async () => { await fs.rm(dir, { recursive: true, force: true }); });

test('every entry reads back as written, and is found by its path and its slug', async () => {
  const file = path.join(dir, 'pages.idx');
  writePageIndex(file, ENTRIES);
  const index = await PageIndex.open(file);
  assert.is(index.size, ENTRIES.length);
  ENTRIES.forEach((e, i) => {
    assert.equal(index.entry(i), e);
    assert.is(index.findPath(e.path), i, e.path);
    assert.is(index.findSlug(e.slug), i, e.slug);
  });
  for (const miss of ['', '/servicios/', '/servicios/fontaneria/zona-300/', '/Guias/humedad/', '/guías/humedad/', 'inicio', '/guias/humedad']) {
    assert.is(index.findPath(miss), -1, miss);
  }
  assert.is(index.findSlug('/'), -1);
  assert.is(index.findSlug('fontaneria-zona-3000'), -1);

  const { pages, byPath, bySlug } = indexedPages(index, 'https://aviso.test');
  const guide = byPath.get('/guias/humedad/')!;
  assert.is(guide, bySlug.get('humedad'));
  assert.is(guide, pages[index.findPath('/guias/humedad/')]);
  assert.equal({ ...index.entry(index.findPath('/guias/humedad/')), url: guide.url },
    { path: guide.path, slug: guide.slug, title: guide.title, description: guide.description, city: guide.city, kind: guide.kind, hash: guide.hash, offset: guide.offset, length: guide.length, url: 'https://aviso.test/guias/humedad/' });
  assert.ok(byPath.has('/') && !byPath.has('/nada/') && bySlug.get('nada') === undefined);
});

test('two pages with one path or one slug are refused at load', async () => {
  const file = path.join(dir, 'twins.idx');
  writePageIndex(file, [ENTRIES[0]!, { ...ENTRIES[1]!, slug: ENTRIES[0]!.slug }]);
  assert.match(String(await PageIndex.open(file).catch((e: Error) => e)), 'two pages have the slug inicio');
  writePageIndex(file, [ENTRIES[0]!, { ...ENTRIES[1]!, path: ENTRIES[0]!.path }]);
  assert.match(String(await PageIndex.open(file).catch((e: Error) => e)), 'two pages have the path /');
});

test('a file damaged anywhere, cut short or of another format is refused, naming what is wrong', async () => {
  const file = path.join(dir, 'pages.idx');
  writePageIndex(file, ENTRIES);
  const good = await fs.readFile(file);
  const refusal = async (bytes: Buffer) => {
    await fs.writeFile(file, bytes);
    return String(await PageIndex.open(file).then(() => null, (e: Error) => e));
  };
  for (const at of [48, Math.floor(good.length / 2), good.length - 1]) {
    const damaged = Buffer.from(good);
    damaged[at] = damaged[at]! ^ 1;
    assert.match(await refusal(damaged), 'pages.idx: damaged', `byte ${at}`);
  }
  assert.match(await refusal(good.subarray(0, good.length - 8)), 'pages.idx: damaged');
  assert.match(await refusal(good.subarray(0, 20)), 'pages.idx: not a AGPAGIDX file');
  const other = Buffer.from(good);
  other.writeUInt32LE(2, 8);
  assert.match(await refusal(other), 'format 2, this server reads format 1: rebuild the read model (npm run build)');
});

test.run();
