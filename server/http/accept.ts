/**
 * Proactive negotiation of the media type (RFC 9110 §12.5.1, `Accept`). A page has two
 * representations, HTML (the default) and Markdown. Markdown is chosen when the client rates it
 * higher than HTML, or as high but by name while HTML only through a wildcard
 * (`text/markdown, *\/*`), as `negotiator` (Express) breaks ties; `*\/*`, `text/*` and any
 * other tie stay on HTML.
 */

/**
 * The quality `header` gives `type` (`text/html`): the most specific matching range decides
 * (`text/html` over `text/*` over `*\/*`), its `q` weight defaulting to 1; 0 when no range matches.
 * A missing or empty header accepts everything (quality 1). Parameters other than `q` are not
 * matched on: `text/markdown;variant=GFM` counts as `text/markdown`.
 */
export function acceptQuality(header: string | undefined, type: string): number {
  return acceptMatch(header, type).q;
}

/** The quality and how specific the range that gave it was: 3 exact, 2 `type/*`, 1 `*\/*`, 0 none. */
export function acceptMatch(header: string | undefined, type: string): { q: number; specificity: number } {
  if (header === undefined || header.trim() === '') return { q: 1, specificity: 0 };
  const slash = type.indexOf('/');
  const major = type.slice(0, slash);
  let best = 0;
  let bestQ = 0;
  for (const part of header.split(',')) {
    const semi = part.indexOf(';');
    const range = (semi === -1 ? part : part.slice(0, semi)).trim().toLowerCase();
    const specificity = range === type ? 3 : range === `${major}/*` ? 2 : range === '*/*' ? 1 : 0;
    if (specificity === 0 || specificity < best) continue;
    const q = semi === -1 ? 1 : weight(part.slice(semi + 1));
    // Equally specific ranges given twice: the more generous one is taken.
    bestQ = specificity > best ? q : Math.max(bestQ, q);
    best = specificity;
  }
  return { q: bestQ, specificity: best };
}

/** `q=0.5` among a range's parameters → 0.5; absent → 1; malformed → 0 (RFC 9110 §12.4.2). */
function weight(params: string): number {
  for (const param of params.split(';')) {
    const eq = param.indexOf('=');
    if (eq === -1 || param.slice(0, eq).trim().toLowerCase() !== 'q') continue;
    const value = param.slice(eq + 1).trim();
    if (!/^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value)) return 0;
    return Number(value);
  }
  return 1;
}

export const MARKDOWN_TYPE = 'text/markdown';
export const HTML_TYPE = 'text/html';

/** Whether the client prefers the Markdown representation of a page over its HTML. */
export function prefersMarkdown(header: string | undefined): boolean {
  // Nearly every request is a browser's or a crawler's: no `markdown` in the header, no parsing.
  if (header === undefined || !header.toLowerCase().includes('markdown')) return false;
  const md = acceptMatch(header, MARKDOWN_TYPE);
  const html = acceptMatch(header, HTML_TYPE);
  return md.q > 0 && (md.q > html.q || (md.q === html.q && md.specificity > html.specificity));
}
