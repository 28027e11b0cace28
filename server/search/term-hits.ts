/**
 * A term's answer as columns (term-search.ts `hits` and `positions`) from the records' summaries
 * (postings-format.ts): each page is scored from its entries' weight sums, without decoding a
 * location, the same scores Pagefind gives (pagefind-score.ts) in the same order of single-
 * precision sums. A page where a matched entry shares a position with another location is scored
 * from its locations as Pagefind does (its sort decides which word the position counts for).
 * A page's matched positions are read through the records' checkpoints: a block of entries and
 * that page's locations, not the word's whole record.
 *
 * Scratch arrays live across calls (a common word is on most pages): no object per page.
 */
import { diacriticBonus, idf, lengthBonus, metaBoost, wordScoreOf } from './pagefind-score.ts';
import { RECORD_BLOCK } from './postings-format.ts';
import type { PostingsIndex } from './postings-index.ts';
import { readForms, readHead } from './postings-record.ts';
import { sortUnstable } from './rust-sort.ts';
import type { Keep, TermHits } from './term-search.ts';
import { termWords } from './term-words.ts';
import { Varints } from './varints.ts';

/** Meta fields a bit mask can hold; a build with more is answered by the reference search. */
export const MASK_FIELDS = 30;
/** Entry columns past this many are dropped after a search, so one broad term does not hold memory. */
const KEEP_ENTRIES = 1 << 20;
const SHARED = 1;
const KEPT = 2;
/** Page marks in a search: seen, and seen with a shared position. */
const SEEN = 1;
const SLOW = 2;

export class TermColumns {
  private readonly fields: readonly string[];
  private readonly pageCount: number;
  /** Per page number: SEEN / SLOW marks, and its hit number once the pages are sorted. */
  private readonly mark: Uint8Array;
  private readonly slotOf: Int32Array;
  private readonly found: Int32Array;
  /** Per hit: the score so far, the current word's weight sum, first bonus, meta fields and stamp. */
  private readonly sum: Float64Array;
  private readonly wordWeight: Float64Array;
  private readonly wordBonus: Float64Array;
  private readonly wordMeta: Int32Array;
  private readonly wordStamp: Int32Array;
  private readonly touched: Int32Array;
  private readonly fieldCount: Int32Array;
  /** Per hit scored from its locations: its first and last entry (−1: none). */
  private readonly chainHead: Int32Array;
  private readonly chainTail: Int32Array;
  private stamp = 0;
  /** Per entry of the current search, in Pagefind's order (words, forms, pages). */
  private ePage = new Int32Array(0);
  private eWeight = new Float64Array(0);
  private eForm = new Int32Array(0);
  private eBits = new Uint8Array(0);
  private eMeta = new Int32Array(0);
  private eLoc = new Float64Array(0);
  private eLocLength = new Int32Array(0);
  private eNext = new Int32Array(0);
  /** Verdicts of the caller's word test by token id (1 kept, 2 not), valid where `verdictCall` is the call's. */
  private readonly verdict: Uint8Array;
  private readonly verdictCall: Uint32Array;
  private call = 0;
  /** One page's locations: position, weight, word (record), token; and their order. */
  private at: number[] = [];
  private weight: number[] = [];
  private of: number[] = [];
  private token: number[] = [];
  private order: number[] = [];
  private readonly byPosition = (a: number, b: number): boolean => this.at[a]! < this.at[b]!;
  private readonly v = new Varints(new Uint8Array(0));

  constructor(private readonly index: PostingsIndex, private readonly avgLength: number) {
    const n = index.header.pages;
    this.fields = index.header.fields;
    this.pageCount = n;
    this.mark = new Uint8Array(n);
    this.slotOf = new Int32Array(n);
    this.found = new Int32Array(n);
    this.sum = new Float64Array(n);
    this.wordWeight = new Float64Array(n);
    this.wordBonus = new Float64Array(n);
    this.wordMeta = new Int32Array(n);
    this.wordStamp = new Int32Array(n);
    this.touched = new Int32Array(n);
    this.fieldCount = new Int32Array(n * Math.min(this.fields.length, MASK_FIELDS));
    this.chainHead = new Int32Array(n).fill(-1);
    this.chainTail = new Int32Array(n);
    this.verdict = new Uint8Array(index.header.tokens + 1);
    this.verdictCall = new Uint32Array(index.header.tokens + 1);
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

  private grow(entries: number): void {
    if (entries <= this.ePage.length) return;
    const n = Math.max(entries, 2 * this.ePage.length, 1024);
    const copy = <T extends Int32Array | Float64Array | Uint8Array>(a: T, b: T): T => { b.set(a); return b; };
    this.ePage = copy(this.ePage, new Int32Array(n));
    this.eWeight = copy(this.eWeight, new Float64Array(n));
    this.eForm = copy(this.eForm, new Int32Array(n));
    this.eBits = copy(this.eBits, new Uint8Array(n));
    this.eMeta = copy(this.eMeta, new Int32Array(n));
    this.eLoc = copy(this.eLoc, new Float64Array(n));
    this.eLocLength = copy(this.eLocLength, new Int32Array(n));
    this.eNext = new Int32Array(n);
  }

  hits(term: string, word?: (textWord: string) => boolean): TermHits {
    const t = termWords(this.index, term);
    if (t === undefined || t.words.length === 0) return { count: 0, pages: new Int32Array(0), scores: new Float32Array(0), kept: word ? new Uint8Array(0) : undefined };
    this.nextCall();
    const { index, mark, found } = this;
    const fieldCount = Math.min(this.fields.length, MASK_FIELDS);
    const records = t.words.length;
    const recordStart = new Int32Array(records + 1);
    /** Per record: the diacritic bonus of each form (from `bonusStart[r]`) and the length bonus. */
    const bonusStart = new Int32Array(records + 1);
    const bonus: number[] = [];
    const length = new Float64Array(records);
    let entries = 0;
    let count = 0;
    let lists = 0;
    // Every entry of every matched word, in Pagefind's order, and the pages they are on.
    for (let r = 0; r < records; r++) {
      const w = t.words[r]!;
      const at = index.part(w, 0);
      const end = index.part(w, 2);
      const v = this.v;
      v.bytes = index.read(at, end);
      v.pos = 0;
      const { forms, counts } = readForms(v);
      v.pos = index.part(w, 1) - at;
      bonusStart[r] = bonus.length;
      bonus.push(diacriticBonus(t.typed, index.words[w]!));
      for (const form of forms) bonus.push(diacriticBonus(t.typed, form));
      length[r] = lengthBonus(index.words[w]!, t.stem);
      let loc = end;
      for (let form = 0; form < counts.length; form++) {
        const n = counts[form]!;
        if (n > 0) lists++;
        this.grow(entries + n);
        const { ePage, eWeight, eForm, eBits, eMeta, eLoc, eLocLength } = this;
        let page = 0;
        for (let i = 0; i < n; i++, entries++) {
          page += v.uint();
          const sums = v.uint();
          const head = v.uint();
          let bits = sums % 2;
          let token = 0;
          for (let k = head >>> 1; k > 0; k--) {
            token += v.uint();
            if (word !== undefined && (bits & KEPT) === 0 && this.passes(token, word)) bits |= KEPT;
          }
          let meta = 0;
          if (head & 1) {
            for (let k = v.uint(); k > 0; k--) {
              const f = v.uint();
              if (f < fieldCount) meta |= 1 << f;
            }
          }
          const bytes = v.uint();
          ePage[entries] = page;
          eWeight[entries] = (sums - (bits & SHARED)) / 2;
          eForm[entries] = form;
          eBits[entries] = bits;
          eMeta[entries] = meta;
          eLoc[entries] = loc;
          eLocLength[entries] = bytes;
          loc += bytes;
          const m = mark[page]!;
          if (m === 0) found[count++] = page;
          mark[page] = m | SEEN | ((bits & SHARED) === 0 ? 0 : SLOW);
        }
      }
      v.endsAt(end - at, 'a summary');
      if (loc !== index.part(w, 3)) throw new Error('postings: a summary disagrees with its locations');
      recordStart[r + 1] = entries;
    }
    bonusStart[records] = bonus.length;

    // The pages in ascending order: one list is; many pages are found faster by a scan than a sort.
    let pages: Int32Array;
    if (lists <= 1) pages = found.slice(0, count);
    else if (count * 16 > this.pageCount) {
      pages = new Int32Array(count);
      for (let p = 0, k = 0; k < count; p++) if (mark[p] !== 0) pages[k++] = p;
    } else pages = found.slice(0, count).sort();
    const slotOf = this.slotOf;
    for (let k = 0; k < count; k++) slotOf[pages[k]!] = k;

    const termIdf = idf(this.pageCount, count);
    const scores = new Float32Array(count);
    const kept = word === undefined ? undefined : new Uint8Array(count);
    const { sum, wordWeight, wordBonus, wordMeta, wordStamp, touched, chainHead, chainTail } = this;
    const fieldCounts = this.fieldCount;
    const { ePage, eWeight, eForm, eBits, eMeta, eNext } = this;
    const wordCounts = index.wordCounts;
    try {
      // Word by word in record order, as Pagefind sums a page's word scores.
      for (let r = 0; r < records; r++) {
        if (++this.stamp === 0x7fffffff) { wordStamp.fill(0); this.stamp = 1; }
        const stamp = this.stamp;
        let n = 0;
        for (let g = recordStart[r]!; g < recordStart[r + 1]!; g++) {
          const page = ePage[g]!;
          const s = slotOf[page]!;
          if (kept !== undefined && (eBits[g]! & KEPT) !== 0) kept[s] = 1;
          if (mark[page] === (SEEN | SLOW)) {
            eNext[g] = -1;
            if (chainHead[s] === -1) chainHead[s] = g; else eNext[chainTail[s]!] = g;
            chainTail[s] = g;
            continue;
          }
          if (wordStamp[s] !== stamp) {
            wordStamp[s] = stamp;
            wordWeight[s] = 0;
            wordBonus[s] = bonus[bonusStart[r]! + eForm[g]!]!;
            wordMeta[s] = 0;
            touched[n++] = s;
          }
          wordWeight[s] = wordWeight[s]! + eWeight[g]!;
          wordMeta[s] = wordMeta[s]! | eMeta[g]!;
        }
        const lengthFactor = length[r]!;
        for (let k = 0; k < n; k++) {
          const s = touched[k]!;
          if (wordWeight[s] !== 0) sum[s] = Math.fround(sum[s]! + wordScoreOf(wordWeight[s]!, lengthFactor, wordBonus[s]!, wordCounts[pages[s]!]!, this.avgLength, termIdf));
          for (let m = wordMeta[s]!, f = 0; m !== 0; m >>>= 1, f++) if (m & 1) fieldCounts[s * fieldCount + f] = fieldCounts[s * fieldCount + f]! + 1;
        }
      }
      for (let s = 0; s < count; s++) {
        if (chainHead[s] !== -1) {
          scores[s] = this.exact(s, pages[s]!, recordStart, bonus, bonusStart, length, termIdf);
          continue;
        }
        let boost = 0;
        for (let f = 0; f < fieldCount; f++) {
          const c = fieldCounts[s * fieldCount + f]!;
          if (c !== 0) boost = Math.fround(boost + metaBoost(this.fields[f]!, c, termIdf));
        }
        scores[s] = Math.fround(sum[s]! + boost);
      }
    } finally {
      for (let k = 0; k < count; k++) {
        const page = pages[k]!;
        mark[page] = 0;
        sum[k] = 0;
        chainHead[k] = -1;
      }
      if (count > 0 && fieldCount > 0) fieldCounts.fill(0, 0, count * fieldCount);
      if (this.ePage.length > KEEP_ENTRIES) this.grow0();
    }
    return { count, pages, scores, kept };
  }

  private grow0(): void {
    this.ePage = new Int32Array(0);
    this.eWeight = new Float64Array(0);
    this.eForm = new Int32Array(0);
    this.eBits = new Uint8Array(0);
    this.eMeta = new Int32Array(0);
    this.eLoc = new Float64Array(0);
    this.eLocLength = new Int32Array(0);
    this.eNext = new Int32Array(0);
  }

  /**
   * Hit `s` (page `page`) scored from its locations as pageHit in postings-search.ts does: its
   * entries' locations in Pagefind's order, sorted by position with Rust's unstable sort, a
   * shared position counted for the location the sort leaves first.
   */
  private exact(s: number, page: number, recordStart: Int32Array, bonus: readonly number[], bonusStart: Int32Array, length: Float64Array, termIdf: number): number {
    const { at, weight, of, order } = this;
    at.length = weight.length = of.length = order.length = 0;
    const records = recordStart.length - 1;
    const onPage = new Uint8Array(records);
    const firstBonus = new Float64Array(records);
    const weights = new Float64Array(records);
    const meta = new Int32Array(records);
    const v = this.v;
    let r = 0;
    for (let g = this.chainHead[s]!; g !== -1; g = this.eNext[g]!) {
      while (g >= recordStart[r + 1]!) r++;
      if (onPage[r] === 0) { onPage[r] = 1; firstBonus[r] = bonus[bonusStart[r]! + this.eForm[g]!]!; }
      meta[r] = meta[r]! | this.eMeta[g]!;
      const from = this.eLoc[g]!;
      v.bytes = this.index.read(from, from + this.eLocLength[g]!);
      v.pos = 0;
      let position = 0;
      while (v.pos < v.bytes.length) {
        order.push(at.length);
        weight.push(v.uint());
        at.push(position += v.int());
        v.uint();
        of.push(r);
      }
      v.endsAt(v.bytes.length, 'an entry\'s locations');
    }
    sortUnstable(order, this.byPosition);
    let last = -1;
    for (const k of order) {
      if (at[k] === last) continue;
      last = at[k]!;
      weights[of[k]!] = weights[of[k]!]! + weight[k]!;
    }
    let score = 0;
    for (let i = 0; i < records; i++) {
      if (onPage[i] === 0 || weights[i] === 0) continue;
      score = Math.fround(score + wordScoreOf(weights[i]!, length[i]!, firstBonus[i]!, this.index.wordCounts[page]!, this.avgLength, termIdf));
    }
    let boost = 0;
    const fieldCount = Math.min(this.fields.length, MASK_FIELDS);
    for (let f = 0; f < fieldCount; f++) {
      let c = 0;
      for (let i = 0; i < records; i++) if (onPage[i] !== 0 && (meta[i]! & (1 << f)) !== 0) c++;
      if (c !== 0) boost = Math.fround(boost + metaBoost(this.fields[f]!, c, termIdf));
    }
    return Math.fround(score + boost);
  }

  positions(term: string, page: number, keep: Keep): number[] {
    const t = termWords(this.index, term);
    if (t === undefined || page < 0 || page >= this.pageCount) return [];
    this.nextCall();
    const { index, at, token, order } = this;
    at.length = token.length = order.length = 0;
    const tokens: number[] = [];
    for (const w of t.words) {
      const summaryAt = index.part(w, 1);
      const locationsAt = index.part(w, 2);
      const head = readHead(new Varints(index.read(index.part(w, 0), summaryAt)));
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
        const v = new Varints(index.read(summaryAt + from, summaryAt + to));
        const block = Math.min(RECORD_BLOCK, head.counts[list]! - (c - first) * RECORD_BLOCK);
        let p = head.checkpointPage[c]!;
        let loc = head.checkpointLocations[c]!;
        for (let i = 0; i < block && p <= page; i++) {
          const delta = v.uint();
          if (i > 0) p += delta;
          if (p > page) break;
          v.uint();
          const h = v.uint();
          tokens.length = 0;
          let id = 0;
          for (let k = h >>> 1; k > 0; k--) tokens.push(id += v.uint());
          if (h & 1) for (let k = v.uint(); k > 0; k--) v.uint();
          const bytes = v.uint();
          if (p === page) {
            const l = new Varints(index.read(locationsAt + loc, locationsAt + loc + bytes));
            let position = 0;
            while (l.pos < bytes) {
              l.uint();
              order.push(at.length);
              at.push(position += l.int());
              const k = l.uint();
              token.push(k === 0 ? 0 : tokens[k - 1]!);
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
