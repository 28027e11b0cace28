/**
 * The `Range` header of a static file request, made safe for sirv (RFC 9110 §14). sirv reads
 * `bytes=first-last` with `parseInt` and no checks: `bytes=5-1` makes a negative length and an
 * empty reply, a last position past 2^53 makes the file stream throw, `bytes=abc` and multiple
 * ranges come back as 206 with the whole file, `bytes=-N` (the last N bytes) as the first N + 1,
 * and `bytes=0-0` as the whole file. So only the forms sirv answers right are passed on:
 *
 * - `bytes=first-` and `bytes=first-last` with last ≥ first and last ≥ 1 (a first position at or
 *   past the end is sirv's 416, with the file's size in `Content-Range`); a last position beyond
 *   what a file can have is the same as none (`first-`: to the end, RFC 9110 §14.1.2);
 * - anything else is ignored and the whole file is answered with 200, as RFC 9110 §14.2 allows
 *   for a range a server does not support and requires for an invalid one.
 */
import type { IncomingMessage } from 'node:http';

const SINGLE = /^bytes=(\d+)-(\d*)$/;

/** Leaves `req.headers.range` as sirv may read it, or removes it. */
export function normalizeRange(req: IncomingMessage): void {
  const range = req.headers.range;
  if (range === undefined) return;
  const m = SINGLE.exec(range.trim());
  if (m === null) { delete req.headers.range; return; }
  const first = Number(m[1]);
  if (m[2] === '') return;
  const last = Number(m[2]);
  if (!Number.isSafeInteger(last)) { req.headers.range = `bytes=${m[1]}-`; return; }
  if (last < first || last === 0) delete req.headers.range;
}
