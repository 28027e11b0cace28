/**
 * The pages of a search (term-hits.ts) where a matched entry has a position another location
 * shares, scored from their locations as pageHit in postings-search.ts scores every page: the
 * entries' locations in Pagefind's order, sorted by position with Rust's unstable sort, a shared
 * position counted for the location the sort leaves first.
 *
 * A page's entries are found through the records' checkpoints when such pages are few; when they
 * are many (a broad prefix), by one more pass over the summaries, and a word's locations are then
 * read whole rather than entry by entry.
 */
import { metaBoost, termFrequency, termScore } from './pagefind-score.ts';
import { RECORD_BLOCK } from './postings-format.ts';
import type { PostingsIndex } from './postings-index.ts';
import { readHead, skipShared, skipTokens, type RecordHead } from './postings-record.ts';
import { sortUnstable } from './rust-sort.ts';
import { Varints } from './varints.ts';

/** One matched word of a search: its record's head and summary (`bytes`) and its bonuses. */
export interface MatchedRecord {
  word: number;
  bytes: Buffer;
  summaryAt: number;
  counts: number[];
  /** Whether its entries name their tokens by a mask (postings-record.ts `skipTokens`). */
  masked: boolean;
  /** Diacritic bonus of each form (0: the word's own). */
  bonus: number[];
  lengthFactor: number;
}

/** A word's locations up to this size are read whole when the pages need some of them. */
const WHOLE_BYTES = 1 << 16;
const SLOW = 2;

export class ExactPages {
  private records: MatchedRecord[] = [];
  private heads: (RecordHead | undefined)[] = [];
  private whole: (Buffer | undefined)[] = [];
  private termIdf = 0;
  /** Entries found on the pages: word (record), form, meta fields, where its locations are in the word's, their length, next of the page. */
  private eRecord = new Int32Array(1024);
  private eForm = new Int32Array(1024);
  private eMeta = new Int32Array(1024);
  private eLoc = new Float64Array(1024);
  private eLength = new Int32Array(1024);
  private eNext = new Int32Array(1024);
  private entries = 0;
  /** Per page number, when the pages' entries were gathered in one pass: their first and last entry. */
  private readonly first: Int32Array;
  private readonly last: Int32Array;
  private scanned: number[] = [];
  /** Per record, on the current page. */
  private onPage = new Int32Array(0);
  private firstBonus = new Float64Array(0);
  private weights = new Float64Array(0);
  private meta = new Int32Array(0);
  private present: number[] = [];
  private stamp = 0;
  /** The page's locations: position, weight, word (record); and their order. */
  private at: number[] = [];
  private weight: number[] = [];
  private of: number[] = [];
  private order: number[] = [];
  private readonly byPosition = (a: number, b: number): boolean => this.at[a]! < this.at[b]!;
  private readonly v = new Varints(Buffer.alloc(0));

  constructor(
    private readonly index: PostingsIndex,
    private readonly norms: Float32Array,
    private readonly avgLength: number,
    private readonly fieldCount: number,
  ) {
    this.first = new Int32Array(index.header.pages).fill(-1);
    this.last = new Int32Array(index.header.pages);
  }

  /** Readies the scoring of `slow` pages (those `mark`ed SLOW) of a search of `records`. */
  start(records: MatchedRecord[], pages: Int32Array, mark: Uint8Array, slow: number, termIdf: number): void {
    this.records = records;
    this.termIdf = termIdf;
    this.heads = records.map(() => undefined);
    this.whole = records.map(() => undefined);
    const n = records.length;
    if (this.onPage.length < n) {
      this.onPage = new Int32Array(n);
      this.firstBonus = new Float64Array(n);
      this.weights = new Float64Array(n);
      this.meta = new Int32Array(n);
    }
    const total = records.reduce((sum, r) => sum + r.counts.reduce((a, b) => a + b, 0), 0);
    const lookups = slow * records.reduce((sum, r) => sum + r.counts.length, 0) * RECORD_BLOCK;
    if (lookups > total) this.scan(pages, mark);
  }

  /** Every entry on a SLOW page, chained by page, in one pass over the summaries. */
  private scan(pages: Int32Array, mark: Uint8Array): void {
    const slowBytes = new Float64Array(this.records.length);
    this.entries = 0;
    this.records.forEach((record, r) => {
      const v = this.v;
      v.bytes = record.bytes;
      v.pos = record.summaryAt;
      let loc = 0;
      for (let form = 0; form < record.counts.length; form++) {
        let page = 0;
        for (let i = record.counts[form]!; i > 0; i--) {
          page += v.uint();
          const sums = v.uint();
          const head = v.uint();
          skipTokens(v, head, record.masked);
          let meta = 0;
          if (head & 1) meta = this.readMeta(v);
          const length = v.uint();
          if (sums % 2 === 1) skipShared(v);
          if ((mark[page]! & SLOW) !== 0) {
            const e = this.add(r, form, meta, loc, length);
            if (this.first[page] === -1) this.first[page] = e; else this.eNext[this.last[page]!] = e;
            this.last[page] = e;
            slowBytes[r] = slowBytes[r]! + length;
          }
          loc += length;
        }
      }
    });
    for (const page of pages) if ((mark[page]! & SLOW) !== 0) this.scanned.push(page);
    this.whole = this.records.map((record, r) => {
      const from = this.index.part(record.word, 2);
      const size = this.index.part(record.word, 3) - from;
      return slowBytes[r]! > 0 && (size <= WHOLE_BYTES || 4 * slowBytes[r]! >= size) ? this.index.read(from, from + size) : undefined;
    });
  }

  private readMeta(v: Varints): number {
    let meta = 0;
    for (let k = v.uint(); k > 0; k--) {
      const f = v.uint();
      if (f < this.fieldCount) meta |= 1 << f;
    }
    return meta;
  }

  private add(record: number, form: number, meta: number, loc: number, length: number): number {
    const e = this.entries++;
    if (e >= this.eRecord.length) {
      const grow = <T extends Int32Array | Float64Array>(a: T, b: T): T => { b.set(a); return b; };
      const n = 2 * this.eRecord.length;
      this.eRecord = grow(this.eRecord, new Int32Array(n));
      this.eForm = grow(this.eForm, new Int32Array(n));
      this.eMeta = grow(this.eMeta, new Int32Array(n));
      this.eLoc = grow(this.eLoc, new Float64Array(n));
      this.eLength = grow(this.eLength, new Int32Array(n));
      this.eNext = grow(this.eNext, new Int32Array(n));
    }
    this.eRecord[e] = record;
    this.eForm[e] = form;
    this.eMeta[e] = meta;
    this.eLoc[e] = loc;
    this.eLength[e] = length;
    this.eNext[e] = -1;
    return e;
  }

  /** Page `page`'s entries through each list's checkpoints, in Pagefind's order; the first entry. */
  private lookup(page: number): number {
    this.entries = 0;
    const v = this.v;
    this.records.forEach((record, r) => {
      const head = this.heads[r] ??= readHead(new Varints(record.bytes));
      for (let list = 0; list < record.counts.length; list++) {
        const from = head.firstCheckpoint[list]!;
        let lo = from;
        let hi = head.firstCheckpoint[list + 1]!;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (head.checkpointPage[mid]! <= page) lo = mid + 1; else hi = mid;
        }
        const c = lo - 1;
        if (c < from) continue;
        v.bytes = record.bytes;
        v.pos = record.summaryAt + head.checkpointSummary[c]!;
        let loc = head.checkpointLocations[c]!;
        let p = head.checkpointPage[c]!;
        const block = Math.min(RECORD_BLOCK, record.counts[list]! - (c - from) * RECORD_BLOCK);
        for (let i = 0; i < block; i++) {
          const delta = v.uint();
          if (i > 0) p += delta;
          if (p > page) break;
          const sums = v.uint();
          const h = v.uint();
          skipTokens(v, h, record.masked);
          const meta = h & 1 ? this.readMeta(v) : 0;
          const length = v.uint();
          if (sums % 2 === 1) skipShared(v);
          if (p === page) {
            const e = this.add(r, list, meta, loc, length);
            if (e > 0) this.eNext[e - 1] = e;
            break;
          }
          loc += length;
        }
      }
    });
    return this.entries > 0 ? 0 : -1;
  }

  score(page: number): number {
    const { at, weight, of, order, onPage, firstBonus, weights, meta, present, eNext, eRecord, eForm, eMeta, eLoc, eLength } = this;
    at.length = weight.length = of.length = order.length = present.length = 0;
    const stamp = ++this.stamp;
    const v = this.v;
    const head = this.first[page] !== -1 ? this.first[page]! : this.lookup(page);
    for (let e = head; e !== -1; e = eNext[e]!) {
      const r = eRecord[e]!;
      const record = this.records[r]!;
      if (onPage[r] !== stamp) {
        onPage[r] = stamp;
        firstBonus[r] = record.bonus[eForm[e]!]!;
        weights[r] = 0;
        meta[r] = 0;
        present.push(r);
      }
      meta[r] = meta[r]! | eMeta[e]!;
      const whole = this.whole[r];
      let end: number;
      if (whole !== undefined) {
        v.bytes = whole;
        v.pos = eLoc[e]!;
        end = v.pos + eLength[e]!;
      } else {
        const from = this.index.part(record.word, 2) + eLoc[e]!;
        v.bytes = this.index.read(from, from + eLength[e]!);
        v.pos = 0;
        end = v.bytes.length;
      }
      let position = 0;
      while (v.pos < end) {
        order.push(at.length);
        weight.push(v.uint());
        at.push(position += v.int());
        v.uint();
        of.push(r);
      }
      v.endsAt(end, 'an entry\'s locations');
    }
    sortUnstable(order, this.byPosition);
    let last = -1;
    for (const k of order) {
      if (at[k] === last) continue;
      last = at[k]!;
      weights[of[k]!] = weights[of[k]!]! + weight[k]!;
    }
    // Pagefind's order: the words in record order (the entries were), then the meta fields.
    let score = 0;
    for (const r of present) {
      if (weights[r] === 0) continue;
      const tf = termFrequency(weights[r]!, this.records[r]!.lengthFactor, this.norms[page]!, this.avgLength);
      score = Math.fround(score + termScore(tf, firstBonus[r]!, this.termIdf));
    }
    let boost = 0;
    for (let f = 0; f < this.fieldCount; f++) {
      let n = 0;
      for (const r of present) if ((meta[r]! & (1 << f)) !== 0) n++;
      if (n !== 0) boost = Math.fround(boost + metaBoost(this.index.header.fields[f]!, n, this.termIdf));
    }
    return Math.fround(score + boost);
  }

  /** Lets go of the search. */
  end(): void {
    for (const page of this.scanned) this.first[page] = -1;
    this.scanned.length = 0;
    this.records = [];
    this.heads = [];
    this.whole = [];
    this.entries = 0;
  }
}
