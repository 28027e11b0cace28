/**
 * The results page of the site's search box: the site builds it as a shell (src/pages/buscar.astro)
 * and the server fills that shell per request (server/routes/search-page.ts). Its address, its
 * parameters, the slot the server fills and how the form names a city are defined here, where the
 * site, the build (the crawl and the sitemap leave the page out) and the server all read them.
 */
import { words } from './search/text.ts';

export const SEARCH_PAGE_PATH = '/buscar/';

/**
 * The form's fields, what the person wants in their words and their city, and the link to the
 * next results (search_pages' `cursor`).
 */
export const SEARCH_PARAMS = { query: 'q', city: 'ciudad', cursor: 'desde' } as const;

/** The option of the city list that searches every city; it reads as the API's `todas`. */
export const ALL_CITIES_LABEL = 'Todas';

/** id of the shell's element that holds the results: the page's script swaps its content. */
export const RESULTS_ID = 'resultados';

/** Inside that element, what the server replaces with the results (a comment: the shell alone reads as an empty page). */
export const RESULTS_SLOT = '<!--agentes:resultados-->';

/**
 * The city slug of a `ciudad` value: a slug as it is (`a-coruna`), or a city's short name as the
 * form sends it (`A Coruña`, `Todas`): its folded words joined by hyphens, which is the slug of
 * every city. The form's options carry no value attribute, as the list is on every page.
 */
export const citySlugOf = (value: string): string => words(value).join('-');
