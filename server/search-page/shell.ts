/**
 * The results page's shell (src/pages/buscar.astro, built with the site) and how one request fills
 * it. The shell is cut once per build at the places that change, so a request joins strings: the
 * title (the query before it), the header box's query field (its value), its city list (the city
 * chosen) and the results slot (formats/search-page.ts). A shell missing one of them is refused
 * when read, naming it.
 */
import { citySlugOf, RESULTS_SLOT, SEARCH_PARAMS } from '../../formats/search-page.ts';
import { escapeHtml } from './html.ts';

export interface ShellFill {
  /** Plain text put before the shell's own title ("«fuga de agua» · "). */
  titlePrefix: string;
  /** Plain text: the query shown in the box. */
  query: string;
  /** The slug of the city chosen in the list (`todas` for every city). */
  city: string;
  /** HTML: the results, in the slot. */
  results: string;
}

export interface Shell {
  render(fill: ShellFill): string;
}

interface Option {
  slug: string;
  /** As written in the shell (HTML). */
  text: string;
}

const TITLE = '<title>';
const QUERY_INPUT = new RegExp(`<input\\b[^>]*\\bname="${SEARCH_PARAMS.query}"[^>]*>`);
const CITY_SELECT = new RegExp(`<select\\b[^>]*\\bname="${SEARCH_PARAMS.city}"[^>]*>([^]*?)</select>`);
const OPTION = /<option(?: selected)?>([^<]*)/g;

/** `html`: the built shell. Throws when a place to fill is missing or out of order. */
export function parseShell(html: string): Shell {
  const title = html.indexOf(TITLE);
  const input = QUERY_INPUT.exec(html);
  const select = CITY_SELECT.exec(html);
  const slot = html.indexOf(RESULTS_SLOT);
  if (title === -1) throw new Error('the search page shell has no <title>');
  if (!input) throw new Error(`the search page shell has no <input name="${SEARCH_PARAMS.query}">`);
  if (/\bvalue=/.test(input[0])) throw new Error('the search page shell fills its query field already');
  if (!select) throw new Error(`the search page shell has no <select name="${SEARCH_PARAMS.city}">`);
  if (slot === -1) throw new Error(`the search page shell has no ${RESULTS_SLOT}`);
  const titleAt = title + TITLE.length;
  // The value goes before the tag's end (`>` or `/>`).
  const valueAt = input.index + input[0].length - (input[0].endsWith('/>') ? 2 : 1);
  const optionsAt = select.index + select[0].length - select[1]!.length - '</select>'.length;
  const optionsEnd = optionsAt + select[1]!.length;
  if (!(titleAt < valueAt && valueAt < optionsAt && optionsEnd < slot)) throw new Error('the search page shell has its title, query field, city list and results slot out of order');
  const options: Option[] = [...select[1]!.matchAll(OPTION)].map((m) => ({ slug: citySlugOf(m[1]!), text: m[1]! }));
  if (options.length === 0) throw new Error('the search page shell lists no city');

  const parts = [
    html.slice(0, titleAt),
    html.slice(titleAt, valueAt),
    html.slice(valueAt, optionsAt),
    html.slice(optionsEnd, slot),
    html.slice(slot + RESULTS_SLOT.length),
  ] as const;
  return {
    render: ({ titlePrefix, query, city, results }) => parts[0] + escapeHtml(titlePrefix) + parts[1]
      + (query === '' ? '' : ` value="${escapeHtml(query)}"`) + parts[2]
      + options.map((o) => (o.slug === city ? `<option selected>${o.text}` : `<option>${o.text}`)).join('')
      + parts[3] + results + parts[4],
  };
}
