/**
 * When a page is an answer at all. A query's weight is the sum of its topic terms' weights
 * (weights.ts `idf`) plus, for each real word nothing on the site answers (and each word naming
 * what the site does not offer), the weight of the rarest word. Filler words (stop words, price
 * and urgency words, "casa") are not in it: they neither help a page in nor keep it out.
 *
 * - A page an intent names (the lexicon says it answers the phrase the query holds) must cover
 *   INTENT_COVERAGE of that weight, with the terms it matches and those the intent covers: the
 *   rest of a long query may be anything ("el plato de ducha tarda en vaciarse y hace gluglú"),
 *   but an intent does not outweigh what the query is really about ("clases de pintura al óleo").
 * - Any other page must cover MIN_COVERAGE, and TOPICAL of it with terms in its title, headings
 *   or description: a word of the running text may be incidental ("cambiar la cerradura tras
 *   una mudanza"), so body matches alone never make a page an answer.
 */

export const INTENT_COVERAGE = Number(process.env.INTENT_COVERAGE ?? 0.3);
export const MIN_COVERAGE = Number(process.env.MIN_COVERAGE ?? 0.5);
export const TOPICAL = Number(process.env.MIN_TOPICAL ?? 0.25);

export interface Coverage {
  /** Weight of the query terms the page matches (or an intent naming it covers). */
  covered: number;
  /** Of it, matched in the title, headings or description (or covered by an intent). */
  topical: number;
  /** The query's weight. */
  total: number;
  /** An intent names the page. */
  named: boolean;
}

const atLeast = (share: number, of: number, value: number) => value >= share * of - 1e-9;

export function isAnswer({ covered, topical, total, named }: Coverage): boolean {
  if (total <= 0) return false;
  if (named) return atLeast(INTENT_COVERAGE, total, covered);
  return atLeast(MIN_COVERAGE, total, covered) && atLeast(TOPICAL, total, topical);
}
