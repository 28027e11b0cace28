/**
 * How people name the 21 cities in a query, folded (text.ts), longest first when matched.
 * A query naming one ranks that city's pages first ("cerrajero en vigo", "las palmas").
 */
import type { CitySlug } from '../schemas/cities.ts';
import { words } from './text.ts';

const NAMES: Readonly<Record<CitySlug, readonly string[]>> = {
  'tenerife': ['tenerife', 'santa cruz de tenerife'],
  'las-palmas': ['las palmas', 'las palmas de gran canaria', 'gran canaria'],
  'mallorca': ['mallorca', 'palma de mallorca', 'palma'],
  'madrid': ['madrid'],
  'barcelona': ['barcelona'],
  'valencia': ['valencia'],
  'sevilla': ['sevilla'],
  'malaga': ['malaga'],
  'bilbao': ['bilbao', 'bilbo'],
  'murcia': ['murcia'],
  'zaragoza': ['zaragoza'],
  'alicante': ['alicante', 'alacant'],
  'valladolid': ['valladolid'],
  'cordoba': ['cordoba'],
  'vigo': ['vigo'],
  'gijon': ['gijon', 'xixon'],
  'a-coruna': ['a coruna', 'la coruna', 'coruna'],
  'elche': ['elche', 'elx'],
  'granada': ['granada'],
  'oviedo': ['oviedo', 'uviéu'],
  'pamplona': ['pamplona', 'iruna'],
};

interface CityName { slug: CitySlug; words: readonly string[] }

/** Every name as folded words, longest first so "las palmas de gran canaria" wins over "gran canaria". */
const ALL: readonly CityName[] = Object.entries(NAMES)
  .flatMap(([slug, names]) => names.map((n) => ({ slug: slug as CitySlug, words: words(n) })))
  .sort((a, b) => b.words.length - a.words.length);

/** The words of the city's main name (for a query that is only a city). */
export const cityNameWords = (slug: CitySlug): readonly string[] => words(NAMES[slug][0]!);

export interface CitySplit {
  /** Cities named in the query, in order of appearance, without repeats. */
  cities: CitySlug[];
  /** The query words that are not part of a city name. */
  rest: string[];
}

/** Separates city names from the other words of a folded query. */
export function splitCities(tokens: readonly string[]): CitySplit {
  const cities: CitySlug[] = [];
  const rest: string[] = [];
  let i = 0;
  outer: while (i < tokens.length) {
    for (const name of ALL) {
      const n = name.words.length;
      if (i + n > tokens.length) continue;
      let hit = true;
      for (let k = 0; k < n; k++) if (tokens[i + k] !== name.words[k]) { hit = false; break; }
      if (!hit) continue;
      if (!cities.includes(name.slug)) cities.push(name.slug);
      i += n;
      continue outer;
    }
    rest.push(tokens[i]!);
    i++;
  }
  return { cities, rest };
}
