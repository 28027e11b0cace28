/**
 * search_pages over one read-model build: the build's postings (postings-search.ts, Pagefind's
 * search and scores without Pagefind) find and score candidate pages, this module gathers them
 * per query term, and analyze.ts, rank.ts, precision.ts and weights.ts
 * decide what the query means, what really matched and in which order; it then pages and cuts
 * excerpts.
 *
 * - Matching, per word (analyze.ts names the words of each term and its synonyms): the postings
 *   are asked, as Pagefind would be, for the common prefix of the build words that word matches
 *   (so "fontanería" also reaches pages that only say "fontaneros"), and return pages, scores and
 *   the positions matched. Pagefind matches prefixes, so the text's word at each position is
 *   checked against the word (vocabulary.ts; the postings know the words, each is checked once)
 *   and a page stays only if a position, its title or its headings really match.
 * - Cost: per-word answers in one bounded LRU (queries share words: "cerrajero",
 *   "cerrajero en vigo" and "cerrajero" with city=vigo are one lookup), ranked lists per
 *   (city, normalized query) in another; pages of a list, excerpts included, are built on first
 *   use and kept with it, so a cursor walk or a repeated query is a slice.
 * - Memory: what grows with the site stays on disk or in flat arrays — page texts are read by
 *   offset (text-pack.ts), title and heading stems are numbers (page-stems.ts), each word's
 *   postings are read from disk when a search needs them — and both caches are bounded in bytes
 *   as well as entries.
 */
import path from 'node:path';
import fs from 'node:fs/promises';
import type { CitySlug, CityFilter } from '../schemas/cities.ts';
import type { SearchPagesInput } from '../schemas/params.ts';
import type { SearchResponse, SearchResult } from '../schemas/resources.ts';
import { invalidParam } from '../errors.ts';
import { CursorCodec, MAX_OFFSET } from './cursor.ts';
import { buildExcerpt, type Words } from './excerpt.ts';
import { Lru } from './lru.ts';
import { openPostingsSearch } from './postings-search.ts';
import type { RawHit, TermSearch } from './term-search.ts';
import { CompiledLexiconSchema } from '../schemas/lexicon.ts';
import { analyze, normalizeQuery, type Term } from './analyze.ts';
import { BloomFilter } from './bloom.ts';
import { Lexicon } from './lexicon.ts';
import type { PageStems } from './page-stems.ts';
import { rank, type RankedPage, type TermMatch } from './rank.ts';
import { fieldFactor } from './weights.ts';
import { ENGLISH_WORDS_FILE, LEXICON_FILE, readSidecar, SPANISH_WORDS_FILE, TEXTS_FILE } from './sidecar.ts';
import { stem } from './stem-es.ts';
import { TextPack } from './text-pack.ts';
import { words as foldedWords } from './text.ts';
import { familyStems, Vocabulary } from './vocabulary.ts';

/** What an engine may hold in memory; the defaults below, or smaller in tests. */
export interface SearchMemory {
  /** Split page texts kept (bytes). */
  textCacheBytes: number;
  /** Sites up to this many pages fill the word cache at open. */
  warmMaxPages: number;
}

/** Ranked lists kept per engine. A list is at most one reference per matching page. */
export const CACHE_ENTRIES = 400;
/**
 * Per-word answers kept per engine. With CACHE_ENTRIES full of the most frequent words
 * of the 410-page sample site, the two caches hold ~40 MB of heap.
 */
export const WORD_CACHE_ENTRIES = 600;
/**
 * Byte bounds of the two caches (estimated as below): on a large site a common word matches tens
 * of thousands of pages, so a bound on entries alone is no bound on memory. The sample site's
 * lists stay far below them, so there only the entry counts bind.
 */
export const CACHE_BYTES = 32 * 2 ** 20;
export const WORD_CACHE_BYTES = 48 * 2 ** 20;
/** Split page texts kept for checking positions and cutting excerpts (text-pack.ts). */
export const TEXT_CACHE_BYTES = 24 * 2 ** 20;
/** Estimated heap bytes of a cached word hit and of a ranked page, besides their positions. */
const HIT_BYTES = 72;
const RANKED_BYTES = 96;
/** Positions kept per page and word: the excerpt needs the first few, the cache stays bounded. */
const MAX_POSITIONS = 64;
const NONE: readonly number[] = Object.freeze([]);
/** Sites up to this many pages fill the word cache at open (WARM_CACHE_WORDS). */
export const WARM_MAX_PAGES = 2_000;
const DEFAULT_MEMORY: SearchMemory = { textCacheBytes: TEXT_CACHE_BYTES, warmMaxPages: WARM_MAX_PAGES };
/**
 * At open, the answers of the words pages are titled and described with — trades, services,
 * problems, cities: what agents search for — are fetched into the word cache, most frequent
 * first, within a time budget, so the first search of a common query does not pay for a lookup.
 */
const WARM_CACHE_WORDS = Math.floor(WORD_CACHE_ENTRIES / 2);
const WARM_BUDGET_MS = 3000;
/**
 * Words on more than this share of the pages are left cold: template words ("presupuesto",
 * "zonas") hold a hit per page each — most of the cache's memory — and are rarely searched alone.
 */
const WARM_MAX_PAGE_SHARE = 0.1;

export interface PageInfo {
  readonly title: string;
  readonly url: string;
  readonly city: string;
  readonly description?: string;
}

/** The pages of the loaded model by site path (a Map, or the model's page index). */
export interface PageInfos {
  readonly size: number;
  get(path: string): PageInfo | undefined;
  values(): Iterable<PageInfo>;
}

interface Doc {
  /** The page's number in the sidecar: its text in the text pack, its stems in PageStems. */
  index: number;
  path: string;
  title: string;
  url: string;
  city: CitySlug | '';
}

/** What the engine knows of each page besides its Doc, by the page's number. */
interface PageData {
  texts: TextPack;
  titles: PageStems;
  /** Stems of the headings and the description. */
  heads: PageStems;
}

/** A ranked page; its result (excerpt included) is made on first use. */
type Ranked = RankedPage<Doc> & { result?: SearchResult };

interface Entry {
  scope: string;
  ranked: Ranked[];
  /**
   * Responses already given for this list, by offset and limit: a repeated request gets the same
   * frozen object back, so the HTTP layer can keep its serialized (and compressed) body with it.
   */
  responses?: Map<number, SearchResponse>;
}

/** Responses kept per ranked list (first pages under the few limits clients use, a cursor walk). */
const RESPONSES_PER_ENTRY = 16;

/** A page that really matches one query word: its (Pagefind) score, where, and the matching positions. */
interface WordHit { doc: Doc; score: number; inTitle: boolean; inHeading: boolean; positions: readonly number[] }

/** Stems of each folded word in a raw text word ("agua/luz," → [["agu"], ["luz"]]), memoized per engine. */
class StemMemo {
  private readonly memo = new Map<string, readonly string[]>();
  of(raw: string): readonly string[] {
    let s = this.memo.get(raw);
    if (s === undefined) {
      s = foldedWords(raw).map(stem);
      if (this.memo.size >= 50_000) this.memo.clear();
      this.memo.set(raw, s);
    }
    return s;
  }
}

/** The longest prefix the words share: what the engine looks a word up by. */
export function commonPrefix(list: readonly string[]): string {
  let p = list[0] ?? '';
  for (const w of list) {
    let i = 0;
    while (i < p.length && i < w.length && p[i] === w[i]) i++;
    p = p.slice(0, i);
  }
  return p;
}

/** Cache key of a query word: its stem family (vocabulary.ts `familyStems`), which decides its matches. */
function familyKey(term: string): string {
  return [...familyStems(term)].sort().join(' ');
}

/**
 * Words of page titles and descriptions, most frequent first, as the analysis would look them up:
 * what the engine warms its word cache with.
 */
function warmTermsOf(pages: PageInfos, vocabulary: Vocabulary, filler: ReadonlySet<string>, max: number): string[] {
  const counts = new Map<string, number>();
  for (const p of pages.values()) {
    for (const w of new Set(foldedWords(`${p.title} ${p.description ?? ''}`))) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  const maxPages = Math.max(1, Math.floor(pages.size * WARM_MAX_PAGE_SHARE));
  const out: string[] = [];
  const keys = new Set<string>();
  for (const [w] of [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) {
    if (out.length >= max) break;
    if (w.length < 3 || filler.has(w) || vocabulary.pages(w) > maxPages || vocabulary.family(w).length === 0) continue;
    const key = familyKey(w);
    if (!keys.has(key)) { keys.add(key); out.push(w); }
  }
  return out;
}

/** Whether any of `stems` is in `set`. */
function anyIn(stems: Iterable<string>, set: ReadonlySet<string>): boolean {
  for (const s of stems) if (set.has(s)) return true;
  return false;
}

/** Each entry weighs at least its share of the bound, so the entry count stays bounded too. */
const weigh = (bytes: number, bound: number, entries: number) => Math.max(bytes, Math.ceil(bound / entries));

const hitsWeight = (hits: readonly WordHit[]) =>
  weigh(hits.reduce((sum, h) => sum + HIT_BYTES + 8 * h.positions.length, 0), WORD_CACHE_BYTES, WORD_CACHE_ENTRIES);

const entryWeight = (e: Entry) => weigh(e.ranked.length * RANKED_BYTES, CACHE_BYTES, CACHE_ENTRIES);

const hasPositions = (m: TermMatch): boolean => m.positions.some((p) => p.length > 0);

export class SearchEngine {
  private readonly cache = new Lru<string, Entry>(CACHE_BYTES);
  private readonly pending = new Map<string, Promise<Entry>>();
  private readonly wordCache = new Lru<string, WordHit[]>(WORD_CACHE_BYTES);
  private readonly wordPending = new Map<string, Promise<WordHit[]>>();
  private readonly stems = new StemMemo();
  private closed = false;

  constructor(
    private readonly index: TermSearch,
    private readonly docs: ReadonlyMap<string, Doc>,
    private readonly data: PageData,
    private readonly vocabulary: Vocabulary,
    private readonly lexicon: Lexicon,
    private readonly cursors: CursorCodec,
    /** Query words to look up at open (see WARM_CACHE_WORDS). */
    private readonly warmTerms: readonly string[] = [],
  ) {
    for (const d of docs.values()) this.byPath.set(d.path, d);
  }

  /** The pages by site path (what intents name). */
  private readonly byPath = new Map<string, Doc>();

  /** Pages the engine can return. */
  get size(): number {
    return this.docs.size;
  }

  /** What the engine holds now of what grows with use: cached text bytes. */
  get held(): { textBytes: number } {
    return { textBytes: this.data.texts.cachedBytes };
  }

  /**
   * The response for `input`: at once when the query's ranking is cached (most requests: agents
   * repeat the common queries), after the word lookups otherwise. Bad cursors throw (ApiError 400).
   */
  search(input: SearchPagesInput): SearchResponse | Promise<SearchResponse> {
    if (this.closed) throw new Error('search engine is closed');
    const normalized = normalizeQuery(input.query);
    const scope = `${input.city}\u0000${normalized}`;
    let offset = 0;
    if (input.cursor !== undefined) {
      const decoded = this.cursors.decode(input.cursor, scope);
      if (decoded === null) throw invalidCursor();
      offset = decoded;
    }
    const entry = this.cache.get(scope);
    if (entry !== undefined) return this.respond(entry, scope, offset, input.limit);
    return this.compute(scope, normalized, input.city).then((computed) => this.respond(computed, scope, offset, input.limit));
  }

  /** One page of an entry's ranking, from `offset`: built and frozen once per (offset, limit). */
  private respond(entry: Entry, scope: string, offset: number, limit: number): SearchResponse {
    if (offset > 0 && offset >= entry.ranked.length) throw invalidCursor();
    const key = offset * 64 + limit;
    const known = entry.responses?.get(key);
    if (known !== undefined) return known;
    const end = Math.min(offset + limit, entry.ranked.length);
    const results: SearchResult[] = [];
    for (let i = offset; i < end; i++) results.push(this.result(entry.ranked[i]!));
    const response: SearchResponse = Object.freeze({
      total: results.length,
      results: Object.freeze(results) as SearchResult[],
      next_cursor: end < entry.ranked.length ? this.cursors.encode(end, scope) : null,
    });
    entry.responses ??= new Map();
    if (entry.responses.size < RESPONSES_PER_ENTRY) entry.responses.set(key, response);
    return response;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cache.clear();
    this.wordCache.clear();
    await Promise.all([...this.wordPending.values()].map((p) => p.catch(() => undefined)));
    await this.index.close();
    this.data.texts.close();
  }


  /**
   * Looks one word up, so broken postings fail at open; then fills the word cache with the warm
   * terms (WARM_CACHE_WORDS; none on a large site).
   */
  async warm(): Promise<void> {
    await this.index.search(this.vocabulary.first() ?? 'a');
    const started = performance.now();
    for (const term of this.warmTerms) {
      if (this.closed || performance.now() - started > WARM_BUDGET_MS) break;
      await this.wordHits(term);
    }
  }

  private compute(scope: string, normalized: string, city: CityFilter): Promise<Entry> {
    let p = this.pending.get(scope);
    if (p === undefined) {
      p = this.rank(scope, normalized, city)
        .then((entry) => {
          if (!this.closed) this.cache.set(scope, entry, entryWeight(entry));
          return entry;
        })
        .finally(() => this.pending.delete(scope));
      this.pending.set(scope, p);
    }
    return p;
  }

  private async rank(scope: string, normalized: string, city: CityFilter): Promise<Entry> {
    const analysis = analyze(normalized, this.lexicon, this.vocabulary);
    const [terms, soft] = await Promise.all([
      Promise.all(analysis.terms.map((t) => this.termMatches(t))),
      Promise.all(analysis.soft.map((t) => this.termMatches(t))),
    ]);
    const ranked: Ranked[] = rank({ analysis, terms, soft, docs: this.byPath, pages: this.docs.size, city });
    if (ranked.length > MAX_OFFSET) ranked.length = MAX_OFFSET;
    return { scope, ranked };
  }

  /**
   * The pages a term matches: per alternative, the pages holding every one of its words; a page
   * matched by several alternatives keeps the one that counts most there (its weight times where
   * it matched: a synonym in the title beats the word typed in the body).
   */
  private async termMatches(term: Term): Promise<Map<Doc, TermMatch>> {
    const out = new Map<Doc, TermMatch>();
    for (const alt of term.alternatives) {
      const perWord = await Promise.all(alt.words.map((w) => this.wordHits(w)));
      const [first, ...rest] = perWord;
      if (first === undefined) continue;
      const others = rest.map((hits) => new Map(hits.map((h) => [h.doc, h])));
      const top = perWord.map((hits) => hits.reduce((m, h) => Math.max(m, h.score), 0) || 1);
      for (const h of first) {
        const all = [h];
        for (const o of others) { const x = o.get(h.doc); if (x === undefined) break; all.push(x); }
        if (all.length !== perWord.length) continue;
        const match: TermMatch = {
          weight: alt.weight,
          title: all.some((x) => x.inTitle),
          heading: all.some((x) => x.inHeading),
          body: all.reduce((sum, x, k) => sum + x.score / top[k]!, 0) / all.length,
          positions: all.map((x) => x.positions),
        };
        const prev = out.get(h.doc);
        if (prev === undefined) out.set(h.doc, match);
        else if (match.weight * fieldFactor(match) > prev.weight * fieldFactor(prev)) {
          // The excerpt shows where the words are: an alternative matched only in the title keeps the others' places.
          out.set(h.doc, hasPositions(match) ? match : { ...match, positions: prev.positions });
        } else if (!hasPositions(prev) && hasPositions(match)) prev.positions = match.positions;
      }
    }
    return out;
  }

  /**
   * The pages that really match one query word (cached; looked up once per word). Words with
   * the same stem family ("fontanero", "fontaneros") match the same pages: one entry serves both.
   */
  private wordHits(term: string): Promise<WordHit[]> {
    const key = familyKey(term);
    const cached = this.wordCache.get(key);
    if (cached !== undefined) return Promise.resolve(cached);
    let p = this.wordPending.get(key);
    if (p === undefined) {
      const family = familyStems(term);
      const keep = { word: (word: string) => anyIn(this.stems.of(word), family), max: MAX_POSITIONS };
      p = this.index.search(commonPrefix(this.vocabulary.family(term)), keep)
        .then((raw) => {
          const hits = this.verify(family, raw);
          if (!this.closed) this.wordCache.set(key, hits, hitsWeight(hits));
          return hits;
        })
        .finally(() => this.wordPending.delete(key));
      this.wordPending.set(key, p);
    }
    return p;
  }

  /** Keeps the hits where the word really matches (title, or a located word). */
  private verify(family: ReadonlySet<string>, raw: readonly RawHit[]): WordHit[] {
    const out: WordHit[] = [];
    for (const hit of raw) {
      const doc = this.docs.get(hit.id);
      if (doc === undefined) continue;
      let positions = hit.kept;
      if (positions === undefined) {
        const located = this.data.texts.wordsAt(doc.index, hit.words);
        const kept: number[] = positions = [];
        hit.words.forEach((pos, k) => {
          const w = located[k];
          if (w !== undefined && anyIn(this.stems.of(w), family)) kept.push(pos);
        });
      }
      // The family is a dozen stems, a page's headings hundreds: look the family up in them.
      const inTitle = this.data.titles.hasAny(doc.index, family);
      const inHeading = this.data.heads.hasAny(doc.index, family);
      if (positions.length > 0 || inTitle || inHeading) {
        // Trimmed copy (a pushed-to array keeps spare capacity) of the first positions: enough for
        // the excerpt, bounded for the cache.
        out.push({ doc, score: hit.score, inTitle, inHeading, positions: positions.length === 0 ? NONE : positions.slice(0, MAX_POSITIONS) });
      }
    }
    return out;
  }

  private splitOf(doc: Doc): Words {
    return this.data.texts.words(doc.index);
  }

  private result(r: Ranked): SearchResult {
    return (r.result ??= Object.freeze({
      title: r.doc.title,
      url: r.doc.url,
      city: r.doc.city,
      excerpt: buildExcerpt(this.splitOf(r.doc), r.positions),
    }));
  }
}

const invalidCursor = () =>
  invalidParam('cursor', 'Use el next_cursor de la respuesta anterior, con la misma query y city; los cursores caducan al publicarse contenido nuevo.');

/**
 * Opens the search of one read-model build. `searchDir` is its `search/` folder; `pages` (site
 * path → title, URL and city, from the loaded model) is what results show, and only pages in
 * it are returned; `cursorKey` signs its cursors (cursor.ts `cursorKey`).
 */
export async function openSearch(searchDir: string, pages: PageInfos, cursorKey: Buffer, memory: SearchMemory = DEFAULT_MEMORY): Promise<SearchEngine> {
  const sidecar = await readSidecar(searchDir);
  const docs = new Map<string, Doc>();
  for (let index = 0; index < sidecar.size; index++) {
    const p = sidecar.path(index);
    const info = pages.get(p);
    if (info !== undefined) docs.set(sidecar.id(index), { index, path: p, title: info.title, url: info.url, city: info.city as CitySlug | '' });
  }
  const { titles, heads } = sidecar.stems();
  const texts = new TextPack(path.join(searchDir, TEXTS_FILE), sidecar.textOffsets(), memory.textCacheBytes);
  const bloom = (name: string) => fs.readFile(path.join(searchDir, name)).then((data) => BloomFilter.from(data));
  const [compiled, spanish, english] = await Promise.all([
    fs.readFile(path.join(searchDir, LEXICON_FILE), 'utf8').then((raw) => CompiledLexiconSchema.parse(JSON.parse(raw))),
    bloom(SPANISH_WORDS_FILE),
    bloom(ENGLISH_WORDS_FILE),
  ]);
  const lexicon = new Lexicon(compiled, { spanish, english }, stem);
  let index: TermSearch;
  try {
    index = await openPostingsSearch(searchDir);
  } catch (err) {
    texts.close();
    throw err;
  }
  const vocabulary = new Vocabulary(sidecar.vocabularyData(), sidecar.size);
  const engine = new SearchEngine(index, docs, { texts, titles, heads }, vocabulary, lexicon, new CursorCodec(cursorKey),
    docs.size <= memory.warmMaxPages ? warmTermsOf(pages, vocabulary, lexicon.filler, WARM_CACHE_WORDS) : []);
  try {
    await engine.warm();
  } catch (err) {
    await engine.close();
    throw err;
  }
  return engine;
}

export function searchPages(engine: SearchEngine, input: SearchPagesInput): SearchResponse | Promise<SearchResponse> {
  return engine.search(input);
}
