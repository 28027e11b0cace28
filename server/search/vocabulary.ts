/**
 * The words of one build and what counts as a real match for a query word.
 *
 * A page word matches a query word when their stems are equal, or when one stem is the other
 * plus a short derivational tail ("fontan|er": fontanero ↔ fontanería, "electr|ic": eléctrico ↔
 * electricista, "humed|ad": humedad ↔ humedades) and the shorter stem has at least five letters.
 * That is the check Pagefind's prefix matching lacks: "dentista" must not match "dentro", nor
 * "agua" match "agudo".
 */
import { stem } from './stem-es.ts';

const TAILS = ['a', 'e', 'i', 'o', 'ad', 'ar', 'er', 'ir', 'or', 'ic'];
const MIN_BASE = 5;
/** Typo correction applies to words this long or longer (one edit). */
export const TYPO_MIN_LENGTH = 5;

/** Stems a query word `t` may match: its own, plus the derivational relatives of the rule above. */
export function familyStems(t: string): Set<string> {
  const s = stem(t);
  const out = new Set([s]);
  if (s.length >= MIN_BASE) for (const tail of TAILS) out.add(s + tail);
  for (const tail of TAILS) {
    if (s.length - tail.length >= MIN_BASE && s.endsWith(tail)) out.add(s.slice(0, -tail.length));
  }
  return out;
}

/** `a` from `ia` equals `b` from `ib`. (Module-level: tsx wraps every inner closure in a `__name` call.) */
function sameRest(a: string, b: string, ia: number, ib: number): boolean {
  if (a.length - ia !== b.length - ib) return false;
  while (ia < a.length) if (a.charCodeAt(ia++) !== b.charCodeAt(ib++)) return false;
  return true;
}

/** Optimal string alignment distance ≤ 1 (one insertion, deletion, substitution or swap). */
export function withinOneEdit(a: string, b: string): boolean {
  const la = a.length;
  const lb = b.length;
  if (la - lb > 1 || lb - la > 1) return false;
  let i = 0;
  while (i < la && i < lb && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === la && i === lb) return true;
  if (la === lb) {
    if (sameRest(a, b, i + 1, i + 1)) return true;
    return a.charCodeAt(i) === b.charCodeAt(i + 1) && a.charCodeAt(i + 1) === b.charCodeAt(i) && sameRest(a, b, i + 2, i + 2);
  }
  return la > lb ? sameRest(a, b, i + 1, i) : sameRest(a, b, i, i + 1);
}

/** Strings grouped by length, so an edit-distance scan only reads lengths n-1..n+1. */
export function byLength(list: Iterable<string>): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const w of list) {
    const bucket = out.get(w.length);
    if (bucket === undefined) out.set(w.length, [w]);
    else bucket.push(w);
  }
  return out;
}

export function* near(buckets: ReadonlyMap<number, readonly string[]>, n: number): Iterable<string> {
  for (let l = n - 1; l <= n + 1; l++) yield* buckets.get(l) ?? [];
}

export class Vocabulary {
  /** stem → folded words with that stem, most frequent first. */
  private readonly byStem = new Map<string, string[]>();
  private readonly df = new Map<string, number>();
  private readonly wordsByLength: Map<number, string[]>;
  private readonly stemsByLength: Map<number, string[]>;
  /** correct() answers, bounded: a query word is looked up on every search that has it. */
  private readonly corrections = new Map<string, string | null>();

  /**
   * `entries`: folded word, the number of pages it appears in, and its stem when known (the build
   * writes it: stemming a large site's words at open takes a second); `size`: pages in the build
   * (0: unknown).
   */
  constructor(entries: Iterable<readonly [string, number, string?]>, readonly size = 0) {
    for (const [word, df, known] of entries) {
      this.df.set(word, df);
      const s = known ?? stem(word);
      const list = this.byStem.get(s);
      if (list === undefined) this.byStem.set(s, [word]);
      else list.push(word);
    }
    for (const list of this.byStem.values()) list.sort((a, b) => this.rank(a, b));
    this.wordsByLength = byLength(this.df.keys());
    this.stemsByLength = byLength(this.byStem.keys());
  }

  /** Pages the word appears in (0 when the build does not have it). */
  pages(word: string): number {
    return this.df.get(word) ?? 0;
  }

  /** Pages the words of a query word's family appear in, at most (the largest count of any of them). */
  familyPages(t: string): number {
    let max = 0;
    for (const w of this.family(t)) max = Math.max(max, this.pages(w));
    return max;
  }

  /** Every word of the build, alphabetically. */
  words(): string[] {
    return [...this.df.keys()].sort();
  }

  /** Page words a query word matches (empty when it matches nothing in this build). */
  family(t: string): string[] {
    const out: string[] = [];
    for (const s of familyStems(t)) {
      const list = this.byStem.get(s);
      if (list !== undefined) out.push(...list);
    }
    return out;
  }

  /**
   * The word a misspelt query word most likely meant: a page word one edit away, or failing that a
   * word whose stem is one edit from the query word's stem ("cerrajro" → "cerrajero"); the most
   * frequent wins, then the shorter, then the alphabetically first. Undefined if none.
   */
  correct(t: string, minLength = TYPO_MIN_LENGTH): string | undefined {
    if (t.length < minLength) return undefined;
    let known = this.corrections.get(t);
    if (known === undefined) {
      if (this.corrections.size >= 10_000) this.corrections.clear();
      known = this.closest(t) ?? null;
      this.corrections.set(t, known);
    }
    return known ?? undefined;
  }

  private closest(t: string): string | undefined {
    let best: string | undefined;
    for (const w of near(this.wordsByLength, t.length)) {
      if (withinOneEdit(t, w) && (best === undefined || this.rank(w, best) < 0)) best = w;
    }
    if (best !== undefined) return best;
    const st = stem(t);
    if (st.length < MIN_BASE) return undefined;
    for (const s of near(this.stemsByLength, st.length)) {
      if (s.length < MIN_BASE || !withinOneEdit(st, s)) continue;
      const w = this.byStem.get(s)![0]!;
      if (best === undefined || this.rank(w, best) < 0) best = w;
    }
    return best;
  }

  private rank(a: string, b: string): number {
    return (this.df.get(b)! - this.df.get(a)!) || (a.length - b.length) || (a < b ? -1 : a > b ? 1 : 0);
  }
}
