/**
 * The words of each indexed text (`text.split(' ')`, what Pagefind's positions count) as ids,
 * by Pagefind page number, so the server knows the word at a matched position without reading
 * the page's text (postings-writer.ts). Ids count from 1 in the order words first appear, page
 * after page.
 *
 * Runs of consecutive pages are numbered apart, in parallel, then joined: a later run's words
 * new to those before it are numbered after theirs, in the run's own order, which is the order
 * one run over all the pages would have given them.
 */
import fs from 'node:fs';
import { readAt } from '../../formats/read-model/read-at.ts';

/**
 * Ids per slab: pages are views of a few large arrays, not an array each. A large site's ids
 * take hundreds of megabytes; as slabs (each past glibc's largest mmap threshold) they go back to
 * the system once the postings are written, where 100,000 small arrays would stay in the
 * allocator's heap through the rest of the build. Shared, so the build's threads read the same
 * ids without a copy.
 */
const SLAB = 16 << 20;

/** Token ids of consecutive pages, in memory threads share. */
export interface SharedTokens {
  slabs: SharedArrayBuffer[];
  /** Per page: its slab, where its ids start there, how many. */
  spans: Uint32Array;
}

/** A run of pages' ids, numbered by the run alone. */
export interface TokenRun extends SharedTokens {
  /** The run's words, by id − 1. */
  words: string[];
}

/** The ids of the texts at `places` (byte offset and length of each page's text) in `file`. */
export function tokenizeTexts(file: string, places: Float64Array): TokenRun {
  const pages = places.length / 2;
  const run: TokenRun = { slabs: [], spans: new Uint32Array(3 * pages), words: [] };
  const ids = new Map<string, number>();
  let slab: Uint32Array<SharedArrayBuffer> = new Uint32Array(new SharedArrayBuffer(0));
  let used = 0;
  const fd = fs.openSync(file, 'r');
  try {
    for (let p = 0; p < pages; p++) {
      const words = readAt(fd, places[2 * p]!, places[2 * p + 1]!).toString('utf8').split(' ');
      if (used + words.length > slab.length) {
        slab = new Uint32Array(new SharedArrayBuffer(4 * Math.max(SLAB, words.length)));
        run.slabs.push(slab.buffer);
        used = 0;
      }
      run.spans.set([run.slabs.length - 1, used, words.length], 3 * p);
      for (const w of words) {
        let t = ids.get(w);
        if (t === undefined) {
          // A copy: a long word split from the text is a slice that would keep the whole text alive.
          const own = Buffer.from(w).toString();
          ids.set(own, t = ids.size + 1);
          run.words.push(own);
        }
        slab[used++] = t;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return run;
}

/** Each page's ids. */
export function pageViews({ slabs, spans }: SharedTokens): Uint32Array[] {
  const arrays = slabs.map((s) => new Uint32Array(s));
  return Array.from({ length: spans.length / 3 }, (_, p) => arrays[spans[3 * p]!]!.subarray(spans[3 * p + 1]!, spans[3 * p + 1]! + spans[3 * p + 2]!));
}

/** Runs of consecutive pages as one, in order: the later runs' ids are renumbered in place. */
export function joinTokenRuns(runs: readonly TokenRun[]): { words: string[]; tokens: SharedTokens } {
  const ids = new Map<string, number>();
  const slabs: SharedArrayBuffer[] = [];
  const spans = new Uint32Array(runs.reduce((n, r) => n + r.spans.length, 0));
  let at = 0;
  for (const run of runs) {
    const global = new Uint32Array(run.words.length + 1);
    run.words.forEach((w, i) => {
      let t = ids.get(w);
      if (t === undefined) ids.set(w, t = ids.size + 1);
      global[i + 1] = t;
    });
    const renumber = global.some((t, i) => t !== i);
    const views = pageViews(run);
    for (let p = 0; p < views.length; p++) {
      const view = views[p]!;
      if (renumber) for (let j = 0; j < view.length; j++) view[j] = global[view[j]!]!;
      spans.set([run.spans[3 * p]! + slabs.length, run.spans[3 * p + 1]!, run.spans[3 * p + 2]!], at);
      at += 3;
    }
    slabs.push(...run.slabs);
  }
  return { words: [...ids.keys()], tokens: { slabs, spans } };
}
