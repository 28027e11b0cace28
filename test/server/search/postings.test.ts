/**
 * The server's postings search answers as Pagefind 1.5.2 does, checked against Pagefind's own
 * runtime (its pagefind.js and WebAssembly, every index chunk loaded) on the built sample site:
 *
 * - the stems: `snowballStem` gives Pagefind's stem for every prefix of every word of the site;
 * - the answers: for the terms the engine asks (each word's family prefix) and every prefix of up
 *   to four letters (the broad ones, where many words and shared locations meet), the same pages
 *   with bit-identical scores and the same matched positions, best score first.
 */
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { commonPrefix } from '../../../server/search/engine.ts';
import { PAGEFIND_DIR, readIndexedPages, readSidecar, type Sidecar } from '../../../server/search/sidecar.ts';
import { openPostingsSearch, type PostingsSearch } from '../../../server/search/postings-search.ts';
import { snowballStem } from '../../../server/search/stem-es.ts';
import type { RawHit } from '../../../server/search/term-search.ts';
import { familyStems, Vocabulary } from '../../../server/search/vocabulary.ts';
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
  const words = new Vocabulary(sidecar.vocabularyData(), sidecar.size);
  const asked = vocabulary.map(([w]) => (familyStems(w).size > 0 ? commonPrefix(words.family(w)) : w));
  const terms = [...new Set([...asked, ...prefixes(4)])].filter((t) => t !== '');
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

postings.run();
