/**
 * The server's postings search answers as Pagefind 1.5.2 does, checked against Pagefind's own
 * runtime (its pagefind.js and WebAssembly, every index chunk loaded) on the built sample site:
 *
 * - the stems: `snowballStem` gives Pagefind's stem for every prefix of every word of the site;
 * - the answers: for the terms the engine asks (each word's family prefix) and every prefix of up
 *   to four letters (the broad ones, where many words and shared locations meet), the same pages
 *   with bit-identical scores and the same matched positions, best score first;
 * - the columns (`hits`, `positions`) against that reference (`searchNow`): the same pages in page
 *   order, bit-identical scores, the same pages with a kept word and the same kept positions, and
 *   the pages where two matched locations share a position (scored from the locations).
 */
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { commonPrefix } from '../../../formats/search/word-hits.ts';
import { PAGEFIND_DIR, readIndexedPages, readSidecar, type Sidecar } from '../../../formats/search/sidecar.ts';
import { averagePageLength, diacriticBonus, idf, lengthBonus, metaBoost, wordScore } from '../../../formats/search/pagefind-score.ts';
import { PostingsIndex } from '../../../formats/search/postings-index.ts';
import { openPostingsSearch, type PostingsSearch } from '../../../formats/search/postings-search.ts';
import { snowballStem } from '../../../formats/search/stem-es.ts';
import type { Keep, RawHit } from '../../../formats/search/term-search.ts';
import { termWords } from '../../../formats/search/term-words.ts';
import { familyStems, Vocabulary } from '../../../formats/search/vocabulary.ts';
import { builtReadModel } from '../../helpers/built-site.ts';
import { loadPagefind, type PagefindSearch } from '../../helpers/pagefind-runtime.ts';

const postings = suite('postings search = Pagefind 1.5.2 on the sample site');
let searchDir: string;
let sidecar: Sidecar;
let pagefind: PagefindSearch;
/** The sidecar's vocabulary: folded word, pages, stem. */
let vocabulary: Array<[word: string, pages: number, stem: string]>;
let ours: PostingsSearch;

const BATCH = 200;

postings.before(async () => {
  searchDir = path.join(await builtReadModel(), 'search');
  sidecar = await readSidecar(searchDir);
  vocabulary = [...sidecar.vocabulary()];
  pagefind = await loadPagefind(path.join(searchDir, PAGEFIND_DIR));
  // Pagefind matches against the words of the chunks it has loaded: load them all.
  const words = vocabulary.map(([w]) => w);
  for (let i = 0; i < words.length; i += BATCH) await pagefind.preload(words.slice(i, i + BATCH).join(' '));
  ours = await openPostingsSearch(searchDir);
});

postings.after(async () => {
  await Promise.all([pagefind?.close(), ours?.close()]);
});

function prefixes(maxLength = Infinity): string[] {
  const out = new Set<string>();
  for (const [w] of vocabulary) for (let i = 1; i <= Math.min(w.length, maxLength); i++) out.add(w.slice(0, i));
  return [...out];
}

postings('snowballStem stems every prefix of the site\'s words as Pagefind does', async () => {
  const terms = prefixes();
  const wrong: string[] = [];
  for (let i = 0; i < terms.length; i += BATCH) {
    const batch = terms.slice(i, i + BATCH);
    const stems = await pagefind.stems(batch.join(' '));
    assert.is(stems.length, batch.length);
    batch.forEach((t, k) => { if (snowballStem(t) !== stems[k]) wrong.push(`${t}: ${stems[k]} ≠ ${snowballStem(t)}`); });
  }
  assert.ok(terms.length > 10_000, `${terms.length} terms`);
  assert.equal(wrong.slice(0, 20), []);
});

const key = (h: RawHit) => `${h.id} ${h.score} ${h.words.join(',')}`;
/** A test of text words for `kept`: some pass, some do not. */
const keep = { word: (w: string) => w.length % 2 === 0, max: 5 };

postings('the same pages, scores and positions for the terms the engine asks and every short prefix, and the positions whose text word passes a test', async () => {
  const texts = new Map((await readIndexedPages(searchDir)).map((p) => [p.id, p.text.split(' ')]));
  const terms = askedTerms();
  const wrong: string[] = [];
  let hits = 0;
  for (const term of terms) {
    const expected = await pagefind.search(term);
    const got = ours.searchNow(term);
    hits += got.length;
    if (got.map(key).sort().join('\n') !== expected.map(key).sort().join('\n')) wrong.push(term);
    for (let i = 1; i < got.length; i++) assert.ok(got[i - 1]!.score >= got[i]!.score, `${term}: best score first`);
    const kept = new Map(ours.searchNow(term, keep).map((h) => [h.id, h]));
    for (const hit of got) {
      const words = texts.get(hit.id)!;
      const expected = hit.words.filter((p) => words[p] !== undefined && keep.word(words[p])).slice(0, keep.max);
      if (kept.get(hit.id)?.kept?.join() !== expected.join() || kept.get(hit.id)?.score !== hit.score) wrong.push(`${term}: the positions kept on ${hit.id}`);
    }
  }
  assert.ok(terms.length > 5_000 && hits > 100_000, `${terms.length} terms, ${hits} hits`);
  assert.equal(wrong.slice(0, 20), [], `${wrong.length} of ${terms.length} terms answered otherwise`);
});

/** The terms the engine asks and every prefix of up to four letters. */
function askedTerms(): string[] {
  const words = new Vocabulary(sidecar.vocabularyData(), sidecar.size);
  const asked = vocabulary.map(([w]) => (familyStems(w).size > 0 ? commonPrefix(words.family(w)) : w));
  return [...new Set([...asked, ...prefixes(4)])].filter((t) => t !== '');
}

/** The reference's hits of `term` in page order: page number, score, and whether a position was kept. */
function reference(term: string): Array<{ page: number; score: number; kept: boolean }> {
  const pageOf = new Map(ours.pageIds.map((id, page) => [id, page]));
  const kept = new Map(ours.searchNow(term, { word: keep.word, max: 1 }).map((h) => [h.id, h.kept!.length > 0]));
  return ours.searchNow(term).map((h) => ({ page: pageOf.get(h.id)!, score: h.score, kept: kept.get(h.id)! })).sort((a, b) => a.page - b.page);
}

postings('hits(): the same pages as searchNow in page order, bit-identical scores, and the pages where a matched text word passes the test', () => {
  const wrong: string[] = [];
  let hits = 0;
  let kept = 0;
  for (const term of askedTerms()) {
    const expected = reference(term);
    const got = ours.hits(term, keep.word);
    const plain = ours.hits(term);
    hits += got.count;
    if (got.count !== expected.length || plain.count !== expected.length || plain.kept !== undefined) { wrong.push(`${term}: ${got.count} pages, not ${expected.length}`); continue; }
    expected.forEach((e, k) => {
      if (e.kept) kept++;
      const score = got.scores[k]!;
      if (got.pages[k] !== e.page || plain.pages[k] !== e.page) wrong.push(`${term}: page ${got.pages[k]} at ${k}, not ${e.page}`);
      else if (score !== e.score || plain.scores[k] !== e.score || !Object.is(Math.fround(e.score), score)) wrong.push(`${term}: page ${e.page} scores ${score}, not ${e.score}`);
      else if (got.kept![k] !== (e.kept ? 1 : 0)) wrong.push(`${term}: page ${e.page} kept ${got.kept![k]}`);
    });
  }
  assert.ok(hits > 100_000 && kept > 10_000 && kept < hits, `${hits} hits, ${kept} with a kept word`);
  assert.equal(wrong.slice(0, 20), [], `${wrong.length} hits answered otherwise`);
});

postings('positions(): searchNow\'s kept positions of a page, for the best pages of every term and every page of a word on all pages', () => {
  const pageOf = new Map(ours.pageIds.map((id, page) => [id, page]));
  const wrong: string[] = [];
  const check = (term: string, k: Keep, hits: readonly RawHit[]) => {
    for (const h of hits) {
      const got = ours.positions(term, pageOf.get(h.id)!, k);
      if (got.join() !== h.kept!.join()) wrong.push(`${term} on ${h.id}: ${got.join()} ≠ ${h.kept!.join()}`);
    }
  };
  let everywhere = '';
  let checked = 0;
  for (const term of askedTerms()) {
    const hits = ours.searchNow(term, keep);
    if (hits.length === ours.pageIds.length && everywhere === '') everywhere = term;
    checked += Math.min(hits.length, 3);
    check(term, keep, hits.slice(0, 3));
  }
  assert.ok(everywhere !== '', 'a term on every page');
  const all = { word: () => true, max: 1_000_000 };
  const positions = new Map(ours.searchNow(everywhere).map((h) => [h.id, h.words.join()]));
  const allKept = ours.searchNow(everywhere, all);
  assert.ok(allKept.every((h) => h.kept!.join() === positions.get(h.id)), 'a test that keeps every word keeps every position');
  check(everywhere, all, allKept);
  check(everywhere, keep, ours.searchNow(everywhere, keep));
  assert.is(ours.positions(everywhere, ours.pageIds.length, keep).length, 0, 'a page past the last');
  assert.ok(checked > 5_000, `${checked} pages`);
  assert.equal(wrong.slice(0, 20), [], `${wrong.length} pages' positions otherwise`);
});

/**
 * Each page's score when each word counts every one of its locations there: what the entries'
 * summaries sum to. Where two matched locations share a position Pagefind counts it once.
 */
function summedScores(index: PostingsIndex, term: string): Map<number, number> {
  const t = termWords(index, term)!;
  const records = t.words.map((w) => index.postings(w));
  const pages = new Set<number>();
  for (const r of records) for (let e = 0; e < r.entries; e++) pages.add(r.page[e]!);
  const termIdf = idf(index.header.pages, pages.size);
  const avg = averagePageLength(index.wordCounts);
  const out = new Map<number, number>();
  for (const page of pages) {
    let score = 0;
    const fields = new Map<number, number>();
    records.forEach((r, i) => {
      let weights = 0;
      let first: number | undefined;
      const metas = new Set<number>();
      for (let e = 0; e < r.entries; e++) {
        if (r.page[e] !== page) continue;
        first ??= r.form[e]!;
        for (let l = r.locStart[e]!; l < r.locStart[e + 1]!; l++) weights += r.loc[3 * l]!;
        for (let m = r.metaStart[e]!; m < r.metaStart[e + 1]!; m++) metas.add(r.meta[m]!);
      }
      for (const f of metas) fields.set(f, (fields.get(f) ?? 0) + 1);
      if (first === undefined || weights === 0) return;
      const word = index.words[t.words[i]!]!;
      const bonus = { length: lengthBonus(word, t.stem), diacritic: diacriticBonus(t.typed, [word, ...r.forms][first]!) };
      score = Math.fround(score + wordScore(weights, bonus, index.wordCounts[page]!, avg, termIdf));
    });
    let boost = 0;
    for (const [f, n] of [...fields].sort((a, b) => a[0] - b[0])) boost = Math.fround(boost + metaBoost(index.header.fields[f]!, n, termIdf));
    out.set(page, Math.fround(score + boost));
  }
  return out;
}

postings('a position two matched words share counts once, as Pagefind\'s sort leaves it: hits() scores those pages from their locations', async () => {
  const index = await PostingsIndex.open(searchDir);
  try {
    const terms = new Set<string>();
    let pages = 0;
    for (const term of prefixes(3)) {
      const summed = summedScores(index, term);
      const got = ours.hits(term);
      const pageOf = new Map(ours.pageIds.map((id, page) => [id, page]));
      for (const h of ours.searchNow(term)) {
        const page = pageOf.get(h.id)!;
        if (summed.get(page) === h.score) continue;
        terms.add(term);
        pages++;
        assert.is(got.scores[got.pages.indexOf(page)], h.score, `${term} on ${h.id}`);
      }
    }
    // Scored from their summaries, these pages would be answered otherwise.
    assert.ok(terms.size >= 5, `${terms.size} terms (${pages} pages) where a shared position changes a score`);
  } finally {
    index.close();
  }
});

postings.run();
