/**
 * The ranked answer to one analysed query (analyze.ts), from the pages each term matched:
 *
 * - Pages: those a topic term matched or an intent names (its services as the page of the city
 *   asked for, when there is one), each kept only if it covers enough of the query (precision.ts).
 *   A query with no topic and no intent is only places (and filler): the pages of those cities,
 *   the city page first; with an unknown real word besides, nothing.
 * - Cities: with `city` set, that city's pages and the pages for every city (guides, general
 *   pages); with cities named in the query, the same for those cities. Other cities' pages never.
 * - Order: pages a lexicon intent names first (the lexicon knows they answer it), then pages of
 *   the city asked for (an intent's page of that city first of all); within a tier by score
 *   (weights.ts): per term its weight times where it matched, filler words a little, a longer
 *   intent phrase above a shorter one, the pages of a service the query names by name above
 *   the rest. Ties: URL order, so every engine on the same build gives
 *   the same order and a cursor walk sees each page once.
 */
import type { CitySlug, CityFilter } from '../schemas/cities.ts';
import type { Analysis } from './analyze.ts';
import { isAnswer } from './precision.ts';
import { fieldFactor, idf, INTENT_CREDIT, INTENT_PER_WORD, SERVICE_NAME, SOFT, type FieldMatch } from './weights.ts';

export interface RankDoc { path: string; url: string; city: CitySlug | '' }

export interface TermMatch extends FieldMatch {
  /** The alternative's weight (1 for the word typed, less for a synonym). */
  weight: number;
  /** Per word of the alternative, where it matched in the page text (for the excerpt). */
  positions: ReadonlyArray<readonly number[]>;
}

export interface RankedPage<D> {
  doc: D;
  /**
   * 2 for a page an intent names, plus 1 for a page of the city asked for (named in the query or
   * given as `city`): higher tiers come first.
   */
  tier: number;
  score: number;
  positions: Array<readonly number[]>;
}

export interface RankInput<D extends RankDoc> {
  analysis: Analysis;
  /** Per topic term, the pages it matched. */
  terms: ReadonlyArray<ReadonlyMap<D, TermMatch>>;
  /** Per soft term, the pages it matched. */
  soft: ReadonlyArray<ReadonlyMap<D, TermMatch>>;
  docs: ReadonlyMap<string, D>;
  /** Pages in the build (for term weights). */
  pages: number;
  city: CityFilter;
}

const byScore = <D extends RankDoc>(a: RankedPage<D>, b: RankedPage<D>) =>
  b.tier - a.tier || b.score - a.score || (a.doc.url < b.doc.url ? -1 : a.doc.url > b.doc.url ? 1 : 0);

export function rank<D extends RankDoc>({ analysis, terms, soft, docs, pages, city }: RankInput<D>): RankedPage<D>[] {
  const wanted: readonly string[] = city !== 'todas' ? [city] : analysis.cities;
  const allowed = (d: D) => d.city === '' || wanted.length === 0 || wanted.includes(d.city);
  const weights = terms.map((m) => idf(m.size, pages));
  const softWeights = soft.map((m) => idf(m.size, pages));
  const unknown = analysis.unknown.reduce((sum, u) => sum + u.weight, 0) * idf(0, pages);
  const total = weights.reduce((a, b) => a + b, 0) + unknown;

  if (analysis.terms.length === 0 && analysis.intents.length === 0) {
    if (analysis.unknown.length > 0 || wanted.length === 0) return [];
    const out: RankedPage<D>[] = [];
    for (const d of docs.values()) {
      if (d.city !== '' && wanted.includes(d.city)) out.push({ doc: d, tier: 1, score: d.path.startsWith('/ciudades/') ? 1 : 0, positions: [] });
    }
    return out.sort(byScore);
  }

  // Pages each intent names, for the city asked for.
  const named = new Map<D, { size: number; strong: boolean; credit: number; covers: Set<number> }>();
  for (const intent of analysis.intents) {
    const credit = intent.direct ? intent.size : 0;
    const name = (path: string) => {
      const d = docs.get(path);
      if (d === undefined || !allowed(d)) return false;
      const n = named.get(d);
      if (n === undefined) named.set(d, { size: intent.size, strong: intent.strong, credit, covers: new Set(intent.covers) });
      else {
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

  const candidates = new Set<D>(named.keys());
  for (const m of terms) for (const d of m.keys()) if (allowed(d)) candidates.add(d);

  const out: RankedPage<D>[] = [];
  for (const d of candidates) {
    const intent = named.get(d);
    let covered = 0;
    let score = 0;
    let topical = 0;
    const positions: Array<readonly number[]> = [];
    terms.forEach((m, k) => {
      const hit = m.get(d);
      if (hit !== undefined) {
        covered += weights[k]! * hit.weight;
        if (hit.title || hit.heading) topical += weights[k]! * hit.weight;
        score += weights[k]! * hit.weight * fieldFactor(hit);
        positions.push(...hit.positions);
      } else if (intent?.covers.has(k)) {
        covered += weights[k]!;
        topical += weights[k]!;
        score += weights[k]!;
      }
    });
    // An intent naming the page is evidence in itself (INTENT_CREDIT of the rarest word's weight per
    // phrase word); one the words typed complete only through synonyms is not.
    if (intent !== undefined) covered += INTENT_CREDIT * intent.credit * idf(0, pages);
    if (!isAnswer({ covered, topical, unknown, total, named: intent !== undefined })) continue;
    soft.forEach((m, k) => {
      const hit = m.get(d);
      if (hit !== undefined) { score += SOFT * softWeights[k]! * fieldFactor(hit); positions.push(...hit.positions); }
    });
    if (intent?.strong) score += total * INTENT_PER_WORD * intent.size;
    else if (intent !== undefined) score += total * SERVICE_NAME;
    const local = d.city !== '' && wanted.includes(d.city);
    out.push({ doc: d, tier: (intent?.strong ? 2 : 0) + (local ? 1 : 0), score: Math.round(score * 1000) / 1000, positions });
  }
  return out.sort(byScore);
}
