/**
 * The pages one query word matches (a "word answer"): those whose text holds a word of its stem
 * family (vocabulary.ts `familyStems`), or whose title or headings do. Words of one family
 * ("fontanero", "fontaneros") have one answer, known by the family (`familyKey`); the engine
 * caches answers.
 *
 * A page's body score is BM25's term-frequency part over the family's occurrences, with the page's
 * length against the average page (the term's rarity is the engine's business: weights.ts), in
 * plain float64: more mentions count, with diminishing returns, and a long page's mention counts a
 * little less than a short one's.
 */
import { stemNumbers, type PageStems } from './page-stems.ts';
import type { PostingsFile } from './postings.ts';
import { HEADING, TITLE } from './match-flags.ts';
import { familyStems } from './vocabulary.ts';

/** Flag of a word hit whose page text holds a word of the family (besides TITLE, HEADING). */
export const BODY = 4;
/** BM25's saturation and length normalisation, at their customary values. */
const K1 = 1.2;
const B = 0.75;

/** The pages that really match one query word: columns by page, ascending, hit k on page `docs[k]`. */
export interface WordHits {
  count: number;
  docs: Int32Array;
  /** Body score (0 for a page matched in its title or headings only). */
  scores: Float64Array;
  /** TITLE, HEADING and BODY bits. */
  flags: Uint8Array;
  /** The highest score (1 when none), which scales each score to 0–1. */
  top: number;
  /** The pages with the word in the title, headings or description, ascending. */
  topical: Int32Array;
}

/** Cache key of a query word: its stem family, which decides its matches. */
export function familyKey(term: string): string {
  return [...familyStems(term)].sort().join(' ');
}

/** What a word answer is made from: one build's postings, page lengths and title and heading stems. */
export interface WordSources {
  postings: Pick<PostingsFile, 'read'>;
  /** Stem → number, as the postings and the page stems number them. */
  stemIds: ReadonlyMap<string, number>;
  titles: PageStems;
  heads: PageStems;
  /** Body tokens of each page, and of the average page. */
  tokens: (page: number) => number;
  averageTokens: number;
  /** Pages numbered. */
  pages: number;
}

export class WordHitsMaker {
  /** By page number, a word's answer while it is being made; all zero between uses. */
  private readonly flags: Uint8Array;
  private readonly counts: Uint32Array;

  constructor(private readonly src: WordSources) {
    this.flags = new Uint8Array(src.pages);
    this.counts = new Uint32Array(src.pages);
  }

  /** The answer of query word `term`. */
  make(term: string): WordHits {
    const { flags, counts, src } = this;
    const ids = stemNumbers(src.stemIds, familyStems(term));
    const found: number[] = [];
    for (const id of ids) {
      const { pages, counts: n } = src.postings.read(id);
      for (let k = 0; k < pages.length; k++) {
        const d = pages[k]!;
        if (flags[d] === 0) found.push(d);
        flags[d] = flags[d]! | BODY;
        counts[d]! += n[k]!;
      }
      mark(src.titles.pagesWith(id), TITLE, flags, found);
      mark(src.heads.pagesWith(id), HEADING, flags, found);
    }
    const docs = Int32Array.from(found).sort();
    const scores = new Float64Array(docs.length);
    const hitFlags = new Uint8Array(docs.length);
    let top = 0;
    const avg = src.averageTokens || 1;
    for (let i = 0; i < docs.length; i++) {
      const d = docs[i]!;
      const tf = counts[d]!;
      hitFlags[i] = flags[d]!;
      flags[d] = 0;
      counts[d] = 0;
      if (tf === 0) continue;
      const score = (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * src.tokens(d)) / avg));
      scores[i] = score;
      if (score > top) top = score;
    }
    return wordHitsOf(docs, scores, hitFlags, top || 1);
  }
}

/** Adds `bit` to the flags of `pages`, listing in `found` those met for the first time. */
function mark(pages: Int32Array, bit: number, flags: Uint8Array, found: number[]): void {
  for (const d of pages) {
    if (flags[d] === 0) found.push(d);
    flags[d] = flags[d]! | bit;
  }
}

/** A word answer from its columns; its topical pages are those flagged TITLE or HEADING. */
export function wordHitsOf(docs: Int32Array, scores: Float64Array, flags: Uint8Array, top: number): WordHits {
  const count = docs.length;
  let topical = 0;
  for (let i = 0; i < count; i++) if ((flags[i]! & (TITLE | HEADING)) !== 0) topical++;
  const pages = new Int32Array(topical);
  for (let i = 0, t = 0; i < count; i++) if ((flags[i]! & (TITLE | HEADING)) !== 0) pages[t++] = docs[i]!;
  return { count, docs, scores, flags, top, topical: pages };
}
