/**
 * Excerpts built here, not by Pagefind: its fragment objects are cached and mutated per search,
 * so concurrent searches can swap excerpts, and its excerpts carry `<mark>` HTML. Ours are plain
 * text from the indexed words: the first window of the page holding the most distinct query
 * words (the first, not the densest: pages open with their summary, and the densest spot is
 * often a list of links repeating the word), cut at word boundaries to at most EXCERPT_MAX
 * characters, with "…" where the page text goes on.
 */

export const EXCERPT_MIN = 160;
export const EXCERPT_MAX = 240;
/** Words kept before the first match, so the excerpt reads from a little before it. */
const LEAD = 8;
const ELLIPSIS = '…';

/** A page's indexed text split on its single spaces, with where each word starts. */
export interface Words {
  readonly words: readonly string[];
  readonly starts: Int32Array;
}

export function splitWords(text: string): Words {
  const words = text === '' ? [] : text.split(' ');
  const starts = new Int32Array(words.length);
  let at = 0;
  for (let i = 0; i < words.length; i++) { starts[i] = at; at += words[i]!.length + 1; }
  return { words, starts };
}

/** Characters of words `from..to` joined by spaces. */
function span(page: Words, from: number, to: number): number {
  return page.starts[to]! + page.words[to]!.length - page.starts[from]!;
}

/**
 * `matches`: per query word, the positions of the words it matched. With none, the page's opening.
 */
export function buildExcerpt(page: Words, matches: ReadonlyArray<readonly number[]>): string {
  const { words } = page;
  const budget = EXCERPT_MAX - 2 * ELLIPSIS.length - 2;
  let start = 0;
  const sorted: Array<[number, number]> = [];
  matches.forEach((positions, term) => { for (const p of positions) sorted.push([p, term]); });
  if (sorted.length > 0) {
    sorted.sort((a, b) => a[0] - b[0]);
    const wanted = new Set(sorted.map((h) => h[1])).size;
    let best = sorted[0]![0];
    let bestTerms = 0;
    for (let i = 0; i < sorted.length && bestTerms < wanted; i++) {
      const terms = new Set<number>();
      for (let j = i; j < sorted.length; j++) {
        const [pos, term] = sorted[j]!;
        if (span(page, sorted[i]![0], pos) > budget) break;
        terms.add(term);
      }
      if (terms.size > bestTerms) {
        best = sorted[i]![0];
        bestTerms = terms.size;
      }
    }
    start = Math.max(0, best - LEAD);
    // Never lead with so much context that the first match falls out of the budget.
    while (start < best && span(page, start, best) > budget / 2) start++;
  }
  let end = start;
  let length = words[start]?.length ?? 0;
  while (end + 1 < words.length && length + 1 + words[end + 1]!.length <= budget) {
    end++;
    length += 1 + words[end]!.length;
  }
  while (start > 0 && length < EXCERPT_MIN && length + 1 + words[start - 1]!.length <= budget) {
    start--;
    length += 1 + words[start]!.length;
  }
  let text = words.slice(start, end + 1).join(' ');
  // A single word longer than the budget (a long address) is cut, not allowed to overflow.
  if (text.length > budget) text = text.slice(0, budget - ELLIPSIS.length).trimEnd() + ELLIPSIS;
  return (start > 0 ? ELLIPSIS + ' ' : '') + text + (end + 1 < words.length ? ' ' + ELLIPSIS : '');
}
