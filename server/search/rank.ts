/**
 * The ranked answer to one analysed query (analyze.ts), from the pages each term matched:
 *
 * - Pages: those a topic term matched or an intent names (its services as the page of the city
 *   asked for, when there is one), each kept only if it covers enough of the query (precision.ts).
 *   A query with no topic and no intent is only places (and filler): the pages of those cities,
 *   the city page first; with an unknown real word besides, nothing.
 * - Cities: with `city` set, that city's pages and the pages for every city (guides, general
 *   pages); with cities named in the query, the same for those cities. Other cities' pages never.
 *   A service's page for every city that answers stands for its page of the city asked for,
 *   which ranks above it. A query naming only places the site does not serve finds nothing,
 *   unless it asks about the site itself ("¿llegáis a Girona?": the general pages an intent names).
 * - Order: a page whose text holds the query's words together as no other page does (phrase.ts:
 *   "la correa del tambor") first; then the service pages of a tradesman the query asks for
 *   ("necesito un fontanero"), then pages a lexicon intent names (the lexicon knows they answer it), then pages of
 *   the city asked for (an intent's page of that city first of all); within a tier by score
 *   (weights.ts): per term its weight times where it matched, filler words a little, a longer
 *   intent phrase above a shorter one, the pages of a service the query names by name above
 *   the rest. Ties: URL order, so every engine on the same build gives
 *   the same order and a cursor walk sees each page once.
 * - Shape: pages are numbers and matches are columns by page number, and the order is one numeric
 *   sort of packed keys (rank-order.ts), of the first pages only: a common word matches tens of
 *   thousands of pages of a large site.
 */
import type { CitySlug, CityFilter } from '../../formats/schemas/cities.ts';
import type { Analysis } from './analyze.ts';
import { HEADING, TITLE } from '../../formats/search/match-flags.ts';
import { isAnswer, isCovered, isSpecific, isTopical } from './precision.ts';
import { order } from './rank-order.ts';
import { fieldFactor, idf, INTENT_CREDIT, INTENT_PER_WORD, SERVICE_NAME, SOFT } from './weights.ts';

/** The pages a ranking may return, by page number. */
export interface RankDocs {
  /** Page numbers by site path (what intents name). */
  readonly byPath: ReadonlyMap<string, number>;
  /** Per page number: its city ('' for a page for every city); undefined for a number that is no page. */
  readonly city: ReadonlyArray<CitySlug | '' | undefined>;
  /** Per page number: its place in URL order (ties are broken by URL). */
  readonly urlRank: Int32Array;
  /** Page numbers in URL order. */
  readonly byUrl: Int32Array;
}

/**
 * One term's matches, as columns by page number: meaningful for the pages ranked (the candidates
 * and the pages intents name), zero elsewhere.
 */
export interface TermMatches {
  /** Pages the term matches on the whole site (its weight: weights.ts `idf`). */
  readonly count: number;
  /** The matching alternative's weight (1 for the word typed, less for a synonym); 0 where not matched. */
  readonly weight: Float64Array;
  /** TITLE and HEADING bits. */
  readonly fields: Uint8Array;
  /** The body score (word-hits.ts), scaled 0–1 per word. */
  readonly body: Float64Array;
}

/**
 * A page intents name: the longest phrase naming it, whether a lexicon intent does, whether a
 * tradesman's name does, and the terms they cover.
 */
export interface Named { size: number; strong: boolean; trade: boolean; credit: number; covers: Set<number> }

export interface RankInput {
  analysis: Analysis;
  /** Per topic term, the pages it matched. */
  terms: readonly TermMatches[];
  /** Per soft term, the pages it matched. */
  soft: readonly TermMatches[];
  docs: RankDocs;
  /** Pages in the build (for term weights). */
  pages: number;
  city: CityFilter;
  /** The pages intents name (`namedPages`). */
  named: ReadonlyMap<number, Named>;
  /**
   * Pages a topic term matched in the title, headings or description: a page no intent names is
   * no answer otherwise (precision.ts TOPICAL), so the pages a common word only has in its text
   * are never looked at. More pages are harmless.
   */
  candidates: Int32Array;
  /** Pages whose text holds the query's words together, as no other page does (phrase.ts): answers, first. */
  phrase?: ReadonlySet<number>;
}

/** weights.ts `fieldFactor` of a match given as TITLE and HEADING bits and its body score. */
export const fieldsFactor = (fields: number, body: number) => fieldFactor((fields & TITLE) !== 0, (fields & HEADING) !== 0, body);

const factor = (m: TermMatches, d: number) => fieldsFactor(m.fields[d]!, m.body[d]!);

/** No page's city: what a query naming only places the site does not serve asks for. */
const ELSEWHERE = '-';

/** The cities a query asks for: `city`, else those it names (none: every city). */
export function wantedCities(analysis: Analysis, city: CityFilter): readonly string[] {
  if (city !== 'todas') return [city];
  return analysis.cities.length === 0 && analysis.elsewhere ? [ELSEWHERE] : analysis.cities;
}

const allowedIn = (docs: RankDocs, wanted: readonly string[], d: number) => {
  const c = docs.city[d];
  return c !== undefined && (c === '' || wanted.length === 0 || wanted.includes(c));
};

/** The pages each intent names, for the cities asked for. */
export function namedPages(analysis: Analysis, docs: RankDocs, city: CityFilter): Map<number, Named> {
  const wanted = wantedCities(analysis, city);
  const named = new Map<number, Named>();
  for (const intent of analysis.intents) {
    const credit = intent.direct ? intent.size : 0;
    const name = (path: string) => {
      const d = docs.byPath.get(path);
      if (d === undefined || !allowedIn(docs, wanted, d)) return false;
      const n = named.get(d);
      if (n === undefined) named.set(d, { size: intent.size, strong: intent.strong, trade: intent.trade, credit, covers: new Set(intent.covers) });
      else {
        n.trade ||= intent.trade;
        if (intent.strong && !n.strong) { n.strong = true; n.size = intent.size; } else if (intent.strong === n.strong) n.size = Math.max(n.size, intent.size);
        n.credit = Math.max(n.credit, credit);
        for (const k of intent.covers) n.covers.add(k);
      }
      return true;
    };
    for (const p of intent.paths) name(p);
    for (const s of intent.services) {
      // The service's page of each city asked for, else its general page (a city without one).
      const local = wanted.filter((c) => name(`/servicios/${s}/${c}/`));
      if (local.length === 0) name(`/servicios/${s}/`);
    }
  }
  return named;
}

/** A ranking's first pages and how many pages answer in all. */
export interface Ranked {
  /** The first `limit` pages that answer, best first (by page number; the order above). */
  readonly pages: Int32Array;
  /** How many pages answer. */
  readonly total: number;
}

/**
 * Each topic term's weight (its inverse page frequency: `counts` are the pages it matches on the
 * site) and the query's total weight, its unknown words included.
 */
export function termWeights(analysis: Analysis, counts: readonly number[], pages: number): { weights: number[]; unknown: number; total: number } {
  const weights = counts.map((count) => idf(count, pages));
  const unknown = analysis.unknown.reduce((sum, u) => sum + u.weight, 0) * idf(0, pages);
  return { weights, unknown, total: weights.reduce((a, b) => a + b, 0) + unknown };
}

/**
 * Which topic terms a page no intent names must match for it to be an answer (precision.ts): in
 * its title, headings or description (`topical`: one of them must), anywhere (`covering`: one of
 * them must). The lightest terms, together short of TOPICAL (MIN_COVERAGE) of the query's weight,
 * make no answer on their own, so their pages need ranking only where a heavier term matches too.
 * On a large site a template word is in every page's headings and a common one in every text.
 */
export function neededTerms(weights: readonly number[], total: number): { topical: boolean[]; covering: boolean[] } {
  return { topical: lightest(weights, total, isTopical), covering: lightest(weights, total, isCovered) };
}

/** False for the lightest terms whose weights together do not pass `enough`; true for the rest. */
function lightest(weights: readonly number[], total: number, enough: (weight: number, total: number) => boolean): boolean[] {
  const out = weights.map(() => true);
  let light = 0;
  for (const k of weights.map((_, i) => i).sort((a, b) => weights[a]! - weights[b]!)) {
    // A margin past the rule's own tolerance: sums in another order round otherwise.
    if (enough(light + weights[k]! + 1e-9, total)) break;
    light += weights[k]!;
    out[k] = false;
  }
  return out;
}

/** Each city's pages and their scores when the query names only places (the city page first), once per model's pages. */
const cityPagesOf = new WeakMap<RankDocs, Map<string, { list: number[]; scores: number[] }>>();

function cityPages(docs: RankDocs): Map<string, { list: number[]; scores: number[] }> {
  let byCity = cityPagesOf.get(docs);
  if (byCity === undefined) {
    byCity = new Map();
    for (const [path, d] of docs.byPath) {
      const c = docs.city[d];
      if (c === undefined || c === '') continue;
      let pages = byCity.get(c);
      if (pages === undefined) byCity.set(c, pages = { list: [], scores: [] });
      pages.list.push(d);
      pages.scores.push(path.startsWith('/ciudades/') ? 1000 : 0);
    }
    cityPagesOf.set(docs, byCity);
  }
  return byCity;
}

/** Per general service page, its pages by city: the page a city's query gets in its place. */
const localVersionsOf = new WeakMap<RankDocs, Map<number, Map<string, number>>>();

function localVersions(docs: RankDocs): Map<number, Map<string, number>> {
  let versions = localVersionsOf.get(docs);
  if (versions === undefined) {
    versions = new Map();
    for (const [path, d] of docs.byPath) {
      const m = /^\/servicios\/([^/]+)\/([^/]+)\/$/.exec(path);
      const general = m === null ? undefined : docs.byPath.get(`/servicios/${m[1]}/`);
      if (general === undefined) continue;
      let byCity = versions.get(general);
      if (byCity === undefined) versions.set(general, byCity = new Map());
      byCity.set(m![2]!, d);
    }
    localVersionsOf.set(docs, versions);
  }
  return versions;
}

/**
 * Tier bits of a ranked page (high first). When the query asks for a tradesman, the pages of his
 * service and the pages answering the rest of the question (general pages a lexicon intent
 * names: "¿quién factura el fontanero?") rank above guides; then a lexicon intent; then the city
 * asked for.
 */
const TRADE_TIER = 4;
const INTENT_TIER = 2;
const LOCAL_TIER = 1;
/** A page's own phrase (phrase.ts) says which page was read: with the surest, its city's version above it. */
const PHRASE_TIER = TRADE_TIER + INTENT_TIER;

/** Per page number: a guide or a service page (a tradesman asked for comes before a guide), else neither. */
const GUIDE = 1;
const SERVICE = 2;
const pageKindsOf = new WeakMap<RankDocs, Uint8Array>();
function pageKinds(docs: RankDocs): Uint8Array {
  let kinds = pageKindsOf.get(docs);
  if (kinds === undefined) {
    kinds = new Uint8Array(docs.city.length);
    for (const [path, d] of docs.byPath) kinds[d] = path.startsWith('/guias/') ? GUIDE : path.startsWith('/servicios/') ? SERVICE : 0;
    pageKindsOf.set(docs, kinds);
  }
  return kinds;
}

/**
 * Whether a query is a question about the site itself: every intent it holds names only general
 * pages, none a service or a guide ("¿llegáis a Girona?", not "fontanero en Girona"). Asked of a
 * place the site does not serve, only such a question has an answer: nobody does a job there.
 */
function aboutTheSite(analysis: Analysis, docs: RankDocs): boolean {
  const kinds = pageKinds(docs);
  return analysis.intents.length > 0 && analysis.intents.every((i) => i.services.length === 0
    && i.paths.every((p) => { const d = docs.byPath.get(p); return d === undefined || kinds[d] === 0; }));
}

/** The pages that answer, best first (by page number; the order above): the first `limit` of them, and their number. */
export function rank({ analysis, terms, soft, docs, pages, city, named, candidates, phrase }: RankInput, limit: number): Ranked {
  const wanted = wantedCities(analysis, city);
  const { weights, unknown, total } = termWeights(analysis, terms.map((m) => m.count), pages);
  const softWeights = soft.map((m) => idf(m.count, pages));

  if (analysis.terms.length === 0 && analysis.intents.length === 0 && (phrase === undefined || phrase.size === 0)) {
    if (analysis.unknown.length > 0 || wanted.length === 0) return { pages: new Int32Array(0), total: 0 };
    const found: number[] = [];
    const scores: number[] = [];
    const byCity = cityPages(docs);
    for (const c of new Set(wanted)) {
      const ofCity = byCity.get(c);
      if (ofCity === undefined) continue;
      for (const d of ofCity.list) found.push(d);
      for (const score of ofCity.scores) scores.push(score);
    }
    return { pages: order(docs, Int32Array.from(found), new Uint8Array(found.length).fill(1), Int32Array.from(scores), limit), total: found.length };
  }

  const elsewhere = wanted.length === 1 && wanted[0] === ELSEWHERE;
  if (elsewhere && !aboutTheSite(analysis, docs)) return { pages: new Int32Array(0), total: 0 };

  // Each page once: the pages intents name first, then the candidates not seen yet.
  const seen = new Uint8Array(docs.city.length);
  const versions = wanted.length > 0 ? localVersions(docs) : undefined;
  const kinds = analysis.intents.some((i) => i.trade) ? pageKinds(docs) : undefined;
  const cap = named.size + candidates.length + (versions === undefined ? 0 : versions.size * wanted.length);
  const found = new Int32Array(cap);
  const tiers = new Uint8Array(cap);
  const scores = new Int32Array(cap);
  let n = 0;
  const specific = terms.map((m) => isSpecific(m.count, pages));
  const consider = (d: number, intent: Named | undefined) => {
    let covered = 0;
    let score = 0;
    let topical = 0;
    let all = terms.length > 0;
    let rare = false;
    for (let k = 0; k < terms.length; k++) {
      const m = terms[k]!;
      const w = m.weight[d]!;
      if (w > 0) {
        if (specific[k]) rare = true;
        covered += weights[k]! * w;
        if (m.fields[d] !== 0) topical += weights[k]! * w;
        score += weights[k]! * w * factor(m, d);
      } else if (intent?.covers.has(k)) {
        covered += weights[k]!;
        topical += weights[k]!;
        score += weights[k]!;
      } else {
        all = false;
      }
    }
    // An intent naming the page is evidence in itself (INTENT_CREDIT of the rarest word's weight per
    // phrase word); one the words typed complete only through synonyms is not.
    if (intent !== undefined) covered += INTENT_CREDIT * intent.credit * idf(0, pages);
    const own = phrase?.has(d) === true;
    if (!own && !isAnswer(covered, topical, unknown, total, intent !== undefined, all && rare)) return;
    for (let k = 0; k < soft.length; k++) {
      const m = soft[k]!;
      if (m.weight[d]! > 0) score += SOFT * softWeights[k]! * factor(m, d);
    }
    if (intent?.strong) score += total * INTENT_PER_WORD * intent.size;
    else if (intent !== undefined) score += total * SERVICE_NAME;
    const c = docs.city[d]!;
    const local = c !== '' && wanted.includes(c);
    found[n] = d;
    // A general page a lexicon intent names answers the rest of a question about a tradesman.
    const trade = intent !== undefined && (intent.trade || (kinds !== undefined && intent.strong && docs.city[d] === '' && kinds[d] === 0));
    tiers[n] = (own ? PHRASE_TIER : (trade ? TRADE_TIER : 0) + (intent?.strong ? INTENT_TIER : 0)) + (local ? LOCAL_TIER : 0);
    scores[n++] = Math.round(score * 1000);
  };
  for (const [d, intent] of named) { seen[d] = 1; consider(d, intent); }
  for (const d of elsewhere ? [] : candidates) {
    if (seen[d] !== 0) continue;
    seen[d] = 1;
    if (allowedIn(docs, wanted, d)) consider(d, undefined);
  }
  if (versions !== undefined) n = withLocalVersions(versions, wanted, seen, found, tiers, scores, n);
  return { pages: order(docs, found.subarray(0, n), tiers.subarray(0, n), scores.subarray(0, n), limit), total: n };
}

/**
 * A general service page that answers stands for its pages of the cities asked for: one that is no
 * answer of its own (a city's page need not repeat the words its general page has in its
 * headings) answers as the general page does, one tier up. Returns the new count.
 */
function withLocalVersions(
  versions: ReadonlyMap<number, ReadonlyMap<string, number>>, wanted: readonly string[],
  seen: Uint8Array, found: Int32Array, tiers: Uint8Array, scores: Int32Array, n: number,
): number {
  const answered = n;
  for (let i = 0; i < answered; i++) {
    const local = versions.get(found[i]!);
    if (local === undefined) continue;
    for (const c of wanted) {
      const d = local.get(c);
      if (d === undefined || (seen[d] !== 0 && found.subarray(0, n).includes(d))) continue;
      seen[d] = 1;
      found[n] = d;
      tiers[n] = tiers[i]! | LOCAL_TIER;
      scores[n++] = scores[i]!;
    }
  }
  return n;
}
