/**
 * A word's record of postings format 2 (postings-format.ts), read: its head (forms, page list
 * sizes, checkpoints), and the whole record flat for the reference search (postings-search.ts).
 */
import { MASK_TOKENS, RECORD_BLOCK } from './postings-format.ts';
import { Varints } from './varints.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

export interface RecordHead {
  /** The token ids of the word's locations, by their index in its table. */
  tokens: number[];
  /** The variant forms (with diacritics); list 0 is the word's own form, list k is `forms[k − 1]`'s. */
  forms: string[];
  /** Entries of each page list. */
  counts: number[];
  /** List v's checkpoints are `firstCheckpoint[v]` up to `firstCheckpoint[v + 1]`. */
  firstCheckpoint: Int32Array;
  /** Per checkpoint: the page of its entry and where that entry starts in the summary and in the locations. */
  checkpointPage: Int32Array;
  checkpointSummary: Float64Array;
  checkpointLocations: Float64Array;
}

/** The head's forms, list sizes and token table, from the start of a record; the reader ends at its checkpoints. */
export function readForms(v: Varints): { forms: string[]; counts: number[]; tokens: number[] } {
  const variants = v.uint();
  const forms: string[] = [];
  for (let k = 0; k < variants; k++) {
    const n = v.uint();
    forms.push(utf8.decode(v.bytes.subarray(v.pos, v.pos + n)));
    v.pos += n;
  }
  const counts: number[] = [];
  for (let k = 0; k <= variants; k++) counts.push(v.uint());
  const tokens: number[] = [];
  for (let k = v.uint(); k > 0; k--) tokens.push(v.uint());
  return { forms, counts, tokens };
}

/** Past a flagged entry's shared positions (an entry whose weight field is odd has them last). */
export function skipShared(v: Varints): void {
  for (let k = v.uint(); k > 0; k--) v.uint();
}

/**
 * Past an entry's tokens, given its token field (tokens × 2 + meta bit) and whether the word names
 * them by a mask (its table holds at most MASK_TOKENS): nothing follows a mask, a list its indices.
 */
export function skipTokens(v: Varints, field: number, masked: boolean): void {
  if (!masked) for (let k = Math.floor(field / 2); k > 0; k--) v.uint();
}

/** The head at the start of a record; the reader ends past it. */
export function readHead(v: Varints): RecordHead {
  const { forms, counts, tokens } = readForms(v);
  const firstCheckpoint = new Int32Array(counts.length + 1);
  counts.forEach((n, k) => { firstCheckpoint[k + 1] = firstCheckpoint[k]! + Math.ceil(n / RECORD_BLOCK); });
  const checkpoints = firstCheckpoint[counts.length]!;
  const checkpointPage = new Int32Array(checkpoints);
  const checkpointSummary = new Float64Array(checkpoints);
  const checkpointLocations = new Float64Array(checkpoints);
  let summary = 0;
  let locations = 0;
  for (let c = 0; c < checkpoints; c++) {
    checkpointPage[c] = v.uint();
    checkpointSummary[c] = summary += v.uint();
    checkpointLocations[c] = locations += v.uint();
  }
  return { tokens, forms, counts, firstCheckpoint, checkpointPage, checkpointSummary, checkpointLocations };
}

/**
 * A word's record, flat: its variant forms, then one entry per page of each form, the word's own
 * form first (Pagefind's order), each with its locations and meta fields.
 */
export interface WordPostings {
  forms: string[];
  /** Entries of the record. */
  entries: number;
  /** Per entry: 0 for the word's own form, k for `forms[k − 1]`. */
  form: Int32Array;
  page: Int32Array;
  /** Entry e's locations are `loc[3·locStart[e]]` up to `loc[3·locStart[e + 1]]`: weight, position, token id. */
  locStart: Int32Array;
  loc: Int32Array;
  /** Entry e's meta field ids are `meta[metaStart[e]]` up to `meta[metaStart[e + 1]]`. */
  metaStart: Int32Array;
  meta: number[];
}

/** Decodes a whole record: `bytes` from its head to its end, the summary starting at `summaryAt`, the locations at `locationsAt`. */
export function decodeRecord(bytes: Buffer, summaryAt: number, locationsAt: number): WordPostings {
  const head = readHead(new Varints(bytes));
  const total = head.counts.reduce((a, b) => a + b, 0);
  // Each location takes three bytes at least.
  const most = Math.floor((bytes.length - locationsAt) / 3);
  const out: WordPostings = {
    forms: head.forms, entries: total, form: new Int32Array(total), page: new Int32Array(total), locStart: new Int32Array(total + 1),
    loc: new Int32Array(3 * most), metaStart: new Int32Array(total + 1), meta: [],
  };
  const s = new Varints(bytes, summaryAt);
  const l = new Varints(bytes, locationsAt);
  const masked = head.tokens.length <= MASK_TOKENS;
  let e = 0;
  let n = 0;
  head.counts.forEach((count, form) => {
    let page = 0;
    for (let i = 0; i < count; i++, e++) {
      page += s.uint();
      out.form[e] = form;
      out.page[e] = page;
      const sums = s.uint();
      const t = s.uint();
      skipTokens(s, t, masked);
      if (t % 2 === 1) for (let k = s.uint(); k > 0; k--) out.meta.push(s.uint());
      out.metaStart[e + 1] = out.meta.length;
      const end = l.pos + s.uint();
      if (sums % 2 === 1) skipShared(s);
      let position = 0;
      while (l.pos < end) {
        out.loc[n++] = l.uint();
        out.loc[n++] = position += l.int();
        const k = l.uint();
        out.loc[n++] = k === 0 ? 0 : head.tokens[k - 1]!;
      }
      l.endsAt(end, 'an entry\'s locations');
      out.locStart[e + 1] = n / 3;
    }
  });
  s.endsAt(locationsAt, 'a summary');
  l.endsAt(bytes.length, 'a record');
  return out;
}
