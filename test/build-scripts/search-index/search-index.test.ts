/** The search stage's index (formats/search/index-file.ts), from read-model pages. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildSearchIndex, indexedText } from '../../../build-scripts/search-index/search-index.ts';
import { indexPages } from '../../../build-scripts/search-index/page-terms.ts';
import { POSTINGS_FILE, readIndexedPages, readIndexFile } from '../../../formats/search/index-file.ts';
import { PostingsFile } from '../../../formats/search/postings.ts';
import { fold, words } from '../../../formats/search/text.ts';
import { headingText } from '../../../formats/search/plain-text.ts';
import { stem } from '../../../formats/search/stem-es.ts';
import { familyStems, Vocabulary } from '../../../formats/search/vocabulary.ts';
import { fixturePages, SITE, stageFixtureIndex } from '../../server/search/fixtures.ts';

let built: Awaited<ReturnType<typeof stageFixtureIndex>>;
let texts: Awaited<ReturnType<typeof readIndexedPages>>;

test.before(async () => {
  built = await stageFixtureIndex();
  texts = await readIndexedPages(built.dir);
});

test.after(async () => {
  await built?.remove();
});

const filesOf = async (dir: string) => {
  const out = new Map<string, Buffer>();
  for (const name of (await fs.readdir(dir)).sort()) out.set(name, await fs.readFile(path.join(dir, name)));
  return out;
};

test('every page is indexed once, in path order', async () => {
  assert.is(built.indexed, built.pages.length);
  assert.equal(texts.map((p) => p.path), built.pages.map((p) => p.path).sort());
  assert.is((await readIndexFile(built.dir)).siteUrl, SITE);
  assert.equal((await fs.readdir(built.dir)).sort(), ['index.bin', 'lexicon.json', 'postings.bin', 'texts.txt', 'words-en.bloom', 'words-es.bloom']);
});

test('indexed text: plain, single-spaced, description first when the body does not say it', () => {
  for (const p of texts) {
    assert.not.match(p.text, /\s{2}|[\n\t]|\*\*|\]\(|^#|<\/?[a-z]/, p.path);
    assert.is(p.text, p.text.trim());
  }
  const plumbing = built.pages.find((p) => p.path === '/servicios/fontaneria/madrid/')!;
  const text = texts.find((p) => p.path === plumbing.path)!.text;
  assert.ok(text.startsWith(plumbing.description + ' '));
  assert.ok(text.includes('Fontanería en Madrid. ¿Tiene una fuga de agua,'));
  assert.is(indexedText({ description: 'Uno dos.', markdown: 'Uno dos. Tres.' }), 'Uno dos. Tres.');
  assert.is(indexedText({ description: '', markdown: '# Hola' }), 'Hola.');
});

test('vocabulary: folded words of titles and texts with their page counts', async () => {
  const file = await readIndexFile(built.dir);
  const vocabulary = [...file.vocabulary()];
  const df = new Map(vocabulary.map(([w, n]) => [w, n]));
  assert.ok(df.has('fontaneria'));
  assert.not.ok(df.has('fontanería'));
  for (const word of ['cerrajeria', 'vigo', 'diferencial']) {
    const expected = texts.filter((p) => words(`${built.pages.find((x) => x.path === p.path)!.title} ${p.text}`).includes(word)).length;
    assert.is(df.get(word), expected, word);
  }
  assert.equal(vocabulary.map(([w]) => w), [...df.keys()].sort());
  for (const [word, , wordStem] of vocabulary) assert.is(wordStem, stem(word), word);
});

test("each page's title stems, heading stems (headings and description) and text stems with their counts", async () => {
  const file = await readIndexFile(built.dir);
  const { titles, heads } = file.stems();
  const postings = await PostingsFile.open(built.dir, file);
  const ids = file.stemIds();
  const probes = ['fontanero', 'fontanería', 'cerrajero', 'electricista', 'vigo', 'málaga', 'palmas', 'precio', 'funciona', 'presupuesto', 'agua', 'zzz'];
  try {
    for (let i = 0; i < file.size; i++) {
      const page = built.pages.find((p) => p.path === file.path(i))!;
      const text = texts[i]!.text;
      const titleSet = new Set(words(page.title).map(stem));
      const headSet = new Set(words(`${headingText(page.markdown)} ${page.description}`).map(stem));
      assert.is(file.tokens(i), text.split(' ').length, `tokens of ${page.path}`);
      for (const q of probes) {
        const family = familyStems(fold(q));
        assert.is(titles.hasAny(i, family), [...family].some((s) => titleSet.has(s)), `${q} in the title of ${page.path}`);
        assert.is(heads.hasAny(i, family), [...family].some((s) => headSet.has(s)), `${q} in the headings of ${page.path}`);
        for (const s of family) {
          const occurrences = words(text).filter((w) => stem(w) === s).length;
          const id = ids.get(s);
          const listed = id === undefined ? undefined : postings.read(id);
          const k = listed === undefined ? -1 : listed.pages.indexOf(i);
          assert.is(k === -1 ? 0 : listed!.counts[k], occurrences, `${s} in the text of ${page.path}`);
        }
      }
    }
    for (let s = 0; s < ids.size; s++) {
      const { pages } = postings.read(s);
      for (let k = 1; k < pages.length; k++) assert.ok(pages[k - 1]! < pages[k]!, `stem ${s}: pages ascending`);
    }
  } finally {
    postings.close();
  }
});

test('the vocabulary as index.bin lays it out answers as one made from its words', async () => {
  const file = await readIndexFile(built.dir);
  const laidOut = new Vocabulary(file.vocabularyData(), file.size);
  const made = new Vocabulary([...file.vocabulary()].map(([w, n]) => [w, n] as const), file.size);
  assert.equal(laidOut.words(), made.words());
  const probes = [...made.words(), 'fontanero', 'fontaneros', 'fontanro', 'cerrajro', 'electrisista', 'vigo', 'bigo', 'zzzzzz', 'a', ''];
  for (const w of probes) {
    assert.is(laidOut.pages(w), made.pages(w), `pages ${w}`);
    assert.equal(laidOut.family(w), made.family(w), `family ${w}`);
    assert.is(laidOut.correct(w), made.correct(w), `correct ${w}`);
  }
});

test('slices analysed elsewhere and ending in any order give the same files as one thread', async () => {
  const dir = path.join(path.dirname(built.dir), 'sliced');
  const sortedFirst = built.pages.map((p) => p.path).sort()[0];
  const { indexed } = await buildSearchIndex({
    pages: built.pages.slice().reverse(), outDir: dir, siteUrl: SITE, lexicon: JSON.parse(await fs.readFile(path.join(built.dir, 'lexicon.json'), 'utf8')),
    parallel: 3, slicePages: 4,
    runSlice: async (task) => {
      // The first slice answers last.
      if (task.pages[0]!.path === sortedFirst) await new Promise((r) => setTimeout(r, 50));
      return indexPages(task);
    },
  });
  assert.is(indexed, built.pages.length);
  const [one, sliced] = [await filesOf(built.dir), await filesOf(dir)];
  assert.equal([...sliced.keys()], [...one.keys()]);
  for (const [name, bytes] of one) assert.ok(bytes.equals(sliced.get(name)!), `${name} differs`);
});

test('damaged postings are refused when opened, saying so', async () => {
  const file = await readIndexFile(built.dir);
  const postingsFile = path.join(built.dir, POSTINGS_FILE);
  const good = await fs.readFile(postingsFile);
  try {
    const damaged = Buffer.from(good);
    damaged[damaged.length >> 1] = damaged[damaged.length >> 1]! ^ 1;
    await fs.writeFile(postingsFile, damaged);
    assert.match(String(await PostingsFile.open(built.dir, file).catch((e: Error) => e)), 'postings.bin: damaged');
    await fs.writeFile(postingsFile, good.subarray(0, 100));
    assert.match(String(await PostingsFile.open(built.dir, file).catch((e: Error) => e)), 'postings.bin: damaged');
  } finally {
    await fs.writeFile(postingsFile, good);
  }
  (await PostingsFile.open(built.dir, file)).close();
});

test('a rebuild replaces the folder', async () => {
  const dir = built.dir;
  await fs.writeFile(path.join(dir, 'stale.txt'), 'old');
  const { indexed } = await buildSearchIndex({ pages: fixturePages().slice(0, 3), outDir: dir, siteUrl: SITE });
  assert.is(indexed, 3);
  assert.is((await readIndexedPages(dir)).length, 3);
  assert.not.ok((await fs.readdir(dir)).includes('stale.txt'));
});

test.run();
