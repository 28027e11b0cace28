/**
 * The pages that really match one query word (a "word answer"): a matched position holds a word of
 * its family, or its title or headings do. Words with the same stem family ("fontanero",
 * "fontaneros") match the same pages, so an answer is known by its family (`familyKey`). The
 * engine caches answers; the build keeps those of common words (word-answers.ts), made here too.
 */
import type { Keep, TermSearch } from './term-search.ts';
import type { PageStems } from './page-stems.ts';
import { HEADING, TITLE } from './match-flags.ts';
import { stem } from './stem-es.ts';
import { words as foldedWords } from './text.ts';
import { familyStems, type Vocabulary } from './vocabulary.ts';

/** Flag of a word hit with a matched position whose text word is of the family (besides TITLE, HEADING). */
export const BODY = 4;
/** Flag of a page in a word's answer while it is being checked. */
const PRESENT = 8;
/** Positions kept per page and word: the excerpt needs the first few. */
const MAX_POSITIONS = 64;

/** The pages that really match one query word: columns by page, ascending, hit k on page `docs[k]`. */
export interface WordHits {
  count: number;
  docs: Int32Array;
  /** Pagefind's score. */
  scores: Float32Array;
  /** TITLE, HEADING and BODY bits. */
  flags: Uint8Array;
  /** The highest score (1 when none), which scales each score to 0–1. */
  top: number;
  /** The pages with the word in the title, headings or description, ascending. */
  topical: Int32Array;
}

/** How one query word is looked up: the prefix its family is found by, the family, its test of text words. */
export interface Lookup { prefix: string; family: ReadonlySet<string>; keep: Keep }

/** Cache key of a query word: its stem family (vocabulary.ts `familyStems`), which decides its matches. */
export function familyKey(term: string): string {
  return [...familyStems(term)].sort().join(' ');
}

/** The longest prefix the words share: what the engine looks a word up by. */
export function commonPrefix(list: readonly string[]): string {
  let p = list[0] ?? '';
  for (const w of list) {
    let i = 0;
    while (i < p.length && i < w.length && p[i] === w[i]) i++;
    p = p.slice(0, i);
  }
  return p;
}

/** Stems of each folded word in a raw text word ("agua/luz," → [["agu"], ["luz"]]), memoized per engine. */
class StemMemo {
  private readonly memo = new Map<string, readonly string[]>();
  of(raw: string): readonly string[] {
    let s = this.memo.get(raw);
    if (s === undefined) {
      s = foldedWords(raw).map(stem);
      if (this.memo.size >= 50_000) this.memo.clear();
      this.memo.set(raw, s);
    }
    return s;
  }
}

/** Whether any of `stems` is in `set`. */
function anyIn(stems: Iterable<string>, set: ReadonlySet<string>): boolean {
  for (const s of stems) if (set.has(s)) return true;
  return false;
}

/** What a word answer is made from: one build's postings, vocabulary and title and heading stems. */
export interface WordSources {
  index: TermSearch;
  vocabulary: Vocabulary;
  titles: PageStems;
  heads: PageStems;
  /** Page number (the sidecar's) by postings page number; −1 for a page not returned. */
  docOf: Int32Array;
  /** Pages numbered (the sidecar's size). */
  pages: number;
}

export class WordHitsMaker {
  private readonly stems = new StemMemo();
  /** By page number, a word's answer while it is being checked; all zero between uses. */
  private readonly flags: Uint8Array;
  private readonly scores: Float32Array;

  constructor(private readonly src: WordSources) {
    this.flags = new Uint8Array(src.pages);
    this.scores = new Float32Array(src.pages);
  }

  /** How `term` is looked up. */
  lookup(term: string): Lookup {
    const family = familyStems(term);
    return {
      prefix: commonPrefix(this.src.vocabulary.family(term)),
      family,
      keep: { word: (word: string) => anyIn(this.stems.of(word), family), max: MAX_POSITIONS },
    };
  }

  /** The answer of the word looked up by `lookup`. */
  make({ prefix, family, keep }: Lookup): WordHits {
    const raw = this.src.index.hits(prefix, keep.word);
    const { flags, scores } = this;
    const { docOf } = this.src;
    const found = new Int32Array(raw.count);
    let n = 0;
    for (let k = 0; k < raw.count; k++) {
      const d = docOf[raw.pages[k]!]!;
      if (d < 0) continue;
      flags[d] = PRESENT | (raw.kept![k]! !== 0 ? BODY : 0);
      scores[d] = raw.scores[k]!;
      found[n++] = d;
    }
    this.markField(this.src.titles, family, found.subarray(0, n), TITLE);
    this.markField(this.src.heads, family, found.subarray(0, n), HEADING);
    // Ascending page numbers: a scan of the pages when the word is on many of them, else a sort.
    const sorted = n * 16 < flags.length ? found.subarray(0, n).sort() : undefined;
    const end = sorted === undefined ? flags.length : n;
    const hitScores = new Float32Array(n);
    const hitFlags = new Uint8Array(n);
    let count = 0;
    let top = 0;
    for (let i = 0; i < end; i++) {
      const d = sorted === undefined ? i : sorted[i]!;
      const f = flags[d]!;
      if (f === 0) continue;
      flags[d] = 0;
      if (f === PRESENT) continue;
      // `found` is rewritten in place: the pages kept, ascending, never ahead of the scan.
      found[count] = d;
      const score = (hitScores[count] = scores[d]!);
      hitFlags[count++] = f & ~PRESENT;
      if (score > top) top = score;
    }
    return wordHitsOf(found.slice(0, count), hitScores.slice(0, count), hitFlags.slice(0, count), top || 1);
  }

  /**
   * Adds `bit` to the flags of the pages in `found` whose `field` has a stem of `family`: from the
   * stems' page lists when they are short beside the word's pages, else page by page.
   */
  private markField(field: PageStems, family: ReadonlySet<string>, found: Int32Array, bit: number): void {
    const ids = field.idsOf(family);
    const flags = this.flags;
    let listed = 0;
    for (const id of ids) listed += field.pagesWith(id).length;
    if (listed <= 4 * found.length) {
      for (const id of ids) for (const d of field.pagesWith(id)) if (flags[d] !== 0) flags[d] = flags[d]! | bit;
    } else {
      for (const d of found) if (field.hasAnyId(d, ids)) flags[d] = flags[d]! | bit;
    }
  }
}

/** A word answer from its columns; its topical pages are those flagged TITLE or HEADING. */
export function wordHitsOf(docs: Int32Array, scores: Float32Array, flags: Uint8Array, top: number): WordHits {
  const count = docs.length;
  let topical = 0;
  for (let i = 0; i < count; i++) if ((flags[i]! & (TITLE | HEADING)) !== 0) topical++;
  const pages = new Int32Array(topical);
  for (let i = 0, t = 0; i < count; i++) if ((flags[i]! & (TITLE | HEADING)) !== 0) pages[t++] = docs[i]!;
  return { count, docs, scores, flags, top, topical: pages };
}
