/**
 * Pagefind 1.5.2's ranking of one search term, in single precision as its WebAssembly computes it
 * (pagefind_web's search.rs `search_term`, metadata.rs, lib.rs `RankingWeights::default`):
 *
 *   length bonus(word) = exp(exp(−d²/8)·s) / exp(s), d = |bytes(word) − bytes(stem)| + 1, s = 1
 *   idf                = ln((N − n + 0.5) / (n + 0.5) + 1), n = pages any word of the term is on
 *   per word on a page, w = Σ weights of its locations / 24 · length bonus:
 *     tf    = (k1 + 1)·w / (k1·(1 − b + b·len/avg len) + w), k1 = 1.4, b = 0.75
 *     score = idf · tf · (1.8 when the word's form extends the term as typed, else 1)
 *   page score = Σ word scores (by word, in byte order)
 *              + Σ per meta field with the term: weight (title 5, others 1) · m·idf · m², m = its words
 *
 * A location matched by two words of the term counts once, for the one Pagefind's sort leaves first.
 */
import { expf, logf } from './f32-math.ts';

const f = Math.fround;
const TERM_SIMILARITY = f(1.0);
const PAGE_LENGTH = f(0.75);
const TERM_SATURATION = f(1.4);
const TERM_FREQUENCY = f(1.0);
const DIACRITIC_SIMILARITY = f(0.8);
/** Pagefind's default meta field weights; a field not named weighs 1. */
const META_WEIGHTS: Readonly<Record<string, number>> = { title: f(5.0) };
/** Location weights are stored ×24 (weight 1 = 24). */
const WEIGHT_SCALE = f(24);

/** Pagefind's `word_length_bonus`, by length difference (1–255). */
const LENGTH_BONUS: readonly number[] = Array.from({ length: 256 }, (_, d) => {
  const base = expf(f(f(-0.5 * f(d * d)) / f(4)));
  return f(expf(f(base * TERM_SIMILARITY)) / expf(TERM_SIMILARITY));
});

export function lengthBonus(word: string, stem: string): number {
  return LENGTH_BONUS[Math.min(255, Math.abs(Buffer.byteLength(word) - Buffer.byteLength(stem)) + 1)]!;
}

/** Pagefind's `diacritic_bonus` of a form for the term as typed (before diacritics were folded). */
export function diacriticBonus(typed: string, form: string): number {
  const match = form === typed || form.startsWith(typed) || typed.startsWith(form);
  return DIACRITIC_SIMILARITY > 0 && match ? f(1 + DIACRITIC_SIMILARITY) : 1;
}

/** Pagefind's average page length: word counts summed in single precision, in page order. */
export function averagePageLength(wordCounts: ArrayLike<number>): number {
  if (wordCounts.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < wordCounts.length; i++) sum = f(sum + f(wordCounts[i]!));
  return f(sum / f(wordCounts.length));
}

export function idf(totalPages: number, pagesWithTerm: number): number {
  return logf(f(f(f(f(f(totalPages) - f(pagesWithTerm)) + 0.5) / f(f(pagesWithTerm) + 0.5)) + 1));
}

/** Pagefind's `calculate_bm25_word_score` times the diacritic bonus. */
export function wordScore(weightSum: number, bonus: { length: number; diacritic: number }, pageLength: number, avgLength: number, termIdf: number): number {
  return wordScoreOf(weightSum, bonus.length, bonus.diacritic, pageLength, avgLength, termIdf);
}

/** `wordScore` with the bonuses as numbers. */
export function wordScoreOf(weightSum: number, lengthFactor: number, diacritic: number, pageLength: number, avgLength: number, termIdf: number): number {
  return wordScoreNormed(weightSum, lengthFactor, diacritic, lengthNorm(pageLength, avgLength), avgLength, termIdf);
}

/** The page's part of the BM25 denominator: k1·(1 − b + b·len/avg len), a single-precision value. */
export function lengthNorm(pageLength: number, avgLength: number): number {
  return f(TERM_SATURATION * f(f(1 - PAGE_LENGTH) + f(PAGE_LENGTH * f(f(pageLength) / avgLength))));
}

/** `wordScoreOf` given the page's `lengthNorm`, for loops over many pages (the norms computed once per page). */
export function wordScoreNormed(weightSum: number, lengthFactor: number, diacritic: number, norm: number, avgLength: number, termIdf: number): number {
  return termScore(termFrequency(weightSum, lengthFactor, norm, avgLength), diacritic, termIdf);
}

/** The part of a word's score that does not depend on the term's idf (its term frequency). */
export function termFrequency(weightSum: number, lengthFactor: number, norm: number, avgLength: number): number {
  const w = f(f(f(weightSum) / WEIGHT_SCALE) * lengthFactor);
  const k1 = TERM_SATURATION;
  const bm25 = f(f(f(k1 + 1) * w) / f(norm + w));
  const rawTf = Math.min(f(w / f(avgLength / 5)), f(k1 + 1));
  return f(f(f(1 - TERM_FREQUENCY) * rawTf) + f(TERM_FREQUENCY * bm25));
}

/** A word's score from its term frequency, once the term's idf is known. */
export function termScore(tf: number, diacritic: number, termIdf: number): number {
  return f(f(termIdf * tf) * diacritic);
}

/** The meta boost of one field whose postings hold `words` of the term (one term: coverage m). */
export function metaBoost(field: string, words: number, termIdf: number): number {
  let matched = 0;
  for (let i = 0; i < words; i++) matched = f(matched + termIdf);
  if (!(termIdf > 0)) return 0;
  const coverage = f(matched / termIdf);
  return f(f(f(f(META_WEIGHTS[field] ?? 1) * matched) * coverage) * coverage);
}
