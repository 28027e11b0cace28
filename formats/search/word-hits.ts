/**
 * The pages one query word matches (a "word answer"): those whose text holds a word of its stem
 * family (vocabulary.ts `familyStems`), or whose title or headings do. Words of one family
 * ("fontanero", "fontaneros") have one answer, known by the family (`familyKey`); the engine
 * caches answers.
 *
 * A page's body score is BM25's term-frequency part over the family's occurrences, with the page's
 * length against the average page (the term's rarity is the engine's business: weights.ts), in
 * plain float64: more mentions count, with diminishing returns, and a long page's mention counts a
 * little less than a short one's. An answer keeps each page's mention count and computes the score
 * when asked (`bodyScore`) from a length factor per page that all answers share: a common word
 * is on most pages of a large site, and a count weighs a quarter of a float64.
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
  /** Mentions in the text (0 for a page matched in its title or headings only): see `bodyScore`. */
  mentions: Uint16Array | Uint32Array;
  /** By page number, BM25's length part (`lengthFactors`), shared by every answer of a build. */
  lengths: Float64Array;
  /** TITLE, HEADING and BODY bits. */
  flags: Uint8Array;
  /** The highest body score (1 when none), which scales each score to 0–1. */
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

/** BM25's length part of each page: `K1 · (1 − B + B · tokens / average tokens)`. */
export function lengthFactors(src: Pick<WordSources, 'tokens' | 'averageTokens' | 'pages'>): Float64Array {
  const avg = src.averageTokens || 1;
  const out = new Float64Array(src.pages);
  for (let d = 0; d < src.pages; d++) out[d] = K1 * (1 - B + (B * src.tokens(d)) / avg);
  return out;
}

/** BM25's term-frequency part of `tf` mentions on a page whose length factor is `length`. */
const tfScore = (tf: number, length: number): number => (tf === 0 ? 0 : (tf * (K1 + 1)) / (tf + length));

/** The body score of hit `k`. */
export function bodyScore(hits: WordHits, k: number): number {
  return tfScore(hits.mentions[k]!, hits.lengths[hits.docs[k]!]!);
}

export class WordHitsMaker {
  /** By page number, a word's answer while it is being made; all zero between uses. */
  private readonly flags: Uint8Array;
  private readonly counts: Uint32Array;
  private readonly lengths: Float64Array;
  /** The pages met while an answer is made, in the order met. */
  private readonly found: Int32Array;

  constructor(private readonly src: WordSources) {
    this.flags = new Uint8Array(src.pages);
    this.counts = new Uint32Array(src.pages);
    this.lengths = lengthFactors(src);
    this.found = new Int32Array(src.pages);
  }

  /** The answer of query word `term`. */
  make(term: string): WordHits {
    const { flags, counts, src } = this;
    const ids = stemNumbers(src.stemIds, familyStems(term));
    const met = new Met(this.found, flags);
    let most = 0;
    for (const id of ids) {
      const { pages, counts: n } = src.postings.read(id);
      for (let k = 0; k < pages.length; k++) {
        const d = pages[k]!;
        met.add(d, BODY);
        const tf = (counts[d] = counts[d]! + n[k]!);
        if (tf > most) most = tf;
      }
      for (const d of src.titles.pagesWith(id)) met.add(d, TITLE);
      for (const d of src.heads.pagesWith(id)) met.add(d, HEADING);
    }
    const docs = met.ascending();
    const mentions = most <= 0xffff ? new Uint16Array(docs.length) : new Uint32Array(docs.length);
    const hitFlags = new Uint8Array(docs.length);
    for (let i = 0; i < docs.length; i++) {
      const d = docs[i]!;
      mentions[i] = counts[d]!;
      hitFlags[i] = flags[d]!;
      flags[d] = 0;
      counts[d] = 0;
    }
    return wordHitsOf(docs, mentions, hitFlags, this.lengths);
  }
}

/** The pages met while making an answer, each once, flagged where it matched. */
class Met {
  private n = 0;
  /** Whether pages were met in ascending order (one stem's postings, its title pages among them). */
  private inOrder = true;

  constructor(private readonly found: Int32Array, private readonly flags: Uint8Array) {}

  add(d: number, bit: number): void {
    const f = this.flags[d]!;
    if (f === 0) {
      if (this.n > 0 && d < this.found[this.n - 1]!) this.inOrder = false;
      this.found[this.n++] = d;
    }
    this.flags[d] = f | bit;
  }

  /**
   * The pages met, ascending. A common word is on most pages of a large site: its pages are then
   * read off the flags in page order, which costs far less than sorting them.
   */
  ascending(): Int32Array {
    const n = this.n;
    if (this.inOrder) return this.found.slice(0, n);
    if (n * 16 < this.flags.length) return this.found.slice(0, n).sort();
    const docs = new Int32Array(n);
    for (let d = 0, k = 0; k < n; d++) if (this.flags[d] !== 0) docs[k++] = d;
    return docs;
  }
}

/** A word answer from its columns; its topical pages are those flagged TITLE or HEADING. */
export function wordHitsOf(docs: Int32Array, mentions: Uint16Array | Uint32Array, flags: Uint8Array, lengths: Float64Array): WordHits {
  const count = docs.length;
  let topical = 0;
  let top = 0;
  for (let i = 0; i < count; i++) {
    if ((flags[i]! & (TITLE | HEADING)) !== 0) topical++;
    top = Math.max(top, tfScore(mentions[i]!, lengths[docs[i]!]!));
  }
  const pages = new Int32Array(topical);
  for (let i = 0, t = 0; i < count; i++) if ((flags[i]! & (TITLE | HEADING)) !== 0) pages[t++] = docs[i]!;
  return { count, docs, mentions, lengths, flags, top: top || 1, topical: pages };
}
