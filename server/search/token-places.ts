/**
 * Where a query word's family occurs in a page's text: the token positions an excerpt is cut
 * around. Each page's tokens are turned once into stem numbers (flat arrays, kept in a
 * byte-bounded LRU), so finding a word's positions is a scan of integers, not a stemming of the
 * text per query word.
 */
import { Lru } from '../../formats/search/lru.ts';
import { stemNumbers } from '../../formats/search/page-stems.ts';
import { stem } from '../../formats/search/stem-es.ts';
import { words as foldedWords } from '../../formats/search/text.ts';
import type { Words } from './excerpt.ts';

/** Positions an excerpt is given per query word: it needs the first few. */
const MAX_POSITIONS = 64;
/** Tokens whose stem numbers are remembered (a site's tokens recur from page to page). */
const TOKEN_MEMO = 50_000;
const NONE = new Int32Array(0);

/** Token t of a page holds the stems numbered `ids[at[t] .. at[t + 1])` (usually one). */
interface TokenStems { at: Int32Array; ids: Int32Array }

export class TokenPlaces {
  private readonly cache: Lru<number, TokenStems>;
  private readonly memo = new Map<string, Int32Array>();
  /**
   * By stem number, whether the family being looked for holds it, or which words of a phrase
   * being looked for hold it (a bit each): all zero between uses.
   */
  private readonly marks: Uint8Array;

  constructor(
    private readonly text: (page: number) => Words,
    private readonly stemIds: ReadonlyMap<string, number>,
    cacheBytes: number,
  ) {
    this.cache = new Lru(cacheBytes);
    this.marks = new Uint8Array(stemIds.size);
  }

  /** Stem numbers of a family's stems the index has. */
  idsOf(family: Iterable<string>): Int32Array {
    return stemNumbers(this.stemIds, family);
  }

  /** Positions of page `page`'s tokens holding a stem numbered in `ids`, the first MAX_POSITIONS. */
  positions(page: number, ids: Int32Array): number[] {
    const { at, ids: stems } = this.stemsOf(page);
    const marks = this.marks;
    for (const id of ids) marks[id] = 1;
    const out: number[] = [];
    for (let t = 0; t + 1 < at.length && out.length < MAX_POSITIONS; t++) {
      for (let k = at[t]!; k < at[t + 1]!; k++) if (marks[stems[k]!] === 1) { out.push(t); break; }
    }
    for (const id of ids) marks[id] = 0;
    return out;
  }

  /**
   * Whether page `page` holds, somewhere, consecutive tokens whose stems are each in the matching
   * `words[k]` (at most 8 words): a phrase in its order, read off the whole text, not the first
   * positions (a stop word has hundreds).
   */
  hasSequence(page: number, words: readonly Int32Array[]): boolean {
    if (words.length === 0 || words.length > 8) return false;
    const { at, ids: stems } = this.stemsOf(page);
    const marks = this.marks;
    words.forEach((ids, k) => { for (const id of ids) marks[id]! |= 1 << k; });
    const tokens = at.length - 1;
    const bitsAt = (t: number) => {
      let b = 0;
      for (let k = at[t]!; k < at[t + 1]!; k++) b |= marks[stems[k]!]!;
      return b;
    };
    let found = false;
    scan: for (let t = 0; t + words.length <= tokens; t++) {
      for (let k = 0; k < words.length; k++) if ((bitsAt(t + k) & (1 << k)) === 0) continue scan;
      found = true;
      break;
    }
    for (const ids of words) for (const id of ids) marks[id] = 0;
    return found;
  }

  private stemsOf(page: number): TokenStems {
    let known = this.cache.get(page);
    if (known !== undefined) return known;
    const tokens = this.text(page).words;
    const at = new Int32Array(tokens.length + 1);
    let ids = new Int32Array(tokens.length);
    let n = 0;
    for (let t = 0; t < tokens.length; t++) {
      const of = this.tokenIds(tokens[t]!);
      if (n + of.length > ids.length) {
        const bigger = new Int32Array(2 * (n + of.length));
        bigger.set(ids);
        ids = bigger;
      }
      ids.set(of, n);
      n += of.length;
      at[t + 1] = n;
    }
    known = { at, ids: ids.slice(0, n) };
    this.cache.set(page, known, at.byteLength + known.ids.byteLength);
    return known;
  }

  private tokenIds(token: string): Int32Array {
    let ids = this.memo.get(token);
    if (ids === undefined) {
      const stems = foldedWords(token).map(stem);
      ids = stems.length === 0 ? NONE : this.idsOf(stems);
      if (this.memo.size >= TOKEN_MEMO) this.memo.clear();
      this.memo.set(token, ids);
    }
    return ids;
  }

  /** Bytes the cache holds now. */
  get cachedBytes(): number {
    return this.cache.weight;
  }

  clear(): void {
    this.cache.clear();
  }
}
