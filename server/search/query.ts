/**
 * From what an agent typed to what is looked up: folded words, city names set aside (they rank,
 * they do not have to appear in the text), stop words dropped, each remaining word matched to
 * the build's vocabulary — as typed, or corrected by one edit — and words nothing in the build
 * matches dropped. A query left with nothing to look up finds nothing: no prefix junk.
 */
import type { CitySlug } from '../schemas/cities.ts';
import { cityNameWords, splitCities } from './city-names.ts';
import { STOP_WORDS, words } from './text.ts';
import type { Vocabulary } from './vocabulary.ts';

export interface QueryPlan {
  /** Cities named in the query, whose pages rank first. */
  cities: CitySlug[];
  /** Words every result must match (in the text or the title), in query order. */
  terms: string[];
  /** The query is only a city: that city's pages are results even if they never name it. */
  cityOnly: boolean;
}

/** The normalized query that results are cached and cursors bound under: folded words, one space apart. */
export const normalizeQuery = (query: string): string => words(query).join(' ');

export function planQuery(normalized: string, vocabulary: Vocabulary): QueryPlan {
  const { cities, rest } = splitCities(normalized === '' ? [] : normalized.split(' '));
  let wanted = rest.filter((w) => !STOP_WORDS.has(w));
  const cityOnly = wanted.length === 0 && cities.length > 0;
  if (cityOnly) wanted = cityNameWords(cities[0]!).filter((w) => !STOP_WORDS.has(w));
  const terms: string[] = [];
  for (const w of wanted) {
    const known = vocabulary.family(w).length > 0 ? w : vocabulary.correct(w);
    if (known !== undefined && !terms.includes(known)) terms.push(known);
  }
  return { cities, terms, cityOnly };
}
