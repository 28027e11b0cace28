/**
 * The query's words marked in an excerpt. The engine cuts the excerpt around the page words whose
 * stem is in a query word's family (formats/search/vocabulary.ts `familyStems`); the same test
 * marks them here, on the query as typed: words the engine reached through a synonym, a
 * translation or a typo correction are not marked. Words that carry no topic (the lexicon's
 * filler: "el", "del", "para"…) and one- or two-letter words are never marked.
 */
import { stem } from '../../formats/search/stem-es.ts';
import { words } from '../../formats/search/text.ts';
import { familyStems } from '../../formats/search/vocabulary.ts';
import { escapeHtml } from './html.ts';

/** What the search reads as a word: a run of letters and digits (formats/search/text.ts). */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const MIN_LENGTH = 3;

/** The stems a page word may have to be one of `query`'s words. */
export function queryStems(query: string, filler: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const w of words(query)) {
    if (w.length < MIN_LENGTH || /^\d+$/.test(w) || filler.has(w)) continue;
    for (const s of familyStems(w)) out.add(s);
  }
  return out;
}

/** `text` as HTML, each of its words whose stem is in `stems` in a <mark>. */
export function markWords(text: string, stems: ReadonlySet<string>): string {
  let html = '';
  let last = 0;
  for (const m of text.matchAll(WORD)) {
    const folded = words(m[0]);
    if (folded.length !== 1 || !stems.has(stem(folded[0]!))) continue;
    html += escapeHtml(text.slice(last, m.index)) + '<mark>' + escapeHtml(m[0]) + '</mark>';
    last = m.index + m[0].length;
  }
  return html + escapeHtml(text.slice(last));
}
