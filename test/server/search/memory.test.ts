/**
 * What an engine holds may be bounded as tightly as wanted without changing one answer: an engine
 * that keeps no page text (every text read back from texts.txt), warms no word and puts only the
 * first two pages of a ranking in order (a request past them ranks the query again in full) gives
 * exactly the responses of one with the default bounds, cursors included.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SearchPagesParams } from '../../../server/schemas/params.ts';
import type { SearchResponse } from '../../../formats/schemas/resources.ts';
import { openSearch, searchPages, type SearchEngine } from '../../../server/search/index.ts';
import { hitsWeight } from '../../../server/search/engine.ts';
import { BODY, wordHitsOf } from '../../../formats/search/word-hits.ts';
import { TITLE } from '../../../formats/search/match-flags.ts';
import { buildFixtureIndex, FIXTURE_CURSOR_KEY, pageInfo, type BuiltIndex } from './fixtures.ts';
import { bufferGrowth, driveInChild } from '../../helpers/cache-memory.ts';

const QUERIES: Array<[string, Record<string, unknown>]> = [
  ['fontanero', {}], ['fontanero', { city: 'vigo' }], ['cerrajero madrid', {}], ['fuga de agua', { limit: 2 }],
  ['electricista', { limit: 3 }], ['llave dentro', {}], ['cerrajro', {}], ['boletín eléctrico', {}], ['Málaga', {}],
  ['desatascos', {}], ['presupuesto', { limit: 4 }],
];

let built: BuiltIndex;
let roomy: SearchEngine;
let tight: SearchEngine;

test.before(async () => {
  built = await buildFixtureIndex();
  roomy = await openSearch(built.dir, pageInfo(built.pages), FIXTURE_CURSOR_KEY);
  tight = await openSearch(built.dir, pageInfo(built.pages), FIXTURE_CURSOR_KEY, { textCacheBytes: 1, warmMaxPages: 0, rankedFirst: 2 });
});

test.after(async () => {
  await Promise.all([roomy?.close(), tight?.close()]);
  await built?.remove();
});

/** Every page of a query's answer, through its cursors. */
async function walk(engine: SearchEngine, query: string, extra: Record<string, unknown>): Promise<SearchResponse[]> {
  const out: SearchResponse[] = [];
  let cursor: string | null = null;
  do {
    const res: SearchResponse = await searchPages(engine, SearchPagesParams.parse({ query, ...extra, ...(cursor ? { cursor } : {}) }));
    out.push(res);
    cursor = res.next_cursor;
  } while (cursor !== null && out.length < 50);
  return out;
}

test('tight bounds give the same answers, excerpts and cursors', async () => {
  let results = 0;
  for (const [query, extra] of QUERIES) {
    const expected = await walk(roomy, query, extra);
    assert.equal(await walk(tight, query, extra), expected, `${query} ${JSON.stringify(extra)}`);
    results += expected.reduce((n, r) => n + r.results.length, 0);
  }
  assert.ok(results > 40, `the queries reach many pages (${results})`);
});

test('the tight engine kept no text', () => {
  assert.is(tight.held.textBytes, 0);
  assert.ok(roomy.held.textBytes > 0, 'the roomy engine keeps the texts it read');
});

test('ranked lists driven past their bound through HTTP, in three encodings, hold about what they weigh', async () => {
  // A child process with `gc`: 300 distinct queries, each under three limits and three encodings,
  // answered by respond.ts, within a 1 MB bound.
  const report = await driveInChild('search', 1, 300);
  assert.ok(report.weight <= report.bound, `weighs ${report.weight} bytes, bound ${report.bound}`);
  // Serialized and compressed responses kept unweighed would hold many times the bound.
  const grown = bufferGrowth(report);
  assert.ok(grown <= 1.5 * report.bound + (1 << 20), `Buffers grew by ${(grown / 2 ** 20).toFixed(1)} MB, bound ${report.bound / 2 ** 20} MB`);
});

test('a word answer weighs at least the bytes of its columns', () => {
  const n = 100_000;
  const docs = Int32Array.from({ length: n }, (_, i) => i);
  const flags = new Uint8Array(n).fill(BODY | TITLE);
  const hits = wordHitsOf(docs, new Uint32Array(n).fill(70_000), flags, new Float64Array(n).fill(1));
  const columns = hits.docs.byteLength + hits.mentions.byteLength + hits.flags.byteLength + hits.topical.byteLength;
  assert.ok(hitsWeight(hits) >= columns, `weighs ${hitsWeight(hits)} bytes, holds ${columns}`);
});

test.run();
