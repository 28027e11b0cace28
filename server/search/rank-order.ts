/**
 * The order of a ranking: tier (high first), score in thousandths (high first), then URL order,
 * as one numeric sort of keys packed into doubles; of the first pages only when there are many.
 */
import type { RankDocs } from './rank.ts';

/** Keys of up to 2^20 pages and scores below 2^30 thousandths pack exactly into one double. */
const URL_BITS = 2 ** 20;
const SCORE_LIMIT = 2 ** 30;
/** Tiers run 0 to 7: with the score and the URL order below, eight of them still fit a double's 53 bits. */
const TIER_LIMIT = 7;

/**
 * The first `limit` pages sorted by tier (high first), score in thousandths (high first), then URL
 * order. Beyond a few times `limit` the first ones are picked with a bounded heap before sorting:
 * a common word makes every page of a large site a candidate, and sorting them all costs more
 * than the rest of a search.
 */
export function order(docs: RankDocs, pages: Int32Array, tier: Uint8Array, score: Int32Array, limit: number): Int32Array {
  const n = pages.length;
  let packable = docs.byUrl.length <= URL_BITS;
  for (let i = 0; i < n && packable; i++) packable = score[i]! < SCORE_LIMIT;
  if (!packable) {
    const idx = Array.from({ length: n }, (_, i) => i);
    idx.sort((a, b) => tier[b]! - tier[a]! || score[b]! - score[a]! || docs.urlRank[pages[a]!]! - docs.urlRank[pages[b]!]!);
    return Int32Array.from(idx.slice(0, limit), (k) => pages[k]!);
  }
  const key = (i: number) => ((TIER_LIMIT - tier[i]!) * SCORE_LIMIT + (SCORE_LIMIT - 1 - score[i]!)) * URL_BITS + docs.urlRank[pages[i]!]!;
  const keys = n > SELECT_FACTOR * limit ? smallest(n, limit, key) : Float64Array.from({ length: n }, (_, i) => key(i));
  keys.sort();
  const out = new Int32Array(Math.min(limit, keys.length));
  for (let i = 0; i < out.length; i++) out[i] = docs.byUrl[keys[i]! % URL_BITS]!;
  return out;
}

/** Candidate sets past this many times the pages asked for are cut with a heap, not sorted whole. */
const SELECT_FACTOR = 4;

/** The `k` smallest of `key(0..n-1)` (distinct numbers), unordered: a max-heap of the best so far. */
function smallest(n: number, k: number, key: (i: number) => number): Float64Array {
  const heap = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    // Sift up.
    let c = i;
    const v = key(i);
    while (c > 0) {
      const p = (c - 1) >> 1;
      if (heap[p]! >= v) break;
      heap[c] = heap[p]!;
      c = p;
    }
    heap[c] = v;
  }
  for (let i = k; i < n; i++) {
    const v = key(i);
    if (v >= heap[0]!) continue;
    // Replace the largest and sift down.
    let c = 0;
    for (;;) {
      let child = 2 * c + 1;
      if (child >= k) break;
      if (child + 1 < k && heap[child + 1]! > heap[child]!) child++;
      if (heap[child]! <= v) break;
      heap[c] = heap[child]!;
      c = child;
    }
    heap[c] = v;
  }
  return heap;
}
