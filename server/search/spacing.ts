/**
 * Words split or run together while typing: "fonta nero", "calde ra", "reformacocina",
 * "cambiarcerradura". Read before the rewrites, over the words as typed, with bounded work: one
 * look-up per pair of neighbours and per split point of a word of at most MAX_SPLIT letters.
 */

/** What the query's words are checked against. */
export interface SpacingWords {
  /** A word something answers: a page word, a word the lexicon uses or rewrites. */
  answered(word: string): boolean;
  /** A real Spanish or English word. */
  real(word: string): boolean;
  /** A word both the pages and the lexicon use: a topic the site has words for. */
  topic(word: string): boolean;
  /** A word pages or the lexicon use: what a split or a join may give. */
  known(word: string): boolean;
  /** A word that is a typo of a page word, one edit or one sound away: a typo, not two words. */
  typo(word: string): boolean;
  /** Words that carry no topic ("de", "para"): a split into one of them says little. */
  filler(word: string): boolean;
}

/** Each half of a split word is at least this long; one of them, not filler, one letter longer. */
const MIN_PART = 3;
/** Longer words are not tried: a run of three words is beyond one split. */
const MAX_SPLIT = 30;
const LETTERS = /^[a-zñ]+$/;

/**
 * The two known words `word` runs together, the most even split first; undefined when none. A
 * real word the site does not use ("termoelectrico") is split only into two topic words of four
 * letters or more, neither filler: such a word is more often a compound of its own ("caradura").
 */
export function splitWord(word: string, words: SpacingWords): [string, string] | undefined {
  if (word.length < 2 * MIN_PART + 1 || word.length > MAX_SPLIT || !LETTERS.test(word)) return undefined;
  const real = words.real(word);
  let best: [string, string] | undefined;
  for (let k = MIN_PART; k <= word.length - MIN_PART; k++) {
    const left = word.slice(0, k);
    const right = word.slice(k);
    if (!words.known(left) || !words.known(right)) continue;
    const topical = [left, right].filter((w) => !words.filler(w) && w.length > MIN_PART);
    if (topical.length === 0) continue;
    if (real && (topical.length < 2 || !words.topic(left) || !words.topic(right))) continue;
    if (best === undefined || Math.min(left.length, right.length) > Math.min(best[0].length, best[1].length)) best = [left, right];
  }
  return best;
}

/**
 * The query's words with spacing mended: two neighbours, not both answered, that make a known word
 * when joined are that word ("electri cista", "desatas cos"); a word nothing answers that is two
 * known words run together, and no typo of one, is those two ("aireacondicionado"). Two words
 * each answered are never joined, and an answered word is never split.
 */
export function mendSpacing(tokens: readonly string[], words: SpacingWords): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const next = tokens[i + 1];
    if (next !== undefined && LETTERS.test(t) && LETTERS.test(next) && !(words.answered(t) && words.answered(next)) && words.known(t + next)) {
      out.push(t + next);
      i++;
      continue;
    }
    const split = words.answered(t) || words.typo(t) ? undefined : splitWord(t, words);
    out.push(...(split ?? [t]));
  }
  return out;
}
