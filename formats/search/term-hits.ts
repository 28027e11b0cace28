/**
 * A term's answer as columns (term-search.ts `hits` and `positions`) from the records' summaries
 * (postings-format.ts): each page is scored from its entries' weight sums, without decoding a
 * location, the same scores Pagefind gives (pagefind-score.ts) in the same order of single-
 * precision sums. A page where two matched entries have a location at one position is scored from
 * its locations as Pagefind does (exact-pages.ts); the entries flagged shared name their shared
 * positions, so only such pages are. A page's matched positions are read
 * through the records' checkpoints: a block of entries and that page's locations, not the word's
 * whole record.
 *
 * Scratch arrays live across calls (a common word is on most pages): no object per page.
 */
import { ExactPages, type MatchedRecord } from './exact-pages.ts';
import { Lru } from './lru.ts';
import { diacriticBonus, idf, lengthBonus, lengthNorm, metaBoost, termFrequency, termScore } from './pagefind-score.ts';
import { MASK_TOKENS, RECORD_BLOCK } from './postings-format.ts';
import type { PostingsIndex } from './postings-index.ts';
import { readForms, readHead, skipShared, skipTokens, type RecordHead } from './postings-record.ts';
import type { Keep, TermHits } from './term-search.ts';
import { termWords } from './term-words.ts';
import { Varints } from './varints.ts';

/** Meta fields a bit mask can hold; a build with more is answered by the reference search. */
export const MASK_FIELDS = 30;
/** Word-score columns past this many are dropped after a search, so one broad term does not hold memory. */
const KEEP_SCORES = 1 << 20;
/** Bound of the parsed heads kept (about four times their bytes on disk). */
const HEAD_CACHE_BYTES = 4 << 20;
/** Bound of the summary blocks kept for positions(). */
const BLOCK_CACHE_BYTES = 4 << 20;
/** Page marks in a search: seen, and seen with a shared position. */
const SEEN = 1;
const SLOW = 2;

export class TermColumns {
  private readonly fields: readonly string[];
  private readonly fieldCount: number;
  private readonly pageCount: number;
  /** Per page number: the page-length part of its BM25 denominator (pagefind-score.ts `lengthNorm`). */
  private readonly norms: Float32Array;
  /** Per page number, in a search: SEEN / SLOW marks, whether a word was kept, its hit number once sorted. */
  private readonly mark: Uint8Array;
  private readonly keptOn: Uint8Array;
  private readonly slotOf: Int32Array;
  private readonly found: Int32Array;
  /** Per page number, for the current word: its weight sum, first form's bonus, meta fields and stamp. */
  private readonly wordWeight: Float64Array;
  private readonly wordBonus: Float64Array;
  private readonly wordMeta: Int32Array;
  private readonly wordStamp: Int32Array;
  private readonly touched: Int32Array;
  /** Per page number and meta field: how many matched words the page has in it. */
  private readonly fieldWords: Int32Array;
  /** Per hit: the sum of its word scores so far. */
  private readonly sum: Float64Array;
  private stamp = 0;
  /** Word scores of the current search in Pagefind's order (words, then pages): page, term frequency, bonus. */
  private scorePage = new Int32Array(0);
  private scoreTf = new Float32Array(0);
  private scoreBonus = new Float32Array(0);
  /** Shared positions of the flagged entries of the current search, chained by page number. */
  private readonly sharedFirst: Int32Array;
  private sharedPosition = new Int32Array(1024);
  private sharedNext = new Int32Array(1024);
  private sharedCount = 0;
  /** Verdicts of the caller's word test by token id (1 kept, 2 not), valid where `verdictCall` is the call's. */
  private readonly verdict: Uint8Array;
  private readonly verdictCall: Uint32Array;
  private call = 0;
  private readonly v = new Varints(Buffer.alloc(0));
  private readonly exact: ExactPages;
  /** One page's positions and their tokens, and their order (positions()). */
  private at: number[] = [];
  private token: number[] = [];
  private order: number[] = [];
  /** Parsed heads of the words asked for lately: positions() is asked for several pages of a term. */
  private readonly heads = new Lru<number, RecordHead>(HEAD_CACHE_BYTES);
  /** Summary blocks positions() read lately, by where they start (`block`). */
  private readonly blocks = new Lru<number, Buffer>(BLOCK_CACHE_BYTES);

  constructor(private readonly index: PostingsIndex, private readonly avgLength: number) {
    const n = index.header.pages;
    this.fields = index.header.fields;
    this.fieldCount = Math.min(this.fields.length, MASK_FIELDS);
    this.pageCount = n;
    this.norms = Float32Array.from(index.wordCounts, (count) => lengthNorm(count, avgLength));
    this.mark = new Uint8Array(n);
    this.keptOn = new Uint8Array(n);
    this.slotOf = new Int32Array(n);
    this.found = new Int32Array(n);
    this.wordWeight = new Float64Array(n);
    this.wordBonus = new Float64Array(n);
    this.wordMeta = new Int32Array(n);
    this.wordStamp = new Int32Array(n);
    this.touched = new Int32Array(n);
    this.fieldWords = new Int32Array(n * this.fieldCount);
    this.sum = new Float64Array(n);
    this.sharedFirst = new Int32Array(n).fill(-1);
    this.verdict = new Uint8Array(index.header.tokens + 1);
    this.verdictCall = new Uint32Array(index.header.tokens + 1);
    this.exact = new ExactPages(index, this.norms, avgLength, this.fieldCount);
  }

  /** Whether the text word of token `id` passes `word`, asked once per token and call. */
  private passes(id: number, word: (textWord: string) => boolean): boolean {
    if (this.verdictCall[id] !== this.call) {
      this.verdictCall[id] = this.call;
      const text = this.index.token(id);
      this.verdict[id] = text !== undefined && word(text) ? 1 : 2;
    }
    return this.verdict[id] === 1;
  }

  private nextCall(): void {
    if (++this.call === 0xffffffff) { this.verdictCall.fill(0); this.call = 1; }
  }

  private growScores(n: number): void {
    if (n <= this.scorePage.length) return;
    const size = Math.max(n, 2 * this.scorePage.length, 1024);
    const page = new Int32Array(size);
    const tf = new Float32Array(size);
    const bonus = new Float32Array(size);
    page.set(this.scorePage);
    tf.set(this.scoreTf);
    bonus.set(this.scoreBonus);
    this.scorePage = page;
    this.scoreTf = tf;
    this.scoreBonus = bonus;
  }

  private addShared(page: number, position: number): void {
    const n = this.sharedCount++;
    if (n === this.sharedPosition.length) {
      const position = new Int32Array(2 * n);
      const next = new Int32Array(2 * n);
      position.set(this.sharedPosition);
      next.set(this.sharedNext);
      this.sharedPosition = position;
      this.sharedNext = next;
    }
    this.sharedPosition[n] = position;
    this.sharedNext[n] = this.sharedFirst[page]!;
    this.sharedFirst[page] = n;
  }

  /**
   * Keeps SLOW only the pages where two matched locations are at one position: elsewhere the
   * positions flagged shared are shared with words the term does not match, and the sums are exact.
   * Returns how many remain.
   */
  private keepColliding(found: Int32Array, count: number): number {
    const { mark, sharedFirst, sharedPosition, sharedNext } = this;
    const positions = this.at;
    let slow = 0;
    for (let k = 0; k < count; k++) {
      const page = found[k]!;
      if ((mark[page]! & SLOW) === 0) continue;
      positions.length = 0;
      for (let n = sharedFirst[page]!; n !== -1; n = sharedNext[n]!) positions.push(sharedPosition[n]!);
      sharedFirst[page] = -1;
      positions.sort((a, b) => a - b);
      let collides = false;
      for (let i = 1; i < positions.length && !collides; i++) collides = positions[i] === positions[i - 1];
      if (collides) slow++; else mark[page] = SEEN;
    }
    this.sharedCount = 0;
    return slow;
  }

  hits(term: string, word?: (textWord: string) => boolean): TermHits {
    const t = termWords(this.index, term);
    if (t === undefined || t.words.length === 0) return { count: 0, pages: new Int32Array(0), scores: new Float32Array(0), kept: word ? new Uint8Array(0) : undefined };
    this.nextCall();
    const { index, mark, found, keptOn, norms, fieldCount, fieldWords, wordWeight, wordBonus, wordMeta, wordStamp, touched, sum } = this;
    const records: MatchedRecord[] = [];
    let scores = 0;
    let count = 0;
    let lists = 0;
    let slow = 0;
    let pages = new Int32Array(0);
    let out = new Float32Array(0);
    let kept: Uint8Array | undefined;
    try {
      // Each matched word's entries, in Pagefind's order: its weight sum per page, then its term
      // frequency there (the word's score but for the term's idf, known once every page is).
      for (const w of t.words) {
        const at = index.part(w, 0);
        const v = this.v;
        v.bytes = index.read(at, index.part(w, 2));
        v.pos = 0;
        const { forms, counts, tokens } = readForms(v);
        const bonus = [diacriticBonus(t.typed, index.words[w]!), ...forms.map((form) => diacriticBonus(t.typed, form))];
        const lengthFactor = lengthBonus(index.words[w]!, t.stem);
        const masked = tokens.length <= MASK_TOKENS;
        records.push({ word: w, bytes: v.bytes, summaryAt: index.part(w, 1) - at, counts, masked, bonus, lengthFactor });
        // Which of the word's tokens pass the test: a mask of table indices, or a verdict per index.
        let passing = 0;
        let passes: Uint8Array | undefined;
        if (word !== undefined) {
          if (masked) tokens.forEach((token, i) => { if (this.passes(token, word)) passing |= 1 << i; });
          else passes = Uint8Array.from(tokens, (token) => (this.passes(token, word) ? 1 : 0));
        }
        v.pos = index.part(w, 1) - at;
        if (++this.stamp === 0x7fffffff) { wordStamp.fill(0); this.stamp = 1; }
        const stamp = this.stamp;
        let n = 0;
        let loc = 0;
        for (let form = 0; form < counts.length; form++) {
          const entries = counts[form]!;
          if (entries > 0) lists++;
          const formBonus = bonus[form]!;
          let page = 0;
          for (let i = 0; i < entries; i++) {
            page += v.uint();
            const sums = v.uint();
            const head = v.uint();
            if (masked) {
              if (((head >>> 1) & passing) !== 0) keptOn[page] = 1;
            } else {
              for (let k = head >>> 1; k > 0; k--) {
                const i = v.uint();
                if (passes !== undefined && passes[i] === 1) keptOn[page] = 1;
              }
            }
            let meta = 0;
            if (head & 1) {
              for (let k = v.uint(); k > 0; k--) {
                const f = v.uint();
                if (f < fieldCount) meta |= 1 << f;
              }
            }
            loc += v.uint();
            const m = mark[page]!;
            if (m === 0) found[count++] = page;
            if (sums % 2 === 1) {
              if ((m & SLOW) === 0) slow++;
              mark[page] = SEEN | SLOW;
              let position = 0;
              for (let k = v.uint(); k > 0; k--) this.addShared(page, position += v.uint());
            } else if (m === 0) mark[page] = SEEN;
            if (wordStamp[page] !== stamp) {
              wordStamp[page] = stamp;
              wordWeight[page] = 0;
              wordBonus[page] = formBonus;
              wordMeta[page] = 0;
              touched[n++] = page;
            }
            wordWeight[page] = wordWeight[page]! + (sums - (sums % 2)) / 2;
            wordMeta[page] = wordMeta[page]! | meta;
          }
        }
        v.endsAt(index.part(w, 2) - at, 'a summary');
        if (loc !== index.part(w, 3) - index.part(w, 2)) throw new Error('postings: a summary disagrees with its locations');
        this.growScores(scores + n);
        const { scorePage, scoreTf, scoreBonus } = this;
        for (let k = 0; k < n; k++) {
          const page = touched[k]!;
          for (let m = wordMeta[page]!, f = 0; m !== 0; m >>>= 1, f++) if (m & 1) fieldWords[page * fieldCount + f] = fieldWords[page * fieldCount + f]! + 1;
          if (wordWeight[page] === 0) continue;
          scorePage[scores] = page;
          scoreTf[scores] = termFrequency(wordWeight[page]!, lengthFactor, norms[page]!, this.avgLength);
          scoreBonus[scores++] = wordBonus[page]!;
        }
      }

      if (slow > 0) slow = this.keepColliding(found, count);

      // The pages in ascending order: one list is; many pages are found faster by a scan than a sort.
      if (lists <= 1) pages = found.slice(0, count);
      else if (count * 16 > this.pageCount) {
        pages = new Int32Array(count);
        for (let p = 0, k = 0; k < count; p++) if (mark[p] !== 0) pages[k++] = p;
      } else pages = found.slice(0, count).sort();
      const { slotOf, scorePage, scoreTf, scoreBonus } = this;
      for (let k = 0; k < count; k++) slotOf[pages[k]!] = k;

      const termIdf = idf(this.pageCount, count);
      out = new Float32Array(count);
      kept = word === undefined ? undefined : new Uint8Array(count);
      // A page's word scores are summed in the words' order, as Pagefind sums them.
      for (let k = 0; k < scores; k++) {
        const s = slotOf[scorePage[k]!]!;
        sum[s] = Math.fround(sum[s]! + termScore(scoreTf[k]!, scoreBonus[k]!, termIdf));
      }
      if (slow > 0) this.exact.start(records, pages, mark, slow, termIdf);
      for (let s = 0; s < count; s++) {
        const page = pages[s]!;
        if (kept !== undefined) kept[s] = keptOn[page]!;
        if (mark[page] === (SEEN | SLOW)) { out[s] = this.exact.score(page); continue; }
        let boost = 0;
        for (let f = 0; f < fieldCount; f++) {
          const n = fieldWords[page * fieldCount + f]!;
          if (n !== 0) boost = Math.fround(boost + metaBoost(this.fields[f]!, n, termIdf));
        }
        out[s] = Math.fround(sum[s]! + boost);
      }
    } finally {
      // Every page seen, even when a record turned out corrupt halfway.
      for (let k = 0; k < count; k++) {
        const page = found[k]!;
        mark[page] = keptOn[page] = 0;
        this.sharedFirst[page] = -1;
        sum[k] = 0;
        for (let f = 0; f < fieldCount; f++) fieldWords[page * fieldCount + f] = 0;
      }
      this.sharedCount = 0;
      this.exact.end();
      if (this.scorePage.length > KEEP_SCORES) { this.scorePage = new Int32Array(0); this.scoreTf = this.scoreBonus = new Float32Array(0); }
    }
    return { count, pages, scores: out, kept };
  }

  /**
   * Summary bytes `from` up to `to` of the records: a block of entries, kept for the next calls. A
   * short prefix finds dozens of rare words, each one block, read again for every page shown.
   */
  private block(from: number, to: number): Buffer {
    let bytes = this.blocks.get(from);
    if (bytes === undefined) {
      // Its own memory: a small read is a slice of a shared pool, which a kept slice would hold.
      const read = this.index.read(from, to);
      bytes = Buffer.allocUnsafeSlow(read.length);
      read.copy(bytes);
      this.blocks.set(from, bytes, 64 + bytes.length);
    }
    return bytes;
  }

  positions(term: string, page: number, keep: Keep): number[] {
    const t = termWords(this.index, term);
    if (t === undefined || page < 0 || page >= this.pageCount) return [];
    this.nextCall();
    const { index, at, token, order } = this;
    at.length = token.length = order.length = 0;
    for (const w of t.words) {
      const summaryAt = index.part(w, 1);
      const locationsAt = index.part(w, 2);
      let head = this.heads.get(w);
      if (head === undefined) {
        const bytes = index.read(index.part(w, 0), summaryAt);
        head = readHead(new Varints(bytes));
        this.heads.set(w, head, 64 + 4 * bytes.length);
      }
      const masked = head.tokens.length <= MASK_TOKENS;
      const checkpoints = head.checkpointPage.length;
      for (let list = 0; list < head.counts.length; list++) {
        // The last checkpoint of the list at or before the page: its block holds the page's entry, if any.
        let lo = head.firstCheckpoint[list]!;
        let hi = head.firstCheckpoint[list + 1]!;
        const first = lo;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (head.checkpointPage[mid]! <= page) lo = mid + 1; else hi = mid;
        }
        const c = lo - 1;
        if (c < first) continue;
        const from = head.checkpointSummary[c]!;
        const to = c + 1 < checkpoints ? head.checkpointSummary[c + 1]! : locationsAt - summaryAt;
        const v = new Varints(this.block(summaryAt + from, summaryAt + to));
        const block = Math.min(RECORD_BLOCK, head.counts[list]! - (c - first) * RECORD_BLOCK);
        let p = head.checkpointPage[c]!;
        let loc = head.checkpointLocations[c]!;
        for (let i = 0; i < block && p <= page; i++) {
          const delta = v.uint();
          if (i > 0) p += delta;
          if (p > page) break;
          const sums = v.uint();
          const h = v.uint();
          skipTokens(v, h, masked);
          if (h & 1) for (let k = v.uint(); k > 0; k--) v.uint();
          const bytes = v.uint();
          if (sums % 2 === 1) skipShared(v);
          if (p === page) {
            const l = new Varints(index.read(locationsAt + loc, locationsAt + loc + bytes));
            let position = 0;
            while (l.pos < bytes) {
              l.uint();
              order.push(at.length);
              at.push(position += l.int());
              const k = l.uint();
              token.push(k === 0 ? 0 : head.tokens[k - 1]!);
            }
            l.endsAt(bytes, 'an entry\'s locations');
          }
          loc += bytes;
        }
      }
    }
    order.sort((a, b) => at[a]! - at[b]!);
    const kept: number[] = [];
    let last = -1;
    for (const k of order) {
      if (kept.length >= keep.max) break;
      if (at[k] === last) continue;
      last = at[k]!;
      if (token[k] !== 0 && this.passes(token[k]!, keep.word)) kept.push(last);
    }
    return kept;
  }
}
