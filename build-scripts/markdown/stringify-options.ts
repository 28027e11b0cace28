/**
 * How the Markdown is written: the common GitHub style (`-` bullets, `_emphasis_`, `**strong**`,
 * fenced code, `---` rules), which also reads well as plain text.
 */
import type { Options } from 'remark-stringify';
import { dropAutolinkEscapes, escapeOnlyPresentCharacters } from './escaping.ts';
import { widenTableDelimiters } from './tables.ts';
import { rootWith } from './writer-state.ts';

export const stringifyOptions: Options = {
  bullet: '-',
  bulletOther: '*',
  emphasis: '_',
  strong: '*',
  rule: '-',
  fences: true,
  fence: '`',
  listItemIndent: 'one',
  incrementListMarker: true,
  resourceLink: false,
  closeAtx: false,
  setext: false,
  tightDefinitions: true,
  handlers: { root: rootWith(dropAutolinkEscapes, escapeOnlyPresentCharacters, widenTableDelimiters) },
};
