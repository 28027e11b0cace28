/**
 * How much each kind of match counts in a page's score. A term's weight in a query is its inverse
 * page frequency (rare words say more than "agua"); where it matched on the page multiplies it:
 * the title says what the page is about, headings and the description what its parts are, the
 * body only that the word is there (its BM25 body score, scaled 0–1 per term, orders bodies).
 */

export const TITLE = 1.5;
export const HEADING = 0.6;
export const BODY = 0.5;
/** Filler words a page holds count this fraction of a topic word of their weight: they order, they never decide. */
export const SOFT = 0.3;
/** The pages of a service the query names ("fontanero", "reformas de baño") get the query's weight times this. */
export const SERVICE_NAME = 0.5;
/**
 * What an intent naming a page covers of the query, per phrase word, as a share of the rarest
 * word's weight: a little more than an unknown Spanish word weighs (analyze.ts UNKNOWN_WEIGHTS),
 * so "cambiar la cerradura tras la mudanza" still finds the locksmith.
 */
export const INTENT_CREDIT = 0.45;
/** Among pages intents name, each word of the longest phrase naming it adds the query's weight times this. */
export const INTENT_PER_WORD = 0.25;

/** Inverse page frequency of a term matched by `df` of `pages` pages (0 pages: the rarest weight). */
export function idf(df: number, pages: number): number {
  return Math.log((pages + 1) / (df + 0.5));
}

/** What a term's match counts for where it is: in the title, in a heading or the description, and its body score (0–1). */
export function fieldFactor(title: boolean, heading: boolean, body: number): number {
  return 1 + (title ? TITLE : 0) + (heading ? HEADING : 0) + BODY * body;
}
