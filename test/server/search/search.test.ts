/**
 * search_pages semantics on a real index built by the search stage from realistic
 * Spanish pages, searched through the postings the server reads.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../../../server/errors.ts';
import { SearchPagesParams, type SearchPagesInput } from '../../../server/schemas/params.ts';
import type { SearchResponse, SearchResult } from '../../../formats/schemas/resources.ts';
import { SearchResponseSchema } from '../../../formats/schemas/resources.ts';
import { openSearch, searchPages, type SearchEngine } from '../../../server/search/index.ts';
import { readIndexedPages } from '../../../formats/search/index-file.ts';
import { fold } from '../../../formats/search/text.ts';
import { cursorKey } from '../../../server/search/cursor.ts';
import { buildFixtureIndex, FIXTURE_CURSOR_KEY, pageInfo, SITE, type BuiltIndex } from './fixtures.ts';

let built: BuiltIndex;
let other: BuiltIndex;
let engine: SearchEngine;
let texts: Map<string, string>;

test.before(async () => {
  built = await buildFixtureIndex();
  other = await buildFixtureIndex();
  engine = await openSearch(built.dir, pageInfo(built.pages), FIXTURE_CURSOR_KEY);
  texts = new Map((await readIndexedPages(built.dir)).map((p) => [SITE + p.path, p.text]));
});

test.after(async () => {
  await engine?.close();
  await built?.remove();
  await other?.remove();
});

const input = (query: string, extra: Record<string, unknown> = {}): SearchPagesInput =>
  SearchPagesParams.parse({ query, ...extra });

async function search(query: string, extra: Record<string, unknown> = {}, on = engine): Promise<SearchResponse> {
  const res = await searchPages(on, input(query, extra));
  SearchResponseSchema.parse(res);
  assert.is(res.total, res.results.length, 'total counts the results of this page');
  return res;
}

/** Every result of a query, walking its cursors. */
async function walk(query: string, extra: Record<string, unknown> = {}, on = engine): Promise<SearchResult[]> {
  const all: SearchResult[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const res = await search(query, { ...extra, ...(cursor ? { cursor } : {}) }, on);
    all.push(...res.results);
    if (res.next_cursor === null) return all;
    assert.ok(res.results.length > 0, 'a page with a next_cursor is never empty');
    assert.ok(res.next_cursor.length <= 12 && /^[A-Za-z0-9_-]+$/.test(res.next_cursor), `cursor shape: ${res.next_cursor}`);
    cursor = res.next_cursor;
  }
  throw new Error('cursor walk did not end');
}

const paths = (results: SearchResult[]) => results.map((r) => r.url.slice(SITE.length));

async function rejectsCursor(run: () => unknown, what: string): Promise<void> {
  try {
    await run();
  } catch (err) {
    assert.instance(err, ApiError, what);
    const e = err as ApiError;
    assert.is(e.status, 400, what);
    assert.is(e.code, 'rest_invalid_param', what);
    assert.is(e.hint, 'cursor', what);
    return;
  }
  assert.unreachable(`${what}: accepted`);
}

test('queries with no real match return nothing, not prefix junk', async () => {
  // "dentista" shares "dent" with "dentro" (a guide) and "de" with every page.
  for (const q of ['dentista', 'abogado', 'xyzzy', 'dentistas en madrid', 'abogado vigo']) {
    const res = await search(q);
    assert.equal(res.results, [], q);
    assert.is(res.next_cursor, null, q);
  }
});

test('a known word does not match the longer words it is a prefix of', async () => {
  // "agua" (stem "agu") is a prefix of "aguantar", on the city pages: a prefix is no match.
  const water = paths(await walk('fontanero agua'));
  assert.ok(water.includes('/servicios/fontaneria/'), 'agua finds the plumbing pages');
  assert.not.ok(water.some((p) => p.startsWith('/ciudades/')), `agua does not find "aguantar": ${water.join(', ')}`);
});

test('gibberish is dropped; a page must hold at least half of what the query says', async () => {
  // "xyzzyq" is no word and near none: the query is "fontanero".
  assert.equal(await walk('fontanero xyzzyq'), await walk('fontanero'));
  // A real word nothing on the site answers keeps its weight: one incidental site word is not enough.
  assert.equal(await walk('fontanero mudanza'), [], 'fontanero mudanza');
  assert.equal(await walk('dentista en vigo'), [], 'a city never matches alone');
  // Pages holding both words rank above pages holding one.
  const both = paths(await walk('fontanero calentador'));
  assert.ok(both.length > 0 && both[0]!.startsWith('/servicios/fontaneria/'), both.join(', '));
});

test('stop words alone never match', async () => {
  for (const q of ['en', 'de', 'la', 'el', 'para', 'de la', 'en el de', 'para los de la']) {
    assert.is((await search(q)).total, 0, q);
  }
});

test('Spanish queries: accents, case, singular and plural do not matter', async () => {
  const cases: Array<[string, string]> = [
    ['fontanería', '/servicios/fontaneria/'],
    ['fontaneria', '/servicios/fontaneria/'],
    ['FONTANERÍA', '/servicios/fontaneria/'],
    ['fontanero', '/servicios/fontaneria/'],
    ['fontaneros', '/servicios/fontaneria/'],
    ['cerrajería', '/servicios/cerrajeria/'],
    ['cerrajeros', '/servicios/cerrajeria/'],
    ['cerrajero', '/servicios/cerrajeria/'],
    ['electricista', '/servicios/electricidad/'],
    ['electricistas', '/servicios/electricidad/'],
    ['electricidad', '/servicios/electricidad/'],
    ['avería eléctrica', '/servicios/electricidad/'],
    ['averias electricas', '/servicios/electricidad/'],
    ['cambiar bombín', '/servicios/cerrajeria/'],
    ['cambiar bombines', '/servicios/cerrajeria/'],
    ['diferenciales', '/guias/salta-el-diferencial/'],
  ];
  for (const [q, expected] of cases) {
    const all = paths(await walk(q));
    assert.ok(all.includes(expected), `${q} → ${expected} (got ${all.join(', ')})`);
  }
  // Same words, same answer.
  assert.equal(await walk('fontaneria'), await walk('Fontanería'));
  assert.equal(await walk('fontanería'), await walk('  FONTANERÍA!  '));
  // "fontaneros" finds every fontanería page and nothing of the other trades.
  const plumbing = paths(await walk('fontaneros'));
  for (const city of ['madrid', 'vigo', 'malaga', 'las-palmas']) {
    assert.ok(plumbing.includes(`/servicios/fontaneria/${city}/`), `fontaneros → fontanería in ${city}`);
  }
  assert.not.ok(plumbing.some((p) => p.startsWith('/servicios/cerrajeria/')), 'fontaneros finds no cerrajería page');
  // The trade finds the tradesman: the guide says "cerrajero", never "cerrajería" (its title anchors it).
  assert.ok(paths(await walk('cerrajería llave dentro')).includes('/guias/puerta-cerrada-llave-dentro/'));
});

test('a one-letter typo in a word of five or more letters still finds the page', async () => {
  const cases: Array<[string, string]> = [
    ['cerrajro', '/servicios/cerrajeria/'],
    ['cerrajeor', '/servicios/cerrajeria/'],
    ['fontanria', '/servicios/fontaneria/'],
    ['electrisista', '/servicios/electricidad/'],
    ['diferencal', '/guias/salta-el-diferencial/'],
  ];
  for (const [q, expected] of cases) {
    assert.ok(paths(await walk(q)).includes(expected), `${q} → ${expected}`);
  }
  // Two edits are not a typo, and short words are not corrected.
  assert.is((await search('cerrjro')).total, 0, 'two edits');
  assert.is((await search('qzx')).total, 0, 'three letters are not corrected');
});

/** Results are that city's pages first, then pages for every city (no city), and no other city's. */
function assertCityOrder(results: SearchResult[], city: string, what: string): void {
  assert.ok(results.some((r) => r.city === city), `${what}: has ${city} pages`);
  const firstGeneral = results.findIndex((r) => r.city === '');
  for (const [i, r] of results.entries()) {
    assert.ok(r.city === city || r.city === '', `${what}: no other city (${r.url})`);
    if (r.city === city) assert.ok(firstGeneral === -1 || i < firstGeneral, `${what}: ${city} pages first (${results.map((x) => x.city || '-').join(',')})`);
  }
}

test("a query naming a city: that city's pages first, then pages for every city, never other cities", async () => {
  for (const [q, city] of [
    ['cerrajero en vigo', 'vigo'], ['fontanero Málaga', 'malaga'], ['fontanero malaga', 'malaga'],
    ['electricista en Las Palmas', 'las-palmas'], ['las palmas', 'las-palmas'],
  ] as const) assertCityOrder(await walk(q), city, q);
  const vigo = await walk('cerrajero en vigo');
  assert.is(vigo[0]!.url, `${SITE}/servicios/cerrajeria/vigo/`);
  assert.ok(vigo.some((r) => r.city === ''), 'the general pages follow');
});

test("city=<slug>: that city's pages first, then pages for every city (guides answer everywhere)", async () => {
  for (const [q, city] of [['fontanero', 'vigo'], ['cerrajero en madrid', 'vigo'], ['electricidad', 'las-palmas']] as const) {
    assertCityOrder(await walk(q, { city }), city, `${q} city=${city}`);
  }
  const guide = paths(await walk('salta el diferencial', { city: 'madrid' }));
  assert.ok(guide.includes('/guias/salta-el-diferencial/'), `a guide answers in every city: ${guide.join(', ')}`);
});

test('excerpts: plain text around the matched words, at word boundaries, 160–240 characters', async () => {
  const queries: Array<[string, RegExp]> = [
    ['fontaneros', /fontaner/],
    ['cerrajro', /cerraj/],
    ['llave dentro', /llave|dentro/],
    ['diferencial', /diferencial/],
    ['boletín', /boletin/],
    ['salta el diferencial', /salta|diferencial/],
    ['fuga de agua', /fuga|agua/],
  ];
  for (const [q, word] of queries) {
    const results = await walk(q);
    assert.ok(results.length > 0, q);
    for (const r of results) {
      const e = r.excerpt;
      assert.ok(word.test(fold(e)), `${q}: excerpt of ${r.url} holds the matched word: ${e}`);
      assert.not.match(e, /<\/?[a-z][^>]*>|\*\*|\]\(|^#|\|/i, `${q}: no HTML or Markdown in ${e}`);
      assert.ok(e.length <= 240, `${q}: ${e.length} chars`);
      const text = texts.get(r.url)!;
      const inner = e.replace(/^… /, '').replace(/ …$/, '');
      assert.ok(text.length < 160 || e.length >= 160, `${q}: ${e.length} chars from a ${text.length}-char page`);
      assert.ok((' ' + text + ' ').includes(' ' + inner + ' '), `${q}: whole words of the page text: ${e}`);
      assert.is(e.startsWith('… '), !text.startsWith(inner), `${q}: leading ellipsis iff cut`);
      assert.is(e.endsWith(' …'), !text.endsWith(inner), `${q}: trailing ellipsis iff cut`);
    }
  }
});

test('order is stable and ties break by URL', async () => {
  const a = await walk('fontanero');
  assert.equal(await walk('fontanero'), a);
  // Identical pages score alike (after rounding): they must come out in URL order, whatever the
  // order they were indexed in.
  const twins = ['zeta', 'alfa', 'media', 'beta', 'omega'].map((name) => ({
    ...built.pages.find((p) => p.path === '/servicios/fontaneria/')!,
    path: `/servicios/${name}/`, url: `${SITE}/servicios/${name}/`, slug: name,
  }));
  const tied = await buildFixtureIndex(twins);
  const e = await openSearch(tied.dir, pageInfo(twins), FIXTURE_CURSOR_KEY);
  try {
    const urls = (await walk('fontanero', {}, e)).map((r) => r.url);
    assert.equal(urls, twins.map((p) => p.url).sort());
  } finally {
    await e.close();
    await tied.remove();
  }
});

test('walking every next_cursor yields every match exactly once, in order', async () => {
  for (const q of ['fontanero', 'cerrajero en vigo', 'servicio', 'averías eléctricas', 'las palmas']) {
    const full = (await search(q, { limit: 25 })).results;
    for (const limit of [1, 2, 3, 8]) {
      const walked = await walk(q, { limit });
      assert.equal(walked, full, `${q} limit=${limit}`);
      assert.is(new Set(walked.map((r) => r.url)).size, walked.length, `${q}: no duplicates`);
    }
  }
  // Changing the limit mid-walk still sees everything once: the cursor holds an offset in results.
  const full = (await search('averías eléctricas', { limit: 25 })).results;
  assert.ok(full.length > 5, 'a query with many results');
  const first = await search('averías eléctricas', { limit: 2 });
  const rest = await walk('averías eléctricas', { limit: 3, cursor: first.next_cursor });
  assert.equal([...first.results, ...rest], full);
  // The last page has no cursor.
  const last = await search('fontanero', { limit: 25 });
  assert.is(last.next_cursor, null);
});

test('forged, malformed and foreign cursors are a 400 on `cursor`, never a wrong page', async () => {
  const first = await search('fontanero', { limit: 2 });
  const cursor = first.next_cursor!;
  assert.ok(cursor);
  assert.is((await search('fontanero', { limit: 2, cursor })).total, 2, 'the real cursor works');

  const tampered = new Set<string>();
  for (let i = 0; i < cursor.length; i++) {
    for (const c of ['A', 'B', '_', '-', '0']) {
      const t = cursor.slice(0, i) + c + cursor.slice(i + 1);
      if (t !== cursor) tampered.add(t);
    }
  }
  for (const t of tampered) await rejectsCursor(() => searchPages(engine, input('fontanero', { limit: 2, cursor: t })), `tampered ${t}`);

  const garbage = ['x', 'AAAAAAAAAAAA', '____________', 'AAAAAAAAAAA=', 'AAAA AAAAAAA', 'ñññññññññññ', '../../etc', '%00', '0'];
  for (const g of garbage) await rejectsCursor(() => searchPages(engine, input('fontanero', { cursor: g })), `garbage ${g}`);

  await rejectsCursor(() => searchPages(engine, input('cerrajero', { cursor })), 'cursor of another query');
  await rejectsCursor(() => searchPages(engine, input('fontanero', { cursor, city: 'madrid' })), 'cursor of another city filter');
  await rejectsCursor(() => searchPages(engine, input('dentista', { cursor })), 'cursor on a query with no results');
  // Same query, differently written: same normalized query, so the cursor holds.
  assert.is((await search('Fontanero', { limit: 2, cursor })).total, 2);

  const foreign = await openSearch(other.dir, pageInfo(other.pages), cursorKey('', 'other content'));
  try {
    await rejectsCursor(() => searchPages(foreign, input('fontanero', { limit: 2, cursor })), 'cursor of a build of other content');
  } finally {
    await foreign.close();
  }
});

test('two engines on the same index answer alike, cursors included', async () => {
  const twin = await openSearch(built.dir, pageInfo(built.pages), FIXTURE_CURSOR_KEY);
  try {
    for (const q of ['fontanero', 'cerrajero en vigo', 'cerrajro', 'las palmas', 'presupuesto']) {
      assert.equal(await walk(q, { limit: 3 }, twin), await walk(q, { limit: 3 }));
      const a = await search(q, { limit: 2 });
      const b = await search(q, { limit: 2 }, twin);
      assert.equal(b, a, `${q}: same page and same cursor`);
      if (a.next_cursor) assert.equal(await search(q, { limit: 2, cursor: a.next_cursor }, twin), await search(q, { limit: 2, cursor: a.next_cursor }));
    }
  } finally {
    await twin.close();
  }
});

test('concurrent searches get their own results and excerpts', async () => {
  const fresh = await openSearch(built.dir, pageInfo(built.pages), FIXTURE_CURSOR_KEY);
  try {
    const queries = ['fontanero', 'cerrajero', 'electricista', 'llave dentro', 'diferencial', 'bombines', 'desatascos', 'boletín', 'fontanero vigo', 'cerrajro'];
    const expected: SearchResponse[] = [];
    for (const q of queries) expected.push(await search(q, { limit: 25 }));
    const twice = [...queries, ...queries];
    const concurrent = await Promise.all(twice.map((q) => searchPages(fresh, input(q, { limit: 25 }))));
    concurrent.forEach((res, i) => assert.equal(res, expected[i % queries.length], twice[i]));
  } finally {
    await fresh.close();
  }
});

test('only pages of the loaded model are returned', async () => {
  const without = pageInfo(built.pages);
  without.delete('/servicios/fontaneria/vigo/');
  const partial = await openSearch(built.dir, without, FIXTURE_CURSOR_KEY);
  try {
    const all = paths(await walk('fontanero', {}, partial));
    assert.ok(all.length > 0);
    assert.not.ok(all.includes('/servicios/fontaneria/vigo/'));
  } finally {
    await partial.close();
  }
});

test('a closed engine refuses to search', async () => {
  const e = await openSearch(built.dir, pageInfo(built.pages), FIXTURE_CURSOR_KEY);
  await e.close();
  await e.close();
  try {
    await searchPages(e, input('fontanero'));
    assert.unreachable('searched after close');
  } catch (err) {
    assert.not.instance(err, ApiError);
  }
});

test.run();
