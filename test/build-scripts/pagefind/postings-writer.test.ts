/**
 * The postings writer in parts (postings-writer.ts): token ids numbered by runs of pages and
 * joined, position marks of runs of chunks joined, records of runs of chunks written apart and
 * put together — the same files, byte for byte, as one run over everything.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { joinTokenRuns, pageViews, tokenizeTexts } from '../../../build-scripts/pagefind/page-tokens.ts';
import { writePostings } from '../../../build-scripts/pagefind/postings-writer.ts';
import { SharedPositions } from '../../../build-scripts/pagefind/shared-positions.ts';
import { createBuildWorkers } from '../../../build-scripts/workers.ts';
import { POSTINGS_FILE, POSTINGS_HEADER_FILE } from '../../../formats/search/postings-format.ts';
import { builtReadModel } from '../../helpers/built-site.ts';

const tempDir = () => fs.mkdtemp(path.join(os.tmpdir(), 'agentes-postings-'));

test('token ids of runs of pages, joined, are the ids one run gives', async () => {
  const tmp = await tempDir();
  try {
    const texts = ['a b c', 'c d a', 'e f', 'b g e', 'unapalabramuylarga h', 'h unapalabramuylarga i'];
    const file = path.join(tmp, 'texts.txt');
    await fs.writeFile(file, texts.join(''));
    const places = new Float64Array(2 * texts.length);
    let at = 0;
    texts.forEach((t, p) => { places[2 * p] = at; places[2 * p + 1] = Buffer.byteLength(t); at += Buffer.byteLength(t); });
    const one = tokenizeTexts(file, places);
    const expected = pageViews(one).map((v) => [...v]);
    assert.equal(expected.slice(0, 3), [[1, 2, 3], [3, 4, 1], [5, 6]]);
    for (const cuts of [[0, 6], [0, 1, 6], [0, 3, 6], [0, 2, 4, 6], [0, 1, 2, 3, 4, 5, 6]]) {
      const runs = cuts.slice(1).map((to, i) => tokenizeTexts(file, places.slice(2 * cuts[i]!, 2 * to)));
      const joined = joinTokenRuns(runs);
      assert.equal(joined.words, one.words, `words, cut at ${cuts}`);
      assert.equal(pageViews(joined.tokens).map((v) => [...v]), expected, `ids, cut at ${cuts}`);
    }
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
});

test('position marks of parts, joined: seen twice in one part, or once in each of two', () => {
  const lengths = [4, 3];
  const marks = (calls: [number, number][]) => {
    const s = new SharedPositions(lengths);
    for (const [page, position] of calls) s.mark(page, position);
    return s.marks;
  };
  const a = marks([[0, 0], [0, 1], [0, 1], [1, 2]]);
  const b = marks([[0, 0], [0, 3], [1, 0], [1, 0]]);
  const joined = SharedPositions.join(lengths, [a, b]);
  const all = new SharedPositions(lengths);
  for (const [page, position] of [[0, 0], [0, 1], [0, 1], [1, 2], [0, 0], [0, 3], [1, 0], [1, 0]] as const) all.mark(page, position);
  const shared = (s: SharedPositions) => lengths.map((n, page) => Array.from({ length: n }, (_, p) => s.shared(page, p)));
  assert.equal(shared(joined), [[true, true, false, false], [true, false, false]]);
  assert.equal(shared(joined), shared(all));
});

test("postings written in parts at once, in the build's worker threads, are the files one run writes", async () => {
  const tmp = await tempDir();
  const workers = createBuildWorkers(2);
  try {
    const dir = path.join(tmp, 'search');
    await fs.cp(path.join(await builtReadModel(), 'search'), dir, { recursive: true });
    const files = [POSTINGS_FILE, POSTINGS_HEADER_FILE];
    const read = () => Promise.all(files.map((f) => fs.readFile(path.join(dir, f))));
    const built = await read();
    const one = await writePostings(dir);
    const expected = await read();
    files.forEach((f, i) => assert.ok(expected[i]!.equals(built[i]!), `the build's own ${f} (written by its workers) is one run's`));
    const chunks = (await fs.readdir(path.join(dir, 'pagefind', 'index'))).length;
    assert.ok(chunks >= 4, `the sample index has several chunks to share out (${chunks})`);
    for (const parts of [2, 3]) {
      for (const f of files) await fs.rm(path.join(dir, f));
      assert.equal(await writePostings(dir, { parts, make: workers.postings }), one);
      const got = await read();
      files.forEach((f, i) => assert.ok(got[i]!.equals(expected[i]!), `${parts} parts: ${f}`));
      assert.equal((await fs.readdir(dir)).filter((f) => f.startsWith(`${POSTINGS_FILE}.`)), [], 'no part is left');
    }
  } finally {
    await workers.close();
    await fs.rm(tmp, { recursive: true, force: true });
  }
});

test.run();
