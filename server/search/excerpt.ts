/**
 * Excerpts, plain text from the indexed words: the first window of the page holding the most
 * distinct query words (the first, not the densest: pages open with their summary, and the
 * densest spot is often a list of links repeating the word), cut at word boundaries to at most
 * EXCERPT_MAX characters, with "…" where the page text goes on.
 */
import { ownString } from '../own-string.ts';

export const EXCERPT_MIN = 160;
export const EXCERPT_MAX = 240;
/** Words kept before the first match, so the excerpt reads from a little before it. */
const LEAD = 8;
const ELLIPSIS = '…';

/**
 * A page's indexed text as words on its single spaces: where each word starts, and the words
 * themselves only when asked for (engines keep this per page; the offsets cost 4 bytes a word,
 * an array of word strings ten times that).
 */
export interface Words {
  readonly text: string;
  readonly starts: Int32Array;
  readonly words: readonly string[];
}

export function splitWords(text: string): Words {
  let n = text === '' ? 0 : 1;
  for (let i = text.indexOf(' '); i !== -1; i = text.indexOf(' ', i + 1)) n++;
  const starts = new Int32Array(n);
  for (let k = 1, i = text.indexOf(' '); i !== -1; i = text.indexOf(' ', i + 1)) starts[k++] = i + 1;
  let words: string[] | undefined;
  return { text, starts, get words() { return (words ??= text === '' ? [] : text.split(' ')); } };
}

/** Length of word `i`. */
function lengthOf(page: Words, i: number): number {
  return (i + 1 < page.starts.length ? page.starts[i + 1]! - 1 : page.text.length) - page.starts[i]!;
}

/** Characters of words `from..to` joined by spaces. */
function span(page: Words, from: number, to: number): number {
  return page.starts[to]! + lengthOf(page, to) - page.starts[from]!;
}

/**
 * `matches`: per query word, the positions of the words it matched. With none, the page's opening.
 */
export function buildExcerpt(page: Words, matches: ReadonlyArray<readonly number[]>): string {
  const count = page.starts.length;
  const budget = EXCERPT_MAX - 2 * ELLIPSIS.length - 2;
  let start = 0;
  const sorted: Array<[number, number]> = [];
  matches.forEach((positions, term) => { for (const p of positions) sorted.push([p, term]); });
  if (sorted.length > 0) {
    sorted.sort((a, b) => a[0] - b[0]);
    const wanted = new Set(sorted.map((h) => h[1])).size;
    let best = sorted[0]![0];
    let bestEnd = best;
    let bestTerms = 0;
    for (let i = 0; i < sorted.length && bestTerms < wanted; i++) {
      const terms = new Set<number>();
      let end = sorted[i]![0];
      for (let j = i; j < sorted.length; j++) {
        const [pos, term] = sorted[j]!;
        if (span(page, sorted[i]![0], pos) > budget) break;
        if (!terms.has(term)) end = pos;
        terms.add(term);
      }
      if (terms.size > bestTerms) {
        best = sorted[i]![0];
        bestEnd = end;
        bestTerms = terms.size;
      }
    }
    start = Math.max(0, best - LEAD);
    // Never lead with so much context that the first match, or the last word the window was chosen for, falls out.
    while (start < best && (span(page, start, best) > budget / 2 || span(page, start, bestEnd) > budget)) start++;
  }
  let end = start;
  let length = start < count ? lengthOf(page, start) : 0;
  while (end + 1 < count && length + 1 + lengthOf(page, end + 1) <= budget) {
    end++;
    length += 1 + lengthOf(page, end);
  }
  while (start > 0 && length < EXCERPT_MIN && length + 1 + lengthOf(page, start - 1) <= budget) {
    start--;
    length += 1 + lengthOf(page, start);
  }
  // Copied out at the end (ownString): results are cached with their excerpts, weighed by their length.
  let text = count === 0 ? '' : page.text.slice(page.starts[start]!, page.starts[end]! + lengthOf(page, end));
  // A single word longer than the budget (a long address) is cut, not allowed to overflow.
  if (text.length > budget) text = text.slice(0, budget - ELLIPSIS.length).trimEnd() + ELLIPSIS;
  return ownString((start > 0 ? ELLIPSIS + ' ' : '') + text + (end + 1 < count ? ' ' + ELLIPSIS : ''));
}
