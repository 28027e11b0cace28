/**
 * Rust's `slice::sort_unstable_by` (core::slice::sort::unstable: insertion sort up to 20
 * elements, else ipnsort: an existing run is kept, otherwise pattern-defeating quicksort with a
 * pseudo-median pivot, branchless cyclic Lomuto partitions and a stable small sort up to 32
 * elements, heapsort past its recursion limit). Pagefind sorts a page's matched locations with
 * it, and which of two words at one location counts depends on the order it leaves equal
 * elements in: reproducing that order is what makes its scores reproducible.
 */
type Less<T> = (a: T, b: T) => boolean;

const ALWAYS_INSERTION = 20;
const SMALL_SORT = 32;
const PSEUDO_MEDIAN_REC = 64;

function insertionSort<T>(v: T[], from: number, to: number, less: Less<T>): void {
  for (let i = from + 1; i < to; i++) {
    const x = v[i]!;
    let j = i;
    while (j > from && less(x, v[j - 1]!)) { v[j] = v[j - 1]!; j--; }
    v[j] = x;
  }
}

/** The small sort of a quicksort leaf: stable (merges of stably presorted halves). */
function smallSort<T>(v: T[], from: number, to: number, less: Less<T>): void {
  insertionSort(v, from, to, less);
}

function median3<T>(v: T[], a: number, b: number, c: number, less: Less<T>): number {
  const x = less(v[a]!, v[b]!);
  const y = less(v[a]!, v[c]!);
  if (x === y) return less(v[b]!, v[c]!) !== x ? c : b;
  return a;
}

function median3Rec<T>(v: T[], a: number, b: number, c: number, n: number, less: Less<T>): number {
  if (n * 8 >= PSEUDO_MEDIAN_REC) {
    const n8 = Math.floor(n / 8);
    a = median3Rec(v, a, a + n8 * 4, a + n8 * 7, n8, less);
    b = median3Rec(v, b, b + n8 * 4, b + n8 * 7, n8, less);
    c = median3Rec(v, c, c + n8 * 4, c + n8 * 7, n8, less);
  }
  return median3(v, a, b, c, less);
}

function choosePivot<T>(v: T[], from: number, len: number, less: Less<T>): number {
  const n8 = Math.floor(len / 8);
  const a = from;
  const b = from + n8 * 4;
  const c = from + n8 * 7;
  return len < PSEUDO_MEDIAN_REC ? median3(v, a, b, c, less) : median3Rec(v, a, b, c, n8, less);
}

function swap<T>(v: T[], i: number, j: number): void {
  const t = v[i]!;
  v[i] = v[j]!;
  v[j] = t;
}

/**
 * Partitions v[from, from + len) around the element at `pivot`: those `less` than it first, then
 * the pivot; returns how many are less. The cyclic Lomuto scheme moves elements as Rust's does.
 */
function partition<T>(v: T[], from: number, len: number, pivot: number, less: Less<T>): number {
  swap(v, from, pivot);
  const p = v[from]!;
  const base = from + 1;
  const n = len - 1;
  let numLt = 0;
  if (n > 0) {
    const saved = v[base]!;
    let gap = base;
    const step = (right: number, value: T) => {
      const isLt = less(value, p);
      const left = base + numLt;
      v[gap] = v[left]!;
      v[left] = value;
      gap = right;
      if (isLt) numLt++;
    };
    for (let right = base + 1; right < base + n; right++) step(right, v[right]!);
    // The element first lifted out of the gap goes last.
    const isLt = less(saved, p);
    const left = base + numLt;
    v[gap] = v[left]!;
    v[left] = saved;
    if (isLt) numLt++;
  }
  swap(v, from, from + numLt);
  return numLt;
}

function siftDown<T>(v: T[], from: number, len: number, node: number, less: Less<T>): void {
  for (;;) {
    let child = 2 * node + 1;
    if (child >= len) break;
    if (child + 1 < len && less(v[from + child]!, v[from + child + 1]!)) child++;
    if (!less(v[from + node]!, v[from + child]!)) break;
    swap(v, from + node, from + child);
    node = child;
  }
}

function heapsort<T>(v: T[], from: number, len: number, less: Less<T>): void {
  for (let i = len + Math.floor(len / 2) - 1; i >= 0; i--) {
    let node = 0;
    if (i >= len) node = i - len; else swap(v, from, from + i);
    siftDown(v, from, Math.min(i, len), node, less);
  }
}

function quicksort<T>(v: T[], from: number, len: number, ancestor: T | undefined, limit: number, less: Less<T>): void {
  for (;;) {
    if (len <= SMALL_SORT) { smallSort(v, from, from + len, less); return; }
    if (limit === 0) { heapsort(v, from, len, less); return; }
    limit--;
    const pivot = choosePivot(v, from, len, less);
    if (ancestor !== undefined && !less(ancestor, v[pivot]!)) {
      // The pivot equals its ancestor: put every element equal to it on the left, done.
      const numLe = partition(v, from, len, pivot, (a, b) => !less(b, a));
      from += numLe + 1;
      len -= numLe + 1;
      ancestor = undefined;
      continue;
    }
    const numLt = partition(v, from, len, pivot, less);
    quicksort(v, from, numLt, ancestor, limit, less);
    ancestor = v[from + numLt];
    from += numLt + 1;
    len -= numLt + 1;
  }
}

/** Sorts `v` in place, leaving equal elements where Rust's `sort_unstable_by` leaves them. */
export function sortUnstable<T>(v: T[], less: Less<T>): T[] {
  const len = v.length;
  if (len < 2) return v;
  if (len <= ALWAYS_INSERTION) { insertionSort(v, 0, len, less); return v; }
  let run = 2;
  const descending = less(v[1]!, v[0]!);
  if (descending) while (run < len && less(v[run]!, v[run - 1]!)) run++;
  else while (run < len && !less(v[run]!, v[run - 1]!)) run++;
  if (run === len) {
    if (descending) v.reverse();
    return v;
  }
  quicksort(v, 0, len, undefined, 2 * Math.floor(Math.log2(len | 1)), less);
  return v;
}
