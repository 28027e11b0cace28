/**
 * search_pages over one read-model build: the build's index (formats/search/index-file.ts) gives
 * each query word's pages and scores (word-hits.ts), this module gathers them per query term, and
 * analyze.ts, rank.ts, precision.ts and weights.ts decide what the query means, what really
 * matched and in which order; it then pages and cuts excerpts.
 *
 * - Matching, per word (analyze.ts names the words of each term and its synonyms): the pages whose
 *   text, title or headings hold a word of its stem family (vocabulary.ts `familyStems`: so
 *   "fontanería" also reaches pages that only say "fontaneros", and "dentista" never "dentro").
 * - Cost: per-word answers in one bounded LRU (queries share words: "cerrajero",
 *   "cerrajero en vigo" and "cerrajero" with city=vigo are one lookup),
 *   ranked lists per (city, normalized query) in another; pages of a list, excerpts included, are
 *   built on first use and kept with it, so a cursor walk or a repeated query is a slice. A common
 *   word is on most pages of a large site: answers, matches and rankings are columns by page
 *   number, only the pages an answer can come from are ranked (rank.ts `topicalTerms`), only the
 *   first RANKED_FIRST are put in order, and the matched positions an excerpt needs are found only
 *   for the pages a response shows, in their text.
 * - Memory: what grows with the site stays on disk or in flat arrays — page texts are read by
 *   offset (text-pack.ts), title and heading stems are numbers (page-stems.ts), each stem's
 *   postings are read from disk when a search needs them — and both caches are bounded in bytes
 *   as well as entries.
 */
import path from 'node:path';
import fs from 'node:fs/promises';
import type { CitySlug, CityFilter } from '../../formats/schemas/cities.ts';
import type { SearchPagesInput } from '../schemas/params.ts';
import type { SearchResponse, SearchResult } from '../../formats/schemas/resources.ts';
import { invalidParam } from '../errors.ts';
import { CursorCodec, MAX_OFFSET } from './cursor.ts';
import { buildExcerpt } from './excerpt.ts';
import { Lru } from '../../formats/search/lru.ts';
import { memoize } from '../memo.ts';
import { holdWith } from '../kept-with.ts';
import { advance, Marks } from './page-sets.ts';
import { PostingsFile } from '../../formats/search/postings.ts';
import { CompiledLexiconSchema } from '../../formats/schemas/lexicon.ts';
import { analyze, normalizeQuery, type Analysis, type Term } from './analyze.ts';
import { BloomFilter } from '../../formats/search/bloom.ts';
import { Lexicon } from './lexicon.ts';
import type { PageStems } from '../../formats/search/page-stems.ts';
import { HEADING, TITLE } from '../../formats/search/match-flags.ts';
import { fieldsFactor, namedPages, rank, neededTerms, termWeights, type RankDocs, type TermMatches } from './rank.ts';
import { isSpecific } from './precision.ts';
import { ORDERED_PAGES_READ, orderedPages, orderedWindows, phrasePages } from './phrase.ts';
import { BODY, bodyScore, familyKey, WordHitsMaker, type WordHits } from '../../formats/search/word-hits.ts';
import { TokenPlaces } from './token-places.ts';
import { ENGLISH_WORDS_FILE, LEXICON_FILE, readIndexFile, SPANISH_WORDS_FILE, TEXTS_FILE, type SearchIndexFile } from '../../formats/search/index-file.ts';
import { stem } from '../../formats/search/stem-es.ts';
import { TextPack } from './text-pack.ts';
import { words as foldedWords } from '../../formats/search/text.ts';
import { familyStems, Vocabulary } from '../../formats/search/vocabulary.ts';

/** What an engine may hold in memory; the defaults below, or smaller in tests. */
export interface SearchMemory {
  /** Split page texts kept (bytes), and as much again for their token stems (token-places.ts). */
  textCacheBytes: number;
  /** Ranked lists kept, with their results and responses (bytes; default CACHE_BYTES). */
  cacheBytes?: number;
  /** Sites up to this many pages fill the word cache at open. */
  warmMaxPages: number;
  /** Pages put in order when a query is first ranked (RANKED_FIRST). */
  rankedFirst?: number;
}

/**
 * Pages put in order when a query is first ranked (ten pages of the largest limit); a request past
 * them ranks the query again in full. Most requests are the first page.
 */
export const RANKED_FIRST = 256;
/** Ranked lists kept per engine: their first pages only (RANKED_FIRST), so a common query's list is small. */
export const CACHE_ENTRIES = 1024;
/** Per-word answers kept per engine. */
export const WORD_CACHE_ENTRIES = 600;
/**
 * Byte bounds of the two caches: on a large site a common word matches tens of thousands of
 * pages, so a bound on entries alone is no bound on memory. Their entries are typed arrays,
 * weighed by their bytes; a ranked list also by the results, responses and serialized bodies
 * kept with it as they are made.
 */
export const CACHE_BYTES = 32 * 2 ** 20;
/** A word answer's hit is seven bytes (page, mentions, flags), so this holds a few million hits. */
export const WORD_CACHE_BYTES = 26 * 2 ** 20;
/** Split page texts kept for cutting excerpts (text-pack.ts): one is read again in tens of microseconds. */
export const TEXT_CACHE_BYTES = 8 * 2 ** 20;
/** Heap bytes of an entry besides its columns and what is kept with it (objects, maps). */
const ENTRY_BYTES = 2048;
/** Heap bytes of a result besides its excerpt (its title, URL and city are the page's own). */
const RESULT_BYTES = 160;
/** Heap bytes of a response besides its results' (object, array, cursor). */
const RESPONSE_BYTES = 256;
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
 * "zonas") are on every page and rarely searched alone.
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

/** A page the engine returns, by its number in the index: its text in the text pack, its stems in PageStems. */
interface Doc {
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

/** The hits of each word of each alternative of a term. */
type TermWordHits = WordHits[][];

/** A term's matches and, per page, which of its alternatives the excerpt shows (+1; 0: none). */
interface Matched extends TermMatches {
  count: number;
  shown: Uint8Array;
  /** Whether the alternative shown has a matched place in the text. */
  placed: Uint8Array;
  /** The pages written to. */
  written: Int32Array;
}

/** Query words whose lookup is kept. */
const LOOKUPS = 4096;
/** Term page counts kept (a number each). */
const TERM_COUNTS = 4096;
/** Term columns kept for the next query: most queries have fewer terms (soft ones included). */
const POOLED_TERMS = 8;

/**
 * Columns by page number for the terms of one query, taken zeroed and given back zeroed (a site's
 * pages times a few terms: too much to allocate per query).
 */
class MatchedPool {
  private readonly free: Matched[] = [];
  constructor(private readonly size: number) {}

  take(): Matched {
    const n = this.size;
    return this.free.pop() ?? {
      count: 0, weight: new Float64Array(n), fields: new Uint8Array(n), body: new Float64Array(n),
      shown: new Uint8Array(n), placed: new Uint8Array(n), written: new Int32Array(0),
    };
  }

  give(m: Matched): void {
    if (m.written.length * 8 > this.size) {
      // Most pages written: one fill of each column is cheaper than a write per page.
      m.weight.fill(0); m.fields.fill(0); m.body.fill(0); m.shown.fill(0); m.placed.fill(0);
    } else {
      for (const d of m.written) m.weight[d] = m.fields[d] = m.body[d] = m.shown[d] = m.placed[d] = 0;
    }
    m.written = new Int32Array(0);
    m.count = 0;
    if (this.free.length < POOLED_TERMS) this.free.push(m);
  }
}

interface Entry {
  scope: string;
  /** Ranked pages, best first: the first `rankedFirst`, or every one once a request went past them. */
  docs: Int32Array;
  /** How many pages the ranking has (at most MAX_OFFSET). */
  total: number;
  /** The topic terms, then the soft terms, of the query. */
  terms: readonly Term[];
  /** Per ranked page i and term k, `shown[i · terms + k]`: the alternative the excerpt shows (+1; 0: none). */
  shown: Uint8Array;
  /** Results made so far, by rank. */
  results: Map<number, SearchResult>;
  /** Bytes of the results and responses kept, and of what is kept with them (kept-with.ts). */
  held: number;
  /**
   * Responses already given for this list, by offset and limit: a repeated request gets the same
   * frozen object back, so the HTTP layer can keep its serialized (and compressed) body with it.
   */
  responses?: Map<number, SearchResponse>;
}


/** Responses kept per ranked list (first pages under the few limits clients use, a cursor walk). */
const RESPONSES_PER_ENTRY = 16;

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

/** Whether two alternatives' words have the same answers (one cached answer serves a word family). */
function sameWords(a: readonly WordHits[], b: readonly WordHits[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Each entry weighs at least its share of the bound, so the entry count stays bounded too. */
const weigh = (bytes: number, bound: number, entries: number) => Math.max(bytes, Math.ceil(bound / entries));

/** A word answer weighs the bytes of its columns, whatever their element types. */
export const hitsWeight = (hits: WordHits): number => weigh(
  ENTRY_BYTES + hits.docs.byteLength + hits.mentions.byteLength + hits.flags.byteLength + hits.topical.byteLength,
  WORD_CACHE_BYTES, WORD_CACHE_ENTRIES,
);

const resultBytes = (r: SearchResult) => RESULT_BYTES + 2 * r.excerpt.length;
const responseBytes = (r: SearchResponse) => RESPONSE_BYTES + 8 * r.results.length + 2 * (r.next_cursor?.length ?? 0);

/** The pages a ranking may return. */
interface Pages {
  /** By index number; undefined for a page the loaded model does not return. */
  docs: ReadonlyArray<Doc | undefined>;
  /** Pages the engine returns. */
  size: number;
  rank: RankDocs;
}

export class SearchEngine {
  private readonly cache: Lru<string, Entry>;
  private readonly cacheBytes: number;
  private readonly wordCache = new Lru<string, WordHits>(WORD_CACHE_BYTES);
  private readonly maker: WordHitsMaker;
  /** Pages each term (its alternatives' word families) matches on the site: the same terms recur in many queries. */
  private readonly termCounts = new Map<string, number>();
  private readonly matched: MatchedPool;
  private readonly marks: Marks;
  /** The candidates of the ranking under way. */
  private readonly candidateMarks: Marks;
  private closed = false;
  private readonly warmTerms: readonly string[];
  private readonly rankedFirst: number;
  private readonly places: TokenPlaces;

  constructor(
    private readonly postings: PostingsFile,
    file: SearchIndexFile,
    private readonly pages: Pages,
    private readonly data: PageData,
    private readonly vocabulary: Vocabulary,
    private readonly lexicon: Lexicon,
    private readonly cursors: CursorCodec,
    options: {
      /** Query words to look up at open (see WARM_CACHE_WORDS). */
      warmTerms?: readonly string[];
      rankedFirst?: number;
      /** The bound of the ranked lists (CACHE_BYTES). */
      cacheBytes?: number;
    } = {},
  ) {
    this.cacheBytes = options.cacheBytes ?? CACHE_BYTES;
    this.cache = new Lru(this.cacheBytes);
    this.matched = new MatchedPool(pages.docs.length);
    this.marks = new Marks(pages.docs.length);
    this.candidateMarks = new Marks(pages.docs.length);
    this.maker = new WordHitsMaker({
      postings, stemIds: file.stemIds(), titles: data.titles, heads: data.heads,
      tokens: (d) => file.tokens(d), averageTokens: file.averageTokens, pages: pages.docs.length,
    });
    this.warmTerms = options.warmTerms ?? [];
    this.rankedFirst = options.rankedFirst ?? RANKED_FIRST;
    this.places = new TokenPlaces((d) => data.texts.words(d), file.stemIds(), data.texts.cacheBytes);
  }

  /** Pages the engine can return. */
  get size(): number {
    return this.pages.size;
  }

  /** What the engine holds now of what grows with use: cached text and token bytes, ranked lists' bytes. */
  get held(): { textBytes: number; cacheBytes: number } {
    return { textBytes: this.data.texts.cachedBytes + this.places.cachedBytes, cacheBytes: this.cache.weight };
  }

  /**
   * The response for `input`: from the cached ranking of the query when there is one (most
   * requests: agents repeat the common queries). Bad cursors throw (ApiError 400).
   */
  search(input: SearchPagesInput): SearchResponse {
    if (this.closed) throw new Error('search engine is closed');
    const normalized = normalizeQuery(input.query);
    const scope = `${input.city}\u0000${normalized}`;
    let offset = 0;
    if (input.cursor !== undefined) {
      const decoded = this.cursors.decode(input.cursor, scope);
      if (decoded === null) throw invalidCursor();
      offset = decoded;
    }
    const end = offset + input.limit;
    let entry = this.cache.get(scope);
    if (entry === undefined || (end > entry.docs.length && entry.docs.length < entry.total)) {
      entry = this.rank(scope, normalized, input.city, end <= this.rankedFirst ? this.rankedFirst : MAX_OFFSET);
      this.cache.set(scope, entry, this.entryWeight(entry));
    }
    return this.respond(entry, scope, offset, input.limit);
  }

  /** A ranked list's weight: its columns and everything kept with it so far. */
  private entryWeight(e: Entry): number {
    return weigh(ENTRY_BYTES + e.docs.byteLength + e.shown.byteLength + e.held, this.cacheBytes, CACHE_ENTRIES);
  }

  /** `bytes` more kept with `entry`: weighed again while the cache holds it. */
  private grew(entry: Entry, bytes: number): void {
    entry.held += bytes;
    this.cache.reweigh(entry.scope, entry, this.entryWeight(entry));
  }

  /** One page of an entry's ranking, from `offset`: built and frozen once per (offset, limit). */
  private respond(entry: Entry, scope: string, offset: number, limit: number): SearchResponse {
    if (offset > 0 && offset >= entry.total) throw invalidCursor();
    const key = offset * 64 + limit;
    const known = entry.responses?.get(key);
    if (known !== undefined) return known;
    const end = Math.min(offset + limit, entry.total);
    const results: SearchResult[] = [];
    const before = entry.held;
    for (let i = offset; i < end; i++) results.push(this.result(entry, i));
    const response: SearchResponse = Object.freeze({
      total: results.length,
      results: Object.freeze(results) as SearchResult[],
      next_cursor: end < entry.total ? this.cursors.encode(end, scope) : null,
    });
    entry.responses ??= new Map();
    if (entry.responses.size < RESPONSES_PER_ENTRY) {
      entry.responses.set(key, response);
      entry.held += responseBytes(response);
      // Its serialized and compressed bodies (respond.ts) live as long as it does.
      holdWith(response, (bytes) => this.grew(entry, bytes));
    }
    if (entry.held !== before) this.grew(entry, 0);
    return response;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cache.clear();
    this.wordCache.clear();
    this.postings.close();
    this.data.texts.close();
    this.places.clear();
  }

  /**
   * Looks one word up, so broken postings fail at open, and inverts the title and heading stems;
   * then fills the word cache with the warm terms (WARM_CACHE_WORDS; none on a large site).
   */
  warm(): void {
    this.maker.make(this.vocabulary.first() ?? 'a');
    // The title and heading stems' page lists and the typo index, so the first search does not make them.
    this.data.titles.pagesWith(0);
    this.data.heads.pagesWith(0);
    this.vocabulary.prepare();
    const started = performance.now();
    for (const term of this.warmTerms) {
      if (this.closed || performance.now() - started > WARM_BUDGET_MS) break;
      this.wordHits(term);
    }
  }

  /** The query's first `limit` pages in order, and how many there are. */
  private rank(scope: string, normalized: string, city: CityFilter, limit: number): Entry {
    const analysis = analyze(normalized, this.lexicon, this.vocabulary);
    const named = namedPages(analysis, this.pages.rank, city);
    const hitsOf = (t: Term): TermWordHits => t.alternatives.map((alt) => alt.words.map((w) => this.wordHits(w)));
    const topicHits = analysis.terms.map(hitsOf);
    const softHits = analysis.soft.map(hitsOf);
    const topicCounts = analysis.terms.map((t, k) => this.termCount(t, topicHits[k]!));
    const { weights, total } = termWeights(analysis, topicCounts, this.pages.size);
    const specific = topicCounts.map((count) => isSpecific(count, this.pages.size));
    const phrase = this.phrase(analysis, topicHits);
    const candidates = this.candidates(topicHits, named, neededTerms(weights, total), specific, phrase);
    const terms: Matched[] = [];
    const soft: Matched[] = [];
    try {
      analysis.terms.forEach((t, k) => terms.push(this.termMatches(t, topicHits[k]!, topicCounts[k]!, candidates)));
      analysis.soft.forEach((t, k) => soft.push(this.termMatches(t, softHits[k]!, this.termCount(t, softHits[k]!), candidates)));
      const ranked = rank({ analysis, terms, soft, docs: this.pages.rank, pages: this.pages.size, city, named, candidates, phrase: new Set(phrase) }, limit);
      const docs = ranked.pages;
      // What each ranked page's excerpt shows: per matched term, its alternative's words.
      const all = [...terms, ...soft];
      const shown = new Uint8Array(docs.length * all.length);
      all.forEach((m, k) => {
        const column = m.shown;
        for (let i = 0, at = k; i < docs.length; i++, at += all.length) shown[at] = column[docs[i]!]!;
      });
      return { scope, docs, total: Math.min(ranked.total, MAX_OFFSET), terms: [...analysis.terms, ...analysis.soft], shown, results: new Map(), held: 0 };
    } finally {
      for (const m of [...terms, ...soft]) this.matched.give(m);
    }
  }

  /**
   * The pages worth ranking, ascending: `named`, those a word of a topic term has in its title,
   * headings or description where a term that can cover the query may match (the terms `needed`
   * keeps: rank.ts `neededTerms`), and every page of a `specific` term (precision.ts). They stay
   * marked in `candidateMarks` until the next ranking.
   */
  private candidates(
    terms: readonly TermWordHits[], named: ReadonlyMap<number, unknown>, needed: { topical: readonly boolean[]; covering: readonly boolean[] },
    specific: readonly boolean[], phrase: readonly number[],
  ): Int32Array {
    const within = needed.covering.every(Boolean) ? undefined : this.coverable(terms, needed.covering);
    const marks = this.candidateMarks;
    marks.next();
    const lists: Int32Array[] = [];
    for (let k = 0; k < terms.length; k++) {
      for (const words of terms[k]!) {
        for (const hits of words) {
          if (specific[k]) lists.push(hits.docs.subarray(0, hits.count));
          else if (needed.topical[k]) lists.push(hits.topical);
        }
      }
    }
    if (phrase.length > 0) lists.push(Int32Array.from(phrase));
    let listed = named.size;
    for (const list of lists) listed += list.length;
    if (listed * 16 >= this.pages.docs.length) {
      // Most of the site, likely: marked without a list, then read off the marks in order.
      for (const d of named.keys()) marks.mark(d);
      for (const list of lists) marks.markAll(list, within);
      return marks.marked();
    }
    const out: number[] = [];
    for (const d of named.keys()) if (marks.mark(d)) out.push(d);
    for (const list of lists) for (const d of list) if ((within === undefined || within.has(d)) && marks.mark(d)) out.push(d);
    return Int32Array.from(out).sort();
  }

  /**
   * The pages whose text holds the query's words together (phrase.ts): the words typed of each
   * topic term, when every one is on the site, the query has no unknown word, and the lexicon's
   * intents have not read every term already (what it knows a query means, it answers), nor
   * read it as asking for a tradesman (his pages answer).
   */
  private phrase(analysis: Analysis, hits: readonly TermWordHits[]): number[] {
    const { unknown, intents, elsewhere } = analysis;
    if (unknown.length > 0 || elsewhere || intents.some((i) => i.trade)) return [];
    // The terms the lexicon's strong intents read.
    const read = new Set(intents.filter((i) => i.strong).flatMap((i) => i.covers));
    const allRead = analysis.terms.length > 0 && analysis.terms.every((_, k) => read.has(k));
    const together = allRead ? [] : this.together(analysis.terms, hits);
    return together.length > 0 ? together : this.ordered(analysis, allRead);
  }

  /** The query's topic words together in one or two pages' text (phrasePages), any order. */
  private together(terms: readonly Term[], hits: readonly TermWordHits[]): number[] {
    if (terms.length < 2) return [];
    const words: WordHits[] = [];
    const families: Int32Array[] = [];
    for (let k = 0; k < terms.length; k++) {
      const typed = terms[k]!.alternatives.findIndex((a) => a.weight === 1);
      if (typed < 0) return [];
      terms[k]!.alternatives[typed]!.words.forEach((w, j) => {
        const h = hits[k]![typed]![j]!;
        if (words.includes(h)) return;
        words.push(h);
        families.push(this.familyIds(w));
      });
    }
    const specific = words.some((w) => isSpecific(w.count, this.pages.size));
    return phrasePages(words, this.pages.size, specific, (d, k) => this.places.positions(d, families[k]!));
  }

  /**
   * The pages holding several query words in the order typed (phrase.ts `orderedWindows`), read on
   * the pages of each window's rarest word when it is on few. A window of three words whose terms
   * the lexicon's intents already read stays theirs: a short everyday phrase is no quote.
   */
  private ordered({ terms, runs }: Analysis, allRead: boolean): number[] {
    // Words whose answers the ranking looks up anyway: reading their page lists costs nothing more.
    const looked = new Set(terms.flatMap((t) => t.alternatives.filter((a) => a.weight === 1).flatMap((a) => a.words)));
    for (const window of orderedWindows(runs)) {
      if (allRead && window.length < 4) continue;
      const ids = window.map((w) => this.familyIds(w));
      if (ids.some((x) => x.length === 0)) continue;
      const pages = this.orderedCandidates(window, looked);
      if (pages === undefined) continue;
      const found = orderedPages(pages, (d) => this.pages.docs[d] !== undefined && this.places.hasSequence(d, ids));
      // On more pages than a phrase of its own: its shorter windows are more common still.
      if (found !== undefined && found.length > 0) return found;
    }
    return [];
  }

  /**
   * The fewest pages a window's words in order can be on, at most ORDERED_PAGES_READ: those of its
   * rarest word, or of the word titling or heading the fewest (a heading quoted: "lo que no
   * conviene hacer"); undefined when every list is longer. Only words on few pages or looked up
   * anyway are read.
   */
  private orderedCandidates(window: readonly string[], looked: ReadonlySet<string>): ArrayLike<number> | undefined {
    let best: ArrayLike<number> | undefined;
    for (const w of window) {
      if (!looked.has(w) && this.vocabulary.familyPages(w) > ORDERED_PAGES_READ) continue;
      const hits = this.wordHits(w);
      const list = hits.count <= ORDERED_PAGES_READ ? hits.docs.subarray(0, hits.count) : hits.topical;
      if (list.length <= ORDERED_PAGES_READ && (best === undefined || list.length < best.length)) best = list;
    }
    return best;
  }

  /**
   * Marks (in `marks`) the pages where a term `covering` keeps may match: a page an alternative
   * matches holds each of its words, so its word on the fewest pages stands for it.
   */
  private coverable(terms: readonly TermWordHits[], covering: readonly boolean[]): Marks {
    this.marks.next();
    for (let k = 0; k < terms.length; k++) {
      if (!covering[k]) continue;
      for (const words of terms[k]!) {
        let rarest = words[0];
        for (const hits of words) if (hits.count < rarest!.count) rarest = hits;
        if (rarest !== undefined) this.marks.markAll(rarest.docs.subarray(0, rarest.count));
      }
    }
    return this.marks;
  }

  /** Pages of the site a term matches (its weight), remembered per word families: the same terms recur in many queries. */
  private termCount(term: Term, alts: TermWordHits): number {
    const key = term.alternatives.map((alt) => alt.words.map(familyKey).join('+')).join('|');
    let count = this.termCounts.get(key);
    if (count === undefined) {
      count = this.count(alts);
      if (this.termCounts.size >= TERM_COUNTS) this.termCounts.clear();
      this.termCounts.set(key, count);
    }
    return count;
  }

  /**
   * Alternative `a` (of weight `weight`) matches page `d` with `flags` and body score `body`: the
   * page keeps the alternative that counts most there (see termMatches).
   */
  private place(out: Matched, weight: number, a: number, d: number, flags: number, body: number): void {
    const fields = flags & (TITLE | HEADING);
    const hasPlace = (flags & BODY) !== 0;
    const prev = out.weight[d]!;
    if (prev === 0) {
      out.weight[d] = weight; out.fields[d] = fields; out.body[d] = body; out.shown[d] = a + 1; out.placed[d] = hasPlace ? 1 : 0;
    } else if (weight * fieldsFactor(fields, body) > prev * fieldsFactor(out.fields[d]!, out.body[d]!)) {
      out.weight[d] = weight; out.fields[d] = fields; out.body[d] = body;
      // An alternative matched only in the title keeps the others' places.
      if (hasPlace) { out.shown[d] = a + 1; out.placed[d] = 1; }
    } else if (out.placed[d] === 0 && hasPlace) { out.shown[d] = a + 1; out.placed[d] = 1; }
  }

  /** Pages of the site holding every word of some alternative (a term's count, for its weight). */
  private count(alts: TermWordHits): number {
    if (alts.length === 1 && alts[0]!.length === 1) return alts[0]![0]!.count;
    this.marks.next();
    let n = 0;
    for (const [a, words] of alts.entries()) {
      // The pages of the word on the fewest, each looked for in the others'.
      const [first, ...rest] = [...words].sort((x, y) => x.count - y.count);
      if (first === undefined || alts.slice(0, a).some((earlier) => sameWords(earlier, words))) continue;
      const at = new Int32Array(rest.length);
      for (let k = 0; k < first.count; k++) {
        const d = first.docs[k]!;
        let all = true;
        for (let j = 0; j < rest.length && all; j++) {
          at[j] = advance(rest[j]!.docs, at[j]!, d);
          all = rest[j]!.docs[at[j]!] === d;
        }
        if (all && this.marks.mark(d)) n++;
      }
    }
    return n;
  }

  /**
   * What a term matches on each candidate page: per alternative, the pages holding every one of its
   * words; a page matched by several alternatives keeps the one that counts most there (its weight
   * times where it matched: a synonym in the title beats the word typed in the body), and shows in
   * its excerpt the places of an alternative matched in its text.
   */
  private termMatches(term: Term, alts: TermWordHits, count: number, candidates: Int32Array): Matched {
    const out = this.matched.take();
    out.written = candidates;
    out.count = count;
    const member = this.candidateMarks;
    alts.forEach((words, a) => {
      const weight = term.alternatives[a]!.weight;
      if (words.length === 0) return;
      // Words matching as an earlier alternative's do (a plural beside its singular), at no more
      // weight, change nothing: on every page that one's match counts at least as much.
      for (let b = 0; b < a; b++) if (term.alternatives[b]!.weight >= weight && sameWords(alts[b]!, words)) return;
      const at = new Int32Array(words.length);
      let rarest = 0;
      for (let j = 1; j < words.length; j++) if (words[j]!.count < words[rarest]!.count) rarest = j;
      const driver = words[rarest]!;
      if (candidates.length * 8 < driver.count) {
        // Few candidates: a join of the candidates and the words' pages, each list skipping ahead
        // to the next page the others may share.
        let i = 0;
        join: while (i < candidates.length) {
          const d = candidates[i]!;
          let flags = 0;
          let sum = 0;
          for (let j = 0; j < words.length; j++) {
            const hits = words[j]!;
            const c = (at[j] = advance(hits.docs, at[j]!, d));
            if (c === hits.count) break join;
            if (hits.docs[c] !== d) { i = advance(candidates, i, hits.docs[c]!); continue join; }
            flags |= hits.flags[c]!;
            sum += bodyScore(hits, c) / hits.top;
          }
          i++;
          this.place(out, weight, a, d, flags, sum / words.length);
        }
        return;
      }
      // Most pages candidates: the pages of the word on the fewest, each asked whether it is a
      // candidate and looked for in the other words' pages; then summed in the words' order.
      scan: for (let k = 0; k < driver.count; k++) {
        const d = driver.docs[k]!;
        if (!member.has(d)) continue;
        for (let j = 0; j < words.length; j++) {
          if (j === rarest) continue;
          const hits = words[j]!;
          const c = (at[j] = advance(hits.docs, at[j]!, d));
          if (c === hits.count) break scan;
          if (hits.docs[c] !== d) continue scan;
        }
        at[rarest] = k;
        let flags = 0;
        let sum = 0;
        for (let j = 0; j < words.length; j++) {
          const hits = words[j]!;
          flags |= hits.flags[at[j]!]!;
          sum += bodyScore(hits, at[j]!) / hits.top;
        }
        this.place(out, weight, a, d, flags, sum / words.length);
      }
    });
    return out;
  }

  /** A query word's stem numbers: memoized, as a response's excerpts ask again for the words its ranking looked up. */
  private readonly familyIds = memoize((term: string): Int32Array => this.places.idsOf(familyStems(term)), LOOKUPS);

  /** A query word's answer (word-hits.ts): cached, else made from the postings. Words of one stem family share it. */
  private wordHits(term: string): WordHits {
    const key = familyKey(term);
    const cached = this.wordCache.get(key);
    if (cached !== undefined) return cached;
    const hits = this.maker.make(term);
    if (!this.closed) this.wordCache.set(key, hits, hitsWeight(hits));
    return hits;
  }

  /** Result `i` of an entry: its excerpt shows where the words of its matched alternatives are. */
  private result(entry: Entry, i: number): SearchResult {
    let r = entry.results.get(i);
    if (r !== undefined) return r;
    const d = entry.docs[i]!;
    const doc = this.pages.docs[d]!;
    const places: Array<readonly number[]> = [];
    entry.terms.forEach((term, k) => {
      const a = entry.shown[i * entry.terms.length + k]!;
      if (a === 0) return;
      for (const w of term.alternatives[a - 1]!.words) places.push(this.places.positions(d, this.familyIds(w)));
    });
    r = Object.freeze({ title: doc.title, url: doc.url, city: doc.city, excerpt: buildExcerpt(this.data.texts.words(d), places) });
    entry.results.set(i, r);
    entry.held += resultBytes(r);
    return r;
  }
}

const invalidCursor = () =>
  invalidParam('cursor', 'Use el next_cursor de la respuesta anterior, con la misma query y city; los cursores caducan al publicarse contenido nuevo.');

/** The engine's pages: those of the index the loaded model has. */
function pagesOf(file: SearchIndexFile, infos: PageInfos): Pages {
  const docs: Array<Doc | undefined> = new Array(file.size).fill(undefined);
  const byPath = new Map<string, number>();
  for (let d = 0; d < file.size; d++) {
    const p = file.path(d);
    const info = infos.get(p);
    if (info === undefined) continue;
    docs[d] = { title: info.title, url: info.url, city: info.city as CitySlug | '' };
    byPath.set(p, d);
  }
  const byUrl = Int32Array.from(byPath.values()).sort((a, b) => (docs[a]!.url < docs[b]!.url ? -1 : docs[a]!.url > docs[b]!.url ? 1 : 0));
  const urlRank = new Int32Array(file.size).fill(-1);
  byUrl.forEach((d, k) => { urlRank[d] = k; });
  return { docs, size: byPath.size, rank: { byPath, city: docs.map((d) => d?.city), urlRank, byUrl } };
}

/**
 * Opens the search of one read-model build. `searchDir` is its `search/` folder; `pages` (site
 * path → title, URL and city, from the loaded model) is what results show, and only pages in
 * it are returned; `cursorKey` signs its cursors (cursor.ts `cursorKey`).
 */
export async function openSearch(searchDir: string, pages: PageInfos, cursorKey: Buffer, memory: SearchMemory = DEFAULT_MEMORY): Promise<SearchEngine> {
  const file = await readIndexFile(searchDir);
  const { titles, heads } = file.stems();
  const bloom = (name: string) => fs.readFile(path.join(searchDir, name)).then((data) => BloomFilter.from(data));
  const [compiled, spanish, english] = await Promise.all([
    fs.readFile(path.join(searchDir, LEXICON_FILE), 'utf8').then((raw) => CompiledLexiconSchema.parse(JSON.parse(raw))),
    bloom(SPANISH_WORDS_FILE),
    bloom(ENGLISH_WORDS_FILE),
  ]);
  const lexicon = new Lexicon(compiled, { spanish, english }, stem);
  const texts = new TextPack(path.join(searchDir, TEXTS_FILE), file.textOffsets(), memory.textCacheBytes);
  let postings: PostingsFile;
  try {
    postings = await PostingsFile.open(searchDir, file);
  } catch (err) {
    texts.close();
    throw err;
  }
  const vocabulary = new Vocabulary(file.vocabularyData(), file.size);
  const engine = new SearchEngine(postings, file, pagesOf(file, pages), { texts, titles, heads }, vocabulary, lexicon, new CursorCodec(cursorKey), {
    warmTerms: pages.size <= memory.warmMaxPages ? warmTermsOf(pages, vocabulary, lexicon.filler, WARM_CACHE_WORDS) : [],
    rankedFirst: memory.rankedFirst,
    cacheBytes: memory.cacheBytes,
  });
  try {
    engine.warm();
  } catch (err) {
    await engine.close();
    throw err;
  }
  return engine;
}

export function searchPages(engine: SearchEngine, input: SearchPagesInput): SearchResponse | Promise<SearchResponse> {
  return engine.search(input);
}
