/**
 * The stems of one field (titles, or headings and descriptions) of every page, compact: each
 * distinct stem gets a number, and each page its sorted stem numbers, all pages in one typed
 * array. A Set of strings per page costs about a hundred bytes a stem and dominated the search's
 * memory on large sites; this costs four. The build computes them (search stage) and writes them
 * in index.bin, so a server opening a build stems nothing: it views index.bin's arrays.
 */
import { stem } from './stem-es.ts';
import { words as foldedWords } from './text.ts';

/** `a` copied into an array at least twice as long and holding `atLeast`, the rest `fill`. */
function grown(a: Int32Array<ArrayBuffer>, atLeast: number, fill: number): Int32Array<ArrayBuffer> {
  const out = new Int32Array(2 * Math.max(atLeast, a.length));
  if (fill !== 0) out.fill(fill, a.length);
  out.set(a);
  return out;
}

/** The distinct stems of a text's folded words; `memo` (folded word → stem) may be shared by many texts. */
export function fieldStems(text: string, memo: Map<string, string> = new Map()): string[] {
  const out = new Set<string>();
  for (const w of foldedWords(text)) {
    let s = memo.get(w);
    if (s === undefined) {
      s = stem(w);
      if (memo.size >= 100_000) memo.clear();
      memo.set(w, s);
    }
    out.add(s);
  }
  return [...out];
}

/** The numbers `ids` gives those of `stems` it has. */
export function stemNumbers(ids: ReadonlyMap<string, number>, stems: Iterable<string>): Int32Array {
  const out: number[] = [];
  for (const s of stems) {
    const id = ids.get(s);
    if (id !== undefined) out.push(id);
  }
  return Int32Array.from(out);
}

/** Lays out one field's stems page after page, numbering stems in `ids` (which fields may share). */
export class PageStemsBuilder {
  private readonly starts: number[] = [0];
  private stems = new Int32Array(1024);
  private n = 0;
  // The page a stem number was last added for: a page's numbers are kept once each without a Set.
  private lastPage = new Int32Array(1024).fill(-1);

  constructor(readonly ids: Map<string, number> = new Map()) {}

  /** The next page's stems. */
  add(stems: Iterable<string>): void {
    const page = this.starts.length - 1;
    const from = this.n;
    for (const s of stems) {
      let id = this.ids.get(s);
      if (id === undefined) this.ids.set(s, (id = this.ids.size));
      if (id >= this.lastPage.length) this.lastPage = grown(this.lastPage, id + 1, -1);
      if (this.lastPage[id] === page) continue;
      this.lastPage[id] = page;
      if (this.n === this.stems.length) this.stems = grown(this.stems, this.n + 1, 0);
      this.stems[this.n++] = id;
    }
    this.stems.subarray(from, this.n).sort();
    this.starts.push(this.n);
  }

  /** Page i's stem numbers are `stems[starts[i] .. starts[i + 1])`, ascending. */
  finish(): { starts: Uint32Array; stems: Int32Array } {
    return { starts: Uint32Array.from(this.starts), stems: this.stems.slice(0, this.n) };
  }
}

export class PageStems {
  private constructor(
    private readonly ids: ReadonlyMap<string, number>,
    /** Page i's stem numbers are `stems[starts[i] .. starts[i + 1])`, ascending. */
    private readonly starts: Uint32Array,
    private readonly stems: Int32Array,
  ) {}

  /** One field per page, in page order; fields with the same `ids` and `memo` are numbered alike. */
  static of(texts: Iterable<string>, ids: Map<string, number> = new Map(), memo: Map<string, string> = new Map()): PageStems {
    const builder = new PageStemsBuilder(ids);
    for (const text of texts) builder.add(fieldStems(text, memo));
    const { starts, stems } = builder.finish();
    return new PageStems(ids, starts, stems);
  }

  /** Stems laid out by `PageStemsBuilder` (as index.bin holds them), numbered by `ids`. */
  static over(ids: ReadonlyMap<string, number>, starts: Uint32Array, stems: Int32Array): PageStems {
    return new PageStems(ids, starts, stems);
  }

  /** Whether page `i`'s field has any of `stems`. */
  hasAny(i: number, stems: Iterable<string>): boolean {
    return this.hasAnyId(i, this.idsOf(stems));
  }

  /** The numbers of those of `stems` any page has, for `hasAnyId`: a query word's family is looked up once, not per page. */
  idsOf(stems: Iterable<string>): Int32Array {
    return stemNumbers(this.ids, stems);
  }

  /** Per stem number, the pages having it, ascending (`pagesWith`): made on first use. */
  private inverted: { starts: Uint32Array; pages: Int32Array } | undefined;

  /**
   * The pages whose field has the stem numbered `id`, ascending: a common word is in the headings
   * of most pages of a large site, and one list read beats a lookup per page.
   */
  pagesWith(id: number): Int32Array {
    const inv = (this.inverted ??= this.invert());
    if (id + 1 >= inv.starts.length) return inv.pages.subarray(0, 0);
    return inv.pages.subarray(inv.starts[id]!, inv.starts[id + 1]!);
  }

  private invert(): { starts: Uint32Array; pages: Int32Array } {
    let ids = 0;
    for (const id of this.stems) if (id >= ids) ids = id + 1;
    const starts = new Uint32Array(ids + 1);
    for (const id of this.stems) starts[id + 1]!++;
    for (let id = 0; id < ids; id++) starts[id + 1]! += starts[id]!;
    const next = starts.slice(0, ids);
    const pages = new Int32Array(this.stems.length);
    for (let page = 0; page + 1 < this.starts.length; page++) {
      for (let k = this.starts[page]!; k < this.starts[page + 1]!; k++) pages[next[this.stems[k]!]!++] = page;
    }
    return { starts, pages };
  }

  /** Whether page `i`'s field has any of the stems numbered `ids` (from `idsOf`). */
  hasAnyId(i: number, ids: Int32Array): boolean {
    const from = this.starts[i]!;
    const to = this.starts[i + 1]!;
    if (from === to) return false;
    for (let k = 0; k < ids.length; k++) if (this.find(from, to, ids[k]!)) return true;
    return false;
  }

  private find(lo: number, hi: number, id: number): boolean {
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.stems[mid]!;
      if (v === id) return true;
      if (v < id) lo = mid + 1;
      else hi = mid;
    }
    return false;
  }
}
