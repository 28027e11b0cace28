/**
 * The differences between two servers' answers to the same request: status line, headers (in
 * order, with their spelling) and body bytes, less what normalise.ts lists.
 */
import { decodedBody, type Recorded } from './send.ts';
import { normalise, sameNormalised } from './normalise.ts';

export interface Side {
  res: Recorded;
  /** value → name of the random captures of this server. */
  randoms: ReadonlyMap<string, string>;
}

/** Differences from the answer's own bytes: `ETag` and `Content-Length` follow the body. */
const FOLLOW_BODY = new Set(['etag', 'content-length']);

const show = (s: string) => JSON.stringify(s.length > 160 ? `${s.slice(0, 160)}…` : s);

/**
 * Where two bodies first differ, with some context. They are compared as latin1 text, one
 * character per byte, so that no byte is lost to decoding; the context is shown as UTF-8.
 */
function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 40);
  const context = (s: string) => show(Buffer.from(s.slice(from, i + 80), 'latin1').toString('utf8'));
  return `at byte ${i} (lengths ${a.length}, ${b.length}): ${context(a)} vs ${context(b)}`;
}

/** Empty when the answers are the same up to normalise.ts; one line per difference otherwise. */
export function differences(a: Side, b: Side, options: { metrics: boolean }): string[] {
  const out: string[] = [];
  if (a.res.status !== b.res.status || a.res.statusText !== b.res.statusText) {
    out.push(`status: ${a.res.status} ${a.res.statusText} vs ${b.res.status} ${b.res.statusText}`);
  }

  // Body first: when it differs only in normalised values, the headers computed from it may too.
  let bodyNormalisedOnly = false;
  if (!a.res.body.equals(b.res.body)) {
    const [da, db] = [decodedBody(a.res), decodedBody(b.res)];
    const [na, nb] = [normalise(da.toString('latin1'), a.randoms, options), normalise(db.toString('latin1'), b.randoms, options)];
    if (da.equals(db)) out.push(`body: the same content, encoded to different bytes (${a.res.body.length} vs ${b.res.body.length} bytes)`);
    else if (sameNormalised(na, nb)) bodyNormalisedOnly = true;
    else if (na.text === nb.text) out.push(`body: clock-derived values apart by more than the tolerance: ${na.clock.join(',')} vs ${nb.clock.join(',')}`);
    else out.push(`body ${firstDifference(na.text, nb.text)}`);
  }

  const headers = (side: Side) => side.res.headers.filter(([name]) => name.toLowerCase() !== 'date');
  const [ha, hb] = [headers(a), headers(b)];
  const names = (h: [string, string][]) => h.map(([n]) => n).join(', ');
  if (names(ha) !== names(hb)) out.push(`header names or order: ${names(ha)} vs ${names(hb)}`);
  else {
    ha.forEach(([name, va], i) => {
      const vb = hb[i]![1];
      if (va === vb) return;
      if (bodyNormalisedOnly && FOLLOW_BODY.has(name.toLowerCase())) return;
      if (sameNormalised(normalise(va, a.randoms, { header: name }), normalise(vb, b.randoms, { header: name }))) return;
      out.push(`header ${name}: ${show(va)} vs ${show(vb)}`);
    });
  }
  return out;
}
