/**
 * When a page is an answer at all. Each topic term of the query weighs its inverse page
 * frequency (weights.ts `idf`); each word naming what the site does not offer, each real word
 * nothing on the site answers and each English word the lexicon lacks weighs a share of the
 * rarest word's weight (analyze.ts `UNKNOWN_WEIGHTS`): they are what the query may really be
 * about. Filler words (stop words, price and urgency words, "casa") weigh nothing: they neither
 * help a page in nor keep it out.
 *
 * - A page must cover at least as much weight as the query's unknown words (MIN_SHARE of the two
 *   together), with the terms it matches, those an intent naming it covers and the intent itself
 *   (weights.ts `INTENT_CREDIT`): "reparación de coches", "clases de pintura al óleo",
 *   "mudanzas en madrid" find nothing, "cambiar la cerradura tras la mudanza" finds the
 *   locksmith, and the other words of a long query ("el plato de ducha tarda en vaciarse y hace
 *   gluglú") may be anything on the site.
 * - A page no intent names must also match TOPICAL of the query's weight in its title, headings
 *   or description, and cover MIN_COVERAGE of it: a word of the running text may be incidental
 *   ("cambiar la cerradura tras una mudanza"), so body matches alone make no answer, unless
 * - the page holds every topic term of the query and one of them is specific, on a few pages of
 *   the site only (`isSpecific`): a page's own words ("bisagras descolgadas", "rascado y
 *   plastecido") find it, as people quote what they read.
 */

export const MIN_SHARE = 0.5;
export const MIN_COVERAGE = 0.25;
export const TOPICAL = 0.15;
/** A term on at most this many pages, or this share of them on a large site, is specific. */
export const SPECIFIC_PAGES = 3;
export const SPECIFIC_SHARE = 0.005;

/**
 * Whether a page is an answer. `covered`: weight of the query terms the page matches (or an intent
 * naming it covers); `topical`: of it, matched in the title, headings or description (or covered by
 * an intent); `unknown`: weight of the query's unknown words; `total`: the query's weight (terms
 * and unknown words); `named`: an intent names the page; `ownWords`: the page holds every topic
 * term, one of them specific.
 */
export function isAnswer(covered: number, topical: number, unknown: number, total: number, named: boolean, ownWords = false): boolean {
  if (!atLeast(MIN_SHARE, covered + unknown, covered)) return false;
  return named || (ownWords && unknown === 0) || (isCovered(covered, total) && isTopical(topical, total));
}

/** Whether a term the site has on `count` of its `pages` pages is specific (see above). */
export const isSpecific = (count: number, pages: number) => count > 0 && count <= Math.max(SPECIFIC_PAGES, pages * SPECIFIC_SHARE);

/** Whether `covered` of the query's weight `total` is enough for a page no intent names. */
export const isCovered = (covered: number, total: number) => atLeast(MIN_COVERAGE, total, covered);

/** Whether `topical` of the query's weight `total`, matched in titles, headings or descriptions, is enough for a page no intent names. */
export const isTopical = (topical: number, total: number) => atLeast(TOPICAL, total, topical);

const atLeast = (share: number, of: number, value: number) => value > 0 && value >= share * of - 1e-9;
