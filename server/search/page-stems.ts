/**
 * The stems of one field (titles, or headings and descriptions) of every page, compact: each
 * distinct stem gets a number, and each page its sorted stem numbers, all pages in one typed
 * array. A Set of strings per page costs about a hundred bytes a stem and dominated the search's
 * memory on large sites; this costs four. Stemming runs once per distinct word, not per occurrence.
 */
import { stem } from './stem-es.ts';
import { words as foldedWords } from './text.ts';

export class PageStems {
  private constructor(
    private readonly ids: ReadonlyMap<string, number>,
    /** Page i's stem numbers are `stems[starts[i] .. starts[i + 1])`, ascending. */
    private readonly starts: Uint32Array,
    private readonly stems: Int32Array,
  ) {}

  /** One field per page, in page order; `memo` (folded word → stem) may be shared by several fields. */
  static of(texts: Iterable<string>, memo: Map<string, string> = new Map()): PageStems {
    const ids = new Map<string, number>();
    const starts: number[] = [0];
    let stems = new Int32Array(1024);
    let n = 0;
    for (const text of texts) {
      const page = new Set<number>();
      for (const w of foldedWords(text)) {
        let s = memo.get(w);
        if (s === undefined) memo.set(w, (s = stem(w)));
        let id = ids.get(s);
        if (id === undefined) ids.set(s, (id = ids.size));
        page.add(id);
      }
      if (n + page.size > stems.length) {
        const grown = new Int32Array(Math.max(stems.length * 2, n + page.size));
        grown.set(stems);
        stems = grown;
      }
      const sorted = Int32Array.from(page).sort();
      stems.set(sorted, n);
      n += sorted.length;
      starts.push(n);
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
