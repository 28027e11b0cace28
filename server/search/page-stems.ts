/**
 * The stems of one field (titles, or headings and descriptions) of every page, compact: each
 * distinct stem gets a number, and each page its sorted stem numbers, all pages in one typed
 * array. A Set of strings per page costs about a hundred bytes a stem and dominated the search's
 * memory on large sites; this costs four. Stemming runs once per distinct word, not per occurrence.
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

export class PageStems {
  private constructor(
    private readonly ids: ReadonlyMap<string, number>,
    /** Page i's stem numbers are `stems[starts[i] .. starts[i + 1])`, ascending. */
    private readonly starts: Uint32Array,
    private readonly stems: Int32Array,
  ) {}

  /** One field per page, in page order; `memo` (folded word → stem number) may be shared by fields with the same `ids`. */
  static of(texts: Iterable<string>, ids: Map<string, number> = new Map(), memo: Map<string, number> = new Map()): PageStems {
    const starts: number[] = [0];
    let stems = new Int32Array(1024);
    // The page a stem number was last added for: a page's numbers are kept once each without a Set.
    let lastPage = new Int32Array(1024).fill(-1);
    let n = 0;
    let page = 0;
    for (const text of texts) {
      const from = n;
      for (const w of foldedWords(text)) {
        let id = memo.get(w);
        if (id === undefined) {
          const s = stem(w);
          id = ids.get(s);
          if (id === undefined) ids.set(s, (id = ids.size));
          memo.set(w, id);
        }
        if (id >= lastPage.length) lastPage = grown(lastPage, id + 1, -1);
        if (lastPage[id] === page) continue;
        lastPage[id] = page;
        if (n === stems.length) stems = grown(stems, n + 1, 0);
        stems[n++] = id;
      }
      stems.subarray(from, n).sort();
      starts.push(n);
      page++;
    }
    return new PageStems(ids, Uint32Array.from(starts), stems.slice(0, n));
  }

  /** Whether page `i`'s field has any of `stems`. */
  hasAny(i: number, stems: Iterable<string>): boolean {
    const from = this.starts[i]!;
    const to = this.starts[i + 1]!;
    if (from === to) return false;
    for (const s of stems) {
      const id = this.ids.get(s);
      if (id !== undefined && this.find(from, to, id)) return true;
    }
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
