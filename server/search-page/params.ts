/**
 * The results page's parameters (formats/search-page.ts) as search_pages' input, which the
 * operation's own schema then checks in the pipeline's input step, and what the page says when
 * it refuses one. A parameter given twice or with broken percent-escapes is passed on as it came,
 * for that schema to refuse.
 */
import { citySlugOf, SEARCH_PAGE_PATH, SEARCH_PARAMS } from '../../formats/search-page.ts';
import type { ApiError } from '../errors.ts';
import { parseQuery, type RawQuery } from '../rest/query.ts';
import { LIMITS } from '../schemas/params.ts';

/** Results on the page: a person reads the first few, and refines the query rather than paging. */
export const RESULTS_SHOWN = 10;

export interface PageRequest {
  /** The query as typed, trimmed: '' for none (the page then only invites a search). */
  query: string;
  /** search_pages' parameters, before its schema checked them. */
  input: Record<string, unknown>;
}

const text = (query: RawQuery, name: string): unknown => {
  const value = query.get(name);
  return typeof value === 'string' ? value.trim() : value;
};

export function readPageRequest(search: string): PageRequest {
  const params = parseQuery(search);
  const query = text(params, SEARCH_PARAMS.query) ?? '';
  const city = text(params, SEARCH_PARAMS.city);
  const cursor = text(params, SEARCH_PARAMS.cursor);
  const input: Record<string, unknown> = { query, limit: RESULTS_SHOWN };
  if (city !== undefined && city !== '') input.city = typeof city === 'string' ? citySlugOf(city) || city : city;
  if (cursor !== undefined && cursor !== '') input.cursor = cursor;
  return { query: typeof query === 'string' ? query : '', input };
}

/** The page of the results after these: the same query and city, from `cursor`. */
export function nextPageHref(query: string, city: string, cursor: string): string {
  return `${SEARCH_PAGE_PATH}?${new URLSearchParams({ [SEARCH_PARAMS.query]: query, [SEARCH_PARAMS.city]: city, [SEARCH_PARAMS.cursor]: cursor })}`;
}

/**
 * What the page tells a person whose request search_pages refused (400), by the parameter it
 * names (`input`: what it was given).
 */
export function refusalReason(err: ApiError, input: Readonly<Record<string, unknown>>): string {
  const name = err.hint ?? '';
  if (typeof input[name] !== 'string') return 'La dirección de esta búsqueda está mal formada.';
  switch (name) {
    case 'query':
      return `La búsqueda debe tener entre ${LIMITS.queryMin} y ${LIMITS.queryMax} caracteres.`;
    case 'city':
      return 'Esa ciudad no está en nuestra lista: elige una de la lista, o todas.';
    case 'cursor':
      return 'Ese enlace a más resultados ya no vale: el sitio se ha actualizado desde entonces.';
    default:
      return 'La dirección de esta búsqueda no es válida.';
  }
}
