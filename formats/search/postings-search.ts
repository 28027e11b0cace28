/**
 * Pagefind's search of one term, answered from the build's postings (postings-index.ts) instead
 * of Pagefind's WebAssembly: the same pages, scores (pagefind-score.ts) and matched positions
 * Pagefind 1.5.2 returns with every index chunk loaded, or only the first positions whose text
 * word the caller keeps (each distinct word tested once per search). The words a term matches
 * are term-words.ts's.
 *
 * `searchNow` decodes the matched words' whole records and scores every page from its locations:
 * the reference the columnar answers (term-hits.ts, `hits` and `positions`) are tested against.
 */
import { averagePageLength, diacriticBonus, idf, lengthBonus, metaBoost, wordScore } from './pagefind-score.ts';
import { PostingsIndex, type WordPostings } from './postings-index.ts';
import { sortUnstable } from './rust-sort.ts';
import { MASK_FIELDS, TermColumns } from './term-hits.ts';
import type { Keep, RawHit, TermHits, TermSearch } from './term-search.ts';
import { termWords } from './term-words.ts';

/** One search's matching words: their records and bonuses, and every entry chained by page. */
interface Matched {
  records: WordPostings[];
  lengthBonus: number[];
  /** Per record, per form: the diacritic bonus. */
  diacritic: number[][];
  /** The caller's test of text words, and its verdicts by token id (0: not asked yet, 1: kept, 2: not). */
  keep: (Keep & { known: Uint8Array }) | undefined;
  /** Entry g is entry `entry[g]` of record `record[g]`; `next[g]` the page's next entry (−1: none). */
  record: Int32Array;
  entry: Int32Array;
  next: Int32Array;
  /** Per record: the page it was last met on, its first entry's diacritic bonus and weight sum there. */
  onPage: Int32Array;
  firstBonus: Float64Array;
  weights: Float64Array;
}

export class PostingsSearch implements TermSearch {
  private readonly avgLength: number;
  /** Per page number: its first and last entry in the current search (−1: none). */
  private readonly head: Int32Array;
  private readonly tail: Int32Array;
  /** Scratch of one page's locations: position, weight, token id, record; and their order. */
  private at: number[] = [];
  private weight: number[] = [];
  private token: number[] = [];
  private of: number[] = [];
  private order: number[] = [];
  private readonly byPosition = (a: number, b: number): boolean => this.at[a]! < this.at[b]!;

  private readonly columns: TermColumns;
  /** Page number by Pagefind page id, for a build whose meta fields the columns cannot hold. */
  private pageOf: Map<string, number> | undefined;

  constructor(private readonly index: PostingsIndex) {
    this.avgLength = averagePageLength(index.wordCounts);
    this.head = new Int32Array(index.header.pages).fill(-1);
    this.tail = new Int32Array(index.header.pages).fill(-1);
    this.columns = new TermColumns(index, this.avgLength);
  }

  get pageIds(): readonly string[] {
    return this.index.ids;
  }

  hits(term: string, word?: (textWord: string) => boolean): TermHits {
    if (this.index.header.fields.length <= MASK_FIELDS) return this.columns.hits(term, word);
    this.pageOf ??= new Map(this.index.ids.map((id, page) => [id, page]));
    const pageOf = this.pageOf;
    const hits = this.searchNow(term, word === undefined ? undefined : { word, max: 1 })
      .map((h) => ({ page: pageOf.get(h.id)!, hit: h }))
      .sort((a, b) => a.page - b.page);
    return {
      count: hits.length,
      pages: Int32Array.from(hits, (h) => h.page),
      scores: Float32Array.from(hits, (h) => h.hit.score),
      kept: word === undefined ? undefined : Uint8Array.from(hits, (h) => (h.hit.kept!.length > 0 ? 1 : 0)),
    };
  }

  positions(term: string, page: number, keep: Keep): number[] {
    return this.columns.positions(term, page, keep);
  }

  /** Bytes of the summaries `hits(term)` reads and scores: what its answer costs to make. */
  summaryBytes(term: string): number {
    let bytes = 0;
    for (const w of termWords(this.index, term)?.words ?? []) bytes += this.index.part(w, 2) - this.index.part(w, 1);
    return bytes;
  }

  /** Pagefind's full answer for `term`, a single word: every page's positions (the reference of `hits` and `positions`). */
  searchNow(term: string, keep?: Keep): RawHit[] {
    const t = termWords(this.index, term);
    if (t === undefined) return [];
    const { typed, stem, words } = t;
    const records = words.map((w) => this.index.postings(w));
    const total = records.reduce((n, r) => n + r.entries, 0);
    const m: Matched = {
      records,
      lengthBonus: words.map((w) => lengthBonus(this.index.words[w]!, stem)),
      diacritic: words.map((w, i) => [this.index.words[w]!, ...records[i]!.forms].map((form) => diacriticBonus(typed, form))),
      keep: keep === undefined ? undefined : { ...keep, known: new Uint8Array(this.index.header.tokens + 1) },
      record: new Int32Array(total),
      entry: new Int32Array(total),
      next: new Int32Array(total).fill(-1),
      onPage: new Int32Array(records.length).fill(-1),
      firstBonus: new Float64Array(records.length),
      weights: new Float64Array(records.length),
    };
    // Chained in Pagefind's order of entries (words in byte order, forms, pages), pages in the
    // order first met.
    const pages: number[] = [];
    let g = 0;
    records.forEach((r, i) => {
      for (let e = 0; e < r.entries; e++, g++) {
        m.record[g] = i;
        m.entry[g] = e;
        const page = r.page[e]!;
        if (this.head[page] === -1) { this.head[page] = g; pages.push(page); } else m.next[this.tail[page]!] = g;
        this.tail[page] = g;
      }
    });
    const termIdf = idf(this.index.header.pages, pages.length);
    const hits: { page: number; hit: RawHit }[] = [];
    try {
      for (const page of pages) hits.push({ page, hit: this.pageHit(page, m, termIdf) });
    } finally {
      for (const page of pages) this.head[page] = this.tail[page] = -1;
    }
    // By score; Pagefind leaves the order of equal scores to its sort, here it is the page order.
    return hits.sort((a, b) => b.hit.score - a.hit.score || a.page - b.page).map((h) => h.hit);
  }

  private pageHit(page: number, m: Matched, termIdf: number): RawHit {
    const { at, weight, token, of, order } = this;
    at.length = weight.length = token.length = of.length = order.length = 0;
    // The words (records) on this page, in order; per word the diacritic bonus of its first
    // entry, the sum of its locations' weights and the meta fields it is in.
    const words: number[] = [];
    let fieldWords: Map<number, Set<number>> | undefined;
    for (let g = this.head[page]!; g !== -1; g = m.next[g]!) {
      const i = m.record[g]!;
      const e = m.entry[g]!;
      const r = m.records[i]!;
      if (m.onPage[i] !== page) {
        m.onPage[i] = page;
        m.firstBonus[i] = m.diacritic[i]![r.form[e]!]!;
        m.weights[i] = 0;
        words.push(i);
      }
      for (let l = 3 * r.locStart[e]!; l < 3 * r.locStart[e + 1]!; l += 3) {
        order.push(at.length);
        weight.push(r.loc[l]!);
        at.push(r.loc[l + 1]!);
        token.push(r.loc[l + 2]!);
        of.push(i);
      }
      for (let f = r.metaStart[e]!; f < r.metaStart[e + 1]!; f++) {
        fieldWords ??= new Map();
        let set = fieldWords.get(r.meta[f]!);
        if (set === undefined) fieldWords.set(r.meta[f]!, set = new Set());
        set.add(i);
      }
    }
    // By position; a position two words share counts for the one Rust's unstable sort leaves
    // first, as in Pagefind.
    sortUnstable(order, this.byPosition);
    // All positions, or only those the caller keeps (a common word has thousands on a page).
    const positions: number[] = [];
    const kept: number[] = [];
    let last = -1;
    for (const k of order) {
      if (at[k] === last) continue;
      last = at[k]!;
      if (m.keep === undefined) positions.push(last);
      else if (kept.length < m.keep.max && this.keeps(m.keep, token[k]!)) kept.push(last);
      m.weights[of[k]!] = m.weights[of[k]!]! + weight[k]!;
    }
    let score = 0;
    if (words.length > 1) words.sort((a, b) => a - b);
    for (const i of words) {
      if (m.weights[i] === 0) continue;
      const bonus = { length: m.lengthBonus[i]!, diacritic: m.firstBonus[i]! };
      score = Math.fround(score + wordScore(m.weights[i]!, bonus, this.index.wordCounts[page]!, this.avgLength, termIdf));
    }
    let boost = 0;
    for (const [field, set] of [...(fieldWords ?? [])].sort((a, b) => a[0] - b[0])) {
      const name = this.index.header.fields[field];
      if (name !== undefined) boost = Math.fround(boost + metaBoost(name, set.size, termIdf));
    }
    const hit: RawHit = { id: this.index.ids[page]!, score: Math.fround(score + boost), words: positions };
    if (m.keep !== undefined) hit.kept = kept;
    return hit;
  }

  /** Whether the text word of token `id` passes the caller's test, asked once per word and search. */
  private keeps(keep: NonNullable<Matched['keep']>, id: number): boolean {
    let verdict = keep.known[id]!;
    if (verdict === 0) {
      const word = this.index.token(id);
      keep.known[id] = verdict = word !== undefined && keep.word(word) ? 1 : 2;
    }
    return verdict === 1;
  }

  close(): Promise<void> {
    this.index.close();
    return Promise.resolve();
  }
}

/** The postings search of the build whose `search/` folder is `searchDir`. */
export async function openPostingsSearch(searchDir: string): Promise<PostingsSearch> {
  return new PostingsSearch(await PostingsIndex.open(searchDir));
}
