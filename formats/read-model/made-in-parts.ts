/**
 * A build file made in parts at once (the postings, the answers of common words): the work cut
 * into consecutive runs of about equal cost, each run written to a file of its own, and the runs'
 * files appended to the first, in order.
 */
import fs from 'node:fs';
import { writeAt } from './read-at.ts';

/** `n` items cut into `parts` consecutive runs `[from, to)` of about equal `weight`; runs may be empty. */
export function cutRuns(n: number, parts: number, weight: (i: number) => number): [from: number, to: number][] {
  let total = 0;
  for (let i = 0; i < n; i++) total += weight(i);
  const runs: [number, number][] = [];
  let from = 0;
  let sum = 0;
  for (let i = 0; i < n && runs.length < parts - 1; i++) {
    sum += weight(i);
    if (sum >= (total * (runs.length + 1)) / parts) { runs.push([from, i + 1]); from = i + 1; }
  }
  while (runs.length < Math.max(1, parts)) { runs.push([from, n]); from = n; }
  return runs;
}

/** Writes the bytes of the file `from` into the open `fd` from `at`, then removes `from`; returns how many. */
export function appendPart(fd: number, at: number, from: string): number {
  const buffer = Buffer.allocUnsafe(4 << 20);
  const src = fs.openSync(from, 'r');
  let written = 0;
  try {
    for (let n; (n = fs.readSync(src, buffer, 0, buffer.length, null)) > 0;) {
      writeAt(fd, buffer.subarray(0, n), at + written);
      written += n;
    }
  } finally {
    fs.closeSync(src);
  }
  fs.rmSync(from);
  return written;
}
