/**
 * Escapes only what would change the meaning. GFM's autolink-literal extension escapes `:` in
 * `https://`, `.` in `www.` and `@` in e-mail addresses so they do not turn into links; in page
 * text they are exactly that (addresses), and `info\@example.es` is noise for readers and
 * agents, so those three patterns are dropped.
 */
import type { WriterState } from './writer-state.ts';

type Unsafe = WriterState['unsafe'][number];

const autolinkLiteral = (p: Unsafe): boolean =>
  (p.character === '@' && p.before === '[+\\-.\\w]')
  || (p.character === '.' && p.before === '[Ww]')
  || (p.character === ':' && p.before === '[ps]' && p.after === '\\/');

export function dropAutolinkEscapes(state: WriterState): void {
  state.unsafe = state.unsafe.filter((p) => !autolinkLiteral(p));
}

/**
 * Same escaping, less work: the writer tries each of its ~60 rules as a regular expression on
 * every text; a rule whose character does not occur in the text cannot match, so only the rules
 * for characters present are handed over, and the writer skips the rest.
 */
export function escapeOnlyPresentCharacters(state: WriterState): void {
  const all = state.unsafe;
  const safe = state.safe.bind(state);
  state.safe = (value, config) => {
    const text = (config.before ?? '') + (value ?? '') + (config.after ?? '');
    state.unsafe = all.filter((p) => text.includes(p.character));
    try {
      return safe(value, config);
    } finally {
      state.unsafe = all;
    }
  };
}
