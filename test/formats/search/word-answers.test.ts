/**
 * The answers of common words the build keeps (word-answers.ts) are the answers the engine makes
 * from the postings (word-hits.ts), column for column, and an engine reading them gives the same
 * responses as one that makes every answer. The fixture build keeps every family here (a real
 * build keeps those that cost KEPT_MIN_BYTES of summaries or more, none of the fixture's).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SearchPagesParams } from '../../../server/schemas/params.ts';
import type { SearchResponse } from '../../../formats/schemas/resources.ts';
import { openSearch, searchPages, type SearchEngine } from '../../../server/search/index.ts';
import { openPostingsSearch } from '../../../formats/search/postings-search.ts';
import { readSidecar } from '../../../formats/search/sidecar.ts';
import { Vocabulary } from '../../../formats/search/vocabulary.ts';
import { createBuildWorkers } from '../../../build-scripts/workers.ts';
import { docOfAll, WORD_ANSWERS_DATA_FILE, WORD_ANSWERS_FILE, WordAnswers, writeWordAnswers } from '../../../formats/search/word-answers.ts';
import { familyKey, WordHitsMaker, type WordHits } from '../../../formats/search/word-hits.ts';
import { buildFixtureIndex, FIXTURE_CURSOR_KEY, pageInfo, type BuiltIndex } from '../../server/search/fixtures.ts';
import { loadHeldOut, loadQuerySet } from '../../../data/search-queries/index.ts';

let built: BuiltIndex;

test.before(async () => {
  built = await buildFixtureIndex();
});

test.after(async () => {
  await built?.remove();
});

const columns = (h: WordHits) => ({
  count: h.count, docs: [...h.docs], scores: [...new Uint32Array(h.scores.buffer, h.scores.byteOffset, h.count)],
  flags: [...h.flags], top: h.top, topical: [...h.topical],
});

test('a build on its own threshold keeps no answer of the small fixture', async () => {
  const kept = await WordAnswers.open(built.dir);
  assert.ok(kept, 'the build writes the files');
  assert.is(kept.size, 0);
  kept.close();
});

test('each kept answer is the answer made from the postings, bit for bit', async () => {
  const { answers } = await writeWordAnswers(built.dir, 0);
  const sidecar = await readSidecar(built.dir);
  const index = await openPostingsSearch(built.dir);
  const kept = (await WordAnswers.open(built.dir))!;
  try {
    const vocabulary = new Vocabulary(sidecar.vocabularyData(), sidecar.size);
    const { titles, heads } = sidecar.stems();
    const ids = Array.from({ length: sidecar.size }, (_, d) => sidecar.id(d));
    const maker = new WordHitsMaker({ index, vocabulary, titles, heads, docOf: docOfAll(ids, index.pageIds), pages: sidecar.size });
    const families = new Set(vocabulary.words().map(familyKey));
    assert.is(answers, families.size, 'every family of the vocabulary is kept');
    assert.is(kept.size, families.size);
    let hits = 0;
    for (const w of vocabulary.words()) {
      const made = maker.make(maker.lookup(w));
      assert.equal(columns(kept.get(familyKey(w))!), columns(made), w);
      hits += made.count;
    }
    assert.ok(hits > 1000, `the answers hold many hits (${hits})`);
    assert.is(kept.get('no such family'), undefined);
  } finally {
    kept.close();
    await index.close();
  }
});

test("answers made in parts at once, in the build's worker threads, are the files one run writes", async () => {
  const files = [WORD_ANSWERS_FILE, WORD_ANSWERS_DATA_FILE];
  const read = () => Promise.all(files.map((f) => fs.readFile(path.join(built.dir, f))));
  const one = await writeWordAnswers(built.dir, 0);
  const expected = await read();
  const workers = createBuildWorkers(2);
  try {
    for (const parts of [2, 3]) {
      for (const f of files) await fs.rm(path.join(built.dir, f));
      assert.equal(await writeWordAnswers(built.dir, 0, { parts, make: workers.answers }), one);
      const got = await read();
      files.forEach((f, i) => assert.ok(got[i]!.equals(expected[i]!), `${parts} parts: ${f}`));
      assert.equal((await fs.readdir(built.dir)).filter((f) => f.startsWith(`${WORD_ANSWERS_DATA_FILE}.`)), [], 'no part is left');
    }
  } finally {
    await workers.close();
  }
});

test('an engine reading kept answers gives the responses of one that makes them all', async () => {
  await writeWordAnswers(built.dir, 0);
  const reads = { n: 0 };
  const get = WordAnswers.prototype.get;
  WordAnswers.prototype.get = function (key) { reads.n++; return get.call(this, key); };
  let withKept: SearchEngine | undefined;
  let without: SearchEngine | undefined;
  try {
    withKept = await openSearch(built.dir, pageInfo(built.pages), FIXTURE_CURSOR_KEY, { textCacheBytes: 1 << 20, warmMaxPages: 0 });
    without = await openSearch(built.dir, pageInfo(built.pages), FIXTURE_CURSOR_KEY, { textCacheBytes: 1 << 20, warmMaxPages: 0, keptAnswers: false });
    const queries = [
      'fontanero', 'fontaneros madrid', 'cerrajero en vigo', 'fuga de agua', 'boletín eléctrico', 'desatascos', 'presupuesto',
      ...[...loadQuerySet(), ...loadHeldOut()].flatMap((g) => g.queries.map((q) => q.query)),
    ];
    let results = 0;
    for (const query of queries) {
      for (const city of ['todas', 'vigo']) {
        const input = SearchPagesParams.parse({ query, city, limit: 25 });
        const a: SearchResponse = await searchPages(withKept, input);
        assert.equal(a, await searchPages(without, input), `${query} ${city}`);
        results += a.results.length;
      }
    }
    assert.ok(results > 200, `the queries reach many pages (${results})`);
    assert.ok(reads.n > 50, `kept answers were read (${reads.n})`);
  } finally {
    WordAnswers.prototype.get = get;
    await withKept?.close();
    await without?.close();
  }
});

test('a data file of another length fails the open, naming it', async () => {
  await writeWordAnswers(built.dir, 0);
  const data = path.join(built.dir, WORD_ANSWERS_DATA_FILE);
  const bytes = await fs.readFile(data);
  await fs.writeFile(data, bytes.subarray(0, bytes.length - 8));
  try {
    await WordAnswers.open(built.dir).then(() => assert.unreachable('opened'), (err: Error) => {
      assert.match(err.message, WORD_ANSWERS_DATA_FILE);
    });
    await openSearch(built.dir, pageInfo(built.pages), FIXTURE_CURSOR_KEY).then(() => assert.unreachable('opened'), (err: Error) => {
      assert.match(err.message, WORD_ANSWERS_DATA_FILE);
    });
  } finally {
    await fs.writeFile(data, bytes);
  }
});

test.run();
