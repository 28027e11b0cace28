/**
 * A page's own phrase: the query's words together in one page's text — next to each other, in
 * any order, with a few small words between — and on hardly any other page. People quote what
 * they read ("la correa del tambor", "racores que gotean"), and a phrase only one page has says
 * which page they read, whether or not the lexicon knows its words and however common each word
 * is alone. rank.ts puts such pages first.
 */
import type { WordHits } from '../../formats/search/word-hits.ts';
import { advance } from './page-sets.ts';

/** A phrase on more pages than this is no page's own. */
export const PHRASE_PAGES = 2;
/**
 * Pages holding every word that are read for where the words are: past this many the words are
 * common together, and no phrase of them is likely to be one page's.
 */
const PAGES_READ = 12;
/** Tokens besides the words a phrase may span, per gap between two words: a few small words ("pasacintas de la persiana"). */
const SLACK = 2;
/**
 * With a word that only a few pages have (precision.ts `isSpecific`), the rest of a sentence
 * ("la correa o el tacómetro… el tambor").
 */
const SENTENCE_SLACK = 10;
/** One word at least must be on no more than this share of the pages: common words alone meet by chance in a long text. */
const UNCOMMON_SHARE = 0.1;

/**
 * The pages (at most PHRASE_PAGES) of the `pages` whose text holds `words` together; none when
 * fewer than two words, all of them common, or when the words are together on more pages.
 * `specific`: one of the words is on a few pages only. `positions(d, k)`: the token positions of
 * word k's family on page d, ascending.
 */
export function phrasePages(
  words: readonly WordHits[], pages: number, specific: boolean, positions: (d: number, k: number) => readonly number[],
): number[] {
  if (words.length < 2 || words.every((w) => w.count > UNCOMMON_SHARE * pages)) return [];
  const all = withEvery(words);
  if (all === undefined) return [];
  const span = (words.length - 1) * (1 + (specific ? SENTENCE_SLACK : SLACK));
  const out: number[] = [];
  for (const d of all) {
    if (shortestSpan(words.map((_, k) => positions(d, k))) > span) continue;
    if (out.length === PHRASE_PAGES) return [];
    out.push(d);
  }
  return out;
}

/** The pages holding every word, ascending; undefined past PAGES_READ. */
function withEvery(words: readonly WordHits[]): number[] | undefined {
  let rarest = 0;
  for (let k = 1; k < words.length; k++) if (words[k]!.count < words[rarest]!.count) rarest = k;
  const lists = words.map((w) => w.docs.subarray(0, w.count));
  const at = new Int32Array(words.length);
  const out: number[] = [];
  scan: for (const d of lists[rarest]!) {
    for (let k = 0; k < lists.length; k++) {
      if (k === rarest) continue;
      const list = lists[k]!;
      at[k] = advance(list, at[k]!, d);
      if (at[k] === list.length) break scan;
      if (list[at[k]!] !== d) continue scan;
    }
    if (out.length === PAGES_READ) return undefined;
    out.push(d);
  }
  return out;
}

/** The fewest tokens a window holding a position of every list spans (Infinity when one is empty). */
export function shortestSpan(lists: ReadonlyArray<readonly number[]>): number {
  const at = lists.map(() => 0);
  let best = Infinity;
  for (;;) {
    let lo = 0;
    let max = -Infinity;
    for (let k = 0; k < lists.length; k++) {
      const p = lists[k]![at[k]!];
      if (p === undefined) return best;
      if (p < lists[lo]![at[lo]!]!) lo = k;
      if (p > max) max = p;
    }
    best = Math.min(best, max - lists[lo]![at[lo]!]!);
    at[lo]!++;
  }
}
