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
 *   whether a matched position holds a word of the family. Pagefind matches prefixes, so the
 *   text's word at each position is checked against the word (vocabulary.ts; the postings know the
 *   words, each is checked once) and a page stays only if a position, its title or its headings
 *   really match.
 * - Cost: per-word answers in one bounded LRU (queries share words: "cerrajero",
 *   "cerrajero en vigo" and "cerrajero" with city=vigo are one lookup), ranked lists per
 *   (city, normalized query) in another; pages of a list, excerpts included, are built on first
 *   use and kept with it, so a cursor walk or a repeated query is a slice. A common word is on
 *   most pages of a large site: answers, matches and rankings are columns by page number, and the
 *   matched positions an excerpt needs are read only for the pages a response shows.
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
import { buildExcerpt } from './excerpt.ts';
import { Lru } from './lru.ts';
import { memoize } from '../memo.ts';
import { advance, Marks } from './page-sets.ts';
import { openPostingsSearch } from './postings-search.ts';
import type { Keep, TermSearch } from './term-search.ts';
import { CompiledLexiconSchema } from '../schemas/lexicon.ts';
import { analyze, normalizeQuery, type Term } from './analyze.ts';
import { BloomFilter } from './bloom.ts';
import { Lexicon } from './lexicon.ts';
import type { PageStems } from './page-stems.ts';
import { fieldsFactor, HEADING, namedPages, rank, TITLE, type RankDocs, type TermMatches } from './rank.ts';
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

/** Ranked lists kept per engine. */
export const CACHE_ENTRIES = 400;
/** Per-word answers kept per engine. */
export const WORD_CACHE_ENTRIES = 600;
/**
 * Byte bounds of the two caches: on a large site a common word matches tens of thousands of
 * pages, so a bound on entries alone is no bound on memory. Their entries are typed arrays,
 * weighed by their bytes; the sample site's stay far below them, so there the entry counts bind.
 */
export const CACHE_BYTES = 32 * 2 ** 20;
export const WORD_CACHE_BYTES = 48 * 2 ** 20;
/** Split page texts kept for checking positions and cutting excerpts (text-pack.ts). */
export const TEXT_CACHE_BYTES = 24 * 2 ** 20;
/** Heap bytes of an entry besides its columns (objects, maps, a few responses). */
const ENTRY_BYTES = 2048;
/** Positions kept per page and word: the excerpt needs the first few. */
const MAX_POSITIONS = 64;
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

/**
 * A page the engine returns. Pages are numbered as in the sidecar: its text in the text pack, its
 * stems in PageStems; the postings number them their own way (`pageOf`, `docOf`).
 */
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

/** Flag of a word hit with a matched position whose text word is of the family (besides TITLE, HEADING). */
const BODY = 4;
/** Flag of a page in a word's answer while it is being checked. */
const PRESENT = 8;

/** The pages that really match one query word: columns by page, ascending, hit k on page `docs[k]`. */
interface WordHits {
  count: number;
  docs: Int32Array;
  /** Pagefind's score. */
  scores: Float32Array;
  /** TITLE, HEADING and BODY bits. */
  flags: Uint8Array;
  /** The highest score (1 when none), which scales each score to 0–1. */
  top: number;
  /** The pages with the word in the title, headings or description, ascending. */
  topical: Int32Array;
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

/** How one query word is looked up (`SearchEngine.lookup`). */
interface Lookup { prefix: string; family: ReadonlySet<string>; keep: Keep }

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
  /** Ranked pages, best first. */
  docs: Int32Array;
  /** The topic terms, then the soft terms, of the query. */
  terms: readonly Term[];
  /** Per ranked page i and term k, `shown[i · terms + k]`: the alternative the excerpt shows (+1; 0: none). */
  shown: Uint8Array;
  /** Results made so far, by rank. */
  results: Map<number, SearchResult>;
  /**
   * Responses already given for this list, by offset and limit: a repeated request gets the same
   * frozen object back, so the HTTP layer can keep its serialized (and compressed) body with it.
   */
  responses?: Map<number, SearchResponse>;
}

/** Responses kept per ranked list (first pages under the few limits clients use, a cursor walk). */
const RESPONSES_PER_ENTRY = 16;

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

const hitsWeight = (hits: WordHits) => weigh(ENTRY_BYTES + 9 * hits.count + 4 * hits.topical.length, WORD_CACHE_BYTES, WORD_CACHE_ENTRIES);

const entryWeight = (e: Entry) => weigh(ENTRY_BYTES + e.docs.byteLength + e.shown.byteLength, CACHE_BYTES, CACHE_ENTRIES);

/** The pages a ranking may return and how the postings number them. */
interface Pages {
  /** By sidecar number; undefined for a page the loaded model does not return. */
  docs: ReadonlyArray<Doc | undefined>;
  /** Pages the engine returns. */
  size: number;
  rank: RankDocs;
  /** Sidecar number by postings page number (−1: none), and back. */
  docOf: Int32Array;
  pageOf: Int32Array;
}

export class SearchEngine {
  private readonly cache = new Lru<string, Entry>(CACHE_BYTES);
  private readonly wordCache = new Lru<string, WordHits>(WORD_CACHE_BYTES);
  private readonly stems = new StemMemo();
  /** Pages each term (its alternatives' word families) matches on the site: the same terms recur in many queries. */
  private readonly termCounts = new Map<string, number>();
  private readonly matched: MatchedPool;
  private readonly marks: Marks;
  /** By page number, a word's answer while it is being checked; all zero between uses. */
  private readonly scratch: { flags: Uint8Array; scores: Float32Array };
  private closed = false;

  constructor(
    private readonly index: TermSearch,
    private readonly pages: Pages,
    private readonly data: PageData,
    private readonly vocabulary: Vocabulary,
    private readonly lexicon: Lexicon,
    private readonly cursors: CursorCodec,
    /** Query words to look up at open (see WARM_CACHE_WORDS). */
    private readonly warmTerms: readonly string[] = [],
  ) {
    this.matched = new MatchedPool(pages.docs.length);
    this.marks = new Marks(pages.docs.length);
    this.scratch = { flags: new Uint8Array(pages.docs.length), scores: new Float32Array(pages.docs.length) };
  }

  /** Pages the engine can return. */
  get size(): number {
    return this.pages.size;
  }

  /** What the engine holds now of what grows with use: cached text bytes. */
  get held(): { textBytes: number } {
    return { textBytes: this.data.texts.cachedBytes };
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
    let entry = this.cache.get(scope);
    if (entry === undefined) {
      entry = this.rank(scope, normalized, input.city);
      this.cache.set(scope, entry, entryWeight(entry));
    }
    return this.respond(entry, scope, offset, input.limit);
  }

  /** One page of an entry's ranking, from `offset`: built and frozen once per (offset, limit). */
  private respond(entry: Entry, scope: string, offset: number, limit: number): SearchResponse {
    if (offset > 0 && offset >= entry.docs.length) throw invalidCursor();
    const key = offset * 64 + limit;
    const known = entry.responses?.get(key);
    if (known !== undefined) return known;
    const end = Math.min(offset + limit, entry.docs.length);
    const results: SearchResult[] = [];
    for (let i = offset; i < end; i++) results.push(this.result(entry, i));
    const response: SearchResponse = Object.freeze({
      total: results.length,
      results: Object.freeze(results) as SearchResult[],
      next_cursor: end < entry.docs.length ? this.cursors.encode(end, scope) : null,
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
    await this.index.close();
    this.data.texts.close();
  }

  /**
   * Looks one word up, so broken postings fail at open, and inverts the title and heading stems;
   * then fills the word cache with the warm terms (WARM_CACHE_WORDS; none on a large site).
   */
  warm(): void {
    this.index.hits(this.vocabulary.first() ?? 'a');
    // The title and heading stems' page lists, so the first search does not make them.
    this.data.titles.pagesWith(0);
    this.data.heads.pagesWith(0);
    const started = performance.now();
    for (const term of this.warmTerms) {
      if (this.closed || performance.now() - started > WARM_BUDGET_MS) break;
      this.wordHits(term);
    }
  }

  private rank(scope: string, normalized: string, city: CityFilter): Entry {
    const analysis = analyze(normalized, this.lexicon, this.vocabulary);
    const named = namedPages(analysis, this.pages.rank, city);
    const hitsOf = (t: Term): TermWordHits => t.alternatives.map((alt) => alt.words.map((w) => this.wordHits(w)));
    const topicHits = analysis.terms.map(hitsOf);
    const softHits = analysis.soft.map(hitsOf);
    const candidates = this.candidates(topicHits, named.keys());
    const terms: Matched[] = [];
    const soft: Matched[] = [];
    try {
      analysis.terms.forEach((t, k) => terms.push(this.termMatches(t, topicHits[k]!, candidates)));
      analysis.soft.forEach((t, k) => soft.push(this.termMatches(t, softHits[k]!, candidates)));
      const ranked = rank({ analysis, terms, soft, docs: this.pages.rank, pages: this.pages.size, city, named, candidates });
      const docs = ranked.length > MAX_OFFSET ? ranked.slice(0, MAX_OFFSET) : ranked;
      // What each ranked page's excerpt shows: per matched term, its alternative's words.
      const all = [...terms, ...soft];
      const shown = new Uint8Array(docs.length * all.length);
      all.forEach((m, k) => {
        const column = m.shown;
        for (let i = 0, at = k; i < docs.length; i++, at += all.length) shown[at] = column[docs[i]!]!;
      });
      return { scope, docs, terms: [...analysis.terms, ...analysis.soft], shown, results: new Map() };
    } finally {
      for (const m of [...terms, ...soft]) this.matched.give(m);
    }
  }

  /** The pages worth ranking, ascending: those a word of a topic term has in its title, headings or description, and `named`. */
  private candidates(terms: readonly TermWordHits[], named: Iterable<number>): Int32Array {
    this.marks.next();
    const out: number[] = [];
    for (const d of named) if (this.marks.mark(d)) out.push(d);
    for (const alts of terms) for (const words of alts) for (const hits of words) for (const d of hits.topical) if (this.marks.mark(d)) out.push(d);
    return out.length * 16 < this.pages.docs.length ? Int32Array.from(out).sort() : this.marks.marked();
  }

  /** Pages of the site holding every word of some alternative (a term's count, for its weight). */
  private count(alts: TermWordHits): number {
    if (alts.length === 1 && alts[0]!.length === 1) return alts[0]![0]!.count;
    this.marks.next();
    let n = 0;
    for (const words of alts) {
      const [first, ...rest] = words;
      if (first === undefined) continue;
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
  private termMatches(term: Term, alts: TermWordHits, candidates: Int32Array): Matched {
    const out = this.matched.take();
    out.written = candidates;
    const key = term.alternatives.map((alt) => alt.words.map(familyKey).join('+')).join('|');
    let count = this.termCounts.get(key);
    if (count === undefined) {
      count = this.count(alts);
      if (this.termCounts.size >= TERM_COUNTS) this.termCounts.clear();
      this.termCounts.set(key, count);
    }
    out.count = count;
    const { weight, fields: fieldsOf, body: bodyOf, shown, placed } = out;
    alts.forEach((words, a) => {
      const alt = term.alternatives[a]!;
      if (words.length === 0) return;
      const at = new Int32Array(words.length);
      // A join of the candidates and the words' pages, each list skipping ahead to the next page
      // the others may share.
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
          sum += hits.scores[c]! / hits.top;
        }
        i++;
        const body = sum / words.length;
        const fields = flags & (TITLE | HEADING);
        const hasPlace = (flags & BODY) !== 0;
        const prev = weight[d]!;
        if (prev === 0) {
          weight[d] = alt.weight; fieldsOf[d] = fields; bodyOf[d] = body; shown[d] = a + 1; placed[d] = hasPlace ? 1 : 0;
        } else if (alt.weight * fieldsFactor(fields, body) > prev * fieldsFactor(fieldsOf[d]!, bodyOf[d]!)) {
          weight[d] = alt.weight; fieldsOf[d] = fields; bodyOf[d] = body;
          // An alternative matched only in the title keeps the others' places.
          if (hasPlace) { shown[d] = a + 1; placed[d] = 1; }
        } else if (placed[d] === 0 && hasPlace) { shown[d] = a + 1; placed[d] = 1; }
      }
    });
    return out;
  }

  /**
   * The search of one query word: the prefix its family is looked up by, and its test of text
   * words; memoized, as a response's excerpts ask again for the words its ranking looked up.
   */
  private readonly lookup = memoize((term: string): Lookup => {
    const family = familyStems(term);
    return {
      prefix: commonPrefix(this.vocabulary.family(term)),
      family,
      keep: { word: (word: string) => anyIn(this.stems.of(word), family), max: MAX_POSITIONS },
    };
  }, LOOKUPS);

  /**
   * The pages that really match one query word (cached; looked up once per word): a matched
   * position holds a word of its family, or its title or headings do. Words with the same stem
   * family ("fontanero", "fontaneros") match the same pages: one entry serves both.
   */
  private wordHits(term: string): WordHits {
    const key = familyKey(term);
    const cached = this.wordCache.get(key);
    if (cached !== undefined) return cached;
    const { prefix, family, keep } = this.lookup(term);
    const raw = this.index.hits(prefix, keep.word);
    const { flags, scores } = this.scratch;
    const found = new Int32Array(raw.count);
    let n = 0;
    for (let k = 0; k < raw.count; k++) {
      const d = this.pages.docOf[raw.pages[k]!]!;
      if (d < 0) continue;
      flags[d] = PRESENT | (raw.kept![k]! !== 0 ? BODY : 0);
      scores[d] = raw.scores[k]!;
      found[n++] = d;
    }
    this.markField(this.data.titles, family, found.subarray(0, n), TITLE);
    this.markField(this.data.heads, family, found.subarray(0, n), HEADING);
    // Ascending page numbers: a scan of the pages when the word is on many of them, else a sort.
    const sorted = n * 16 < flags.length ? found.subarray(0, n).sort() : undefined;
    const end = sorted === undefined ? flags.length : n;
    const hits: WordHits = { count: 0, docs: found, scores: new Float32Array(n), flags: new Uint8Array(n), top: 0, topical: new Int32Array(0) };
    let count = 0;
    let topical = 0;
    let top = 0;
    for (let i = 0; i < end; i++) {
      const d = sorted === undefined ? i : sorted[i]!;
      const f = flags[d]!;
      if (f === 0) continue;
      flags[d] = 0;
      if (f === PRESENT) continue;
      // `found` is rewritten in place: the pages kept, ascending, never ahead of the scan.
      found[count] = d;
      const score = (hits.scores[count] = scores[d]!);
      hits.flags[count++] = f & ~PRESENT;
      if (score > top) top = score;
      if ((f & (TITLE | HEADING)) !== 0) topical++;
    }
    hits.count = count;
    hits.docs = found.slice(0, count);
    hits.scores = hits.scores.slice(0, count);
    hits.flags = hits.flags.slice(0, count);
    hits.topical = new Int32Array(topical);
    for (let i = 0, t = 0; i < count; i++) if ((hits.flags[i]! & (TITLE | HEADING)) !== 0) hits.topical[t++] = hits.docs[i]!;
    hits.top = top || 1;
    if (!this.closed) this.wordCache.set(key, hits, hitsWeight(hits));
    return hits;
  }

  /**
   * Adds `bit` to the flags of the pages in `found` whose `field` has a stem of `family`: from the
   * stems' page lists when they are short beside the word's pages, else page by page.
   */
  private markField(field: PageStems, family: ReadonlySet<string>, found: Int32Array, bit: number): void {
    const ids = field.idsOf(family);
    const flags = this.scratch.flags;
    let listed = 0;
    for (const id of ids) listed += field.pagesWith(id).length;
    if (listed <= 4 * found.length) {
      for (const id of ids) for (const d of field.pagesWith(id)) if (flags[d] !== 0) flags[d] = flags[d]! | bit;
    } else {
      for (const d of found) if (field.hasAnyId(d, ids)) flags[d] = flags[d]! | bit;
    }
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
      for (const w of term.alternatives[a - 1]!.words) {
        const { prefix, keep } = this.lookup(w);
        places.push(this.index.positions(prefix, this.pages.pageOf[d]!, keep));
      }
    });
    r = Object.freeze({ title: doc.title, url: doc.url, city: doc.city, excerpt: buildExcerpt(this.data.texts.words(d), places) });
    entry.results.set(i, r);
    return r;
  }
}

const invalidCursor = () =>
  invalidParam('cursor', 'Use el next_cursor de la respuesta anterior, con la misma query y city; los cursores caducan al publicarse contenido nuevo.');

/** The engine's pages: those of the sidecar the loaded model has, numbered both ways. */
function pagesOf(sidecar: Awaited<ReturnType<typeof readSidecar>>, infos: PageInfos, pageIds: readonly string[]): Pages {
  const docs: Array<Doc | undefined> = new Array(sidecar.size).fill(undefined);
  const byPath = new Map<string, number>();
  const byId = new Map<string, number>();
  for (let d = 0; d < sidecar.size; d++) {
    const p = sidecar.path(d);
    const info = infos.get(p);
    if (info === undefined) continue;
    docs[d] = { title: info.title, url: info.url, city: info.city as CitySlug | '' };
    byPath.set(p, d);
    byId.set(sidecar.id(d), d);
  }
  const docOf = Int32Array.from(pageIds, (id) => byId.get(id) ?? -1);
  const pageOf = new Int32Array(sidecar.size).fill(-1);
  docOf.forEach((d, page) => { if (d >= 0) pageOf[d] = page; });
  const byUrl = Int32Array.from(byPath.values()).sort((a, b) => (docs[a]!.url < docs[b]!.url ? -1 : docs[a]!.url > docs[b]!.url ? 1 : 0));
  const urlRank = new Int32Array(sidecar.size).fill(-1);
  byUrl.forEach((d, k) => { urlRank[d] = k; });
  return { docs, size: byPath.size, docOf, pageOf, rank: { byPath, city: docs.map((d) => d?.city), urlRank, byUrl } };
}

/**
 * Opens the search of one read-model build. `searchDir` is its `search/` folder; `pages` (site
 * path → title, URL and city, from the loaded model) is what results show, and only pages in
 * it are returned; `cursorKey` signs its cursors (cursor.ts `cursorKey`).
 */
export async function openSearch(searchDir: string, pages: PageInfos, cursorKey: Buffer, memory: SearchMemory = DEFAULT_MEMORY): Promise<SearchEngine> {
  const sidecar = await readSidecar(searchDir);
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
  const engine = new SearchEngine(index, pagesOf(sidecar, pages, index.pageIds), { texts, titles, heads }, vocabulary, lexicon, new CursorCodec(cursorKey),
    pages.size <= memory.warmMaxPages ? warmTermsOf(pages, vocabulary, lexicon.filler, WARM_CACHE_WORDS) : []);
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
