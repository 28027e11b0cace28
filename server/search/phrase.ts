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

/**
 * A page's own sentence: several query words standing together in the order typed in one or two
 * pages' text, however common each word is ("si algo no sale bien", "cuando no es una fuga").
 * Stop words count here, as the order does: together they say which page was read. Two words are
 * an everyday pair, never one page's: a window holds three words or more, two of them of four
 * letters or more, unless it holds four.
 */
export const ORDERED_MIN = 3;
/** Words in a window at most (TokenPlaces `hasSequence` reads eight). */
export const ORDERED_MAX = 8;
/** Runs this long may leave a word out at an end. */
const LONG_RUN = 5;
/** Windows tried per query, longest first: each reads up to ORDERED_PAGES_READ pages. */
const ORDERED_WINDOWS = 8;
/**
 * Pages of a window's rarest word read for the words in order: past this many its words are too
 * common for a sentence of them to be found by reading, on a site of any size.
 */
export const ORDERED_PAGES_READ = 96;

/** Whether a window of query words may be a page's own sentence (see above). */
export const orderedWindow = (words: readonly string[]) =>
  words.length >= ORDERED_MIN + 1 || (words.length >= ORDERED_MIN && words.filter((w) => w.length >= 4).length >= 2);

/**
 * The windows of each run worth looking for, longest first (at most ORDERED_WINDOWS): the whole
 * run, or of a run of LONG_RUN words or more all but one word at an end ("y si…"). A phrase a
 * page has inside a longer request ("cambiar las tuberías de hierro galvanizado") is a page
 * mentioning the job, not the page read.
 */
export function orderedWindows(runs: ReadonlyArray<readonly string[]>): string[][] {
  const out: string[][] = [];
  const longest = Math.min(ORDERED_MAX, Math.max(0, ...runs.map((r) => r.length)));
  for (let n = longest; n >= ORDERED_MIN; n--) {
    for (const run of runs) {
      if (n < run.length - (run.length >= LONG_RUN ? 1 : 0)) continue;
      for (let i = 0; i + n <= run.length; i++) {
        const w = run.slice(i, i + n);
        if (!orderedWindow(w)) continue;
        out.push(w);
        if (out.length === ORDERED_WINDOWS) return out;
      }
    }
  }
  return out;
}

/**
 * The pages (at most PHRASE_PAGES) holding a window's words in order, of the `pages` its rarest
 * word is on (`inOrder(d)` reads page d); none when more do.
 */
export function orderedPages(pages: ArrayLike<number>, inOrder: (d: number) => boolean): number[] | undefined {
  const out: number[] = [];
  for (let i = 0; i < pages.length; i++) {
    if (!inOrder(pages[i]!)) continue;
    if (out.length === PHRASE_PAGES) return undefined;
    out.push(pages[i]!);
  }
  return out;
}
