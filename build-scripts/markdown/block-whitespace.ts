/**
 * Drops the whitespace-only text nodes that the whitespace minifier (minify-whitespace.ts, run by
 * to-mdast.ts) would drop anyway: those at the start of a block element and those right after a
 * block element, where white-space is `normal`. Half the text nodes of the sample site's main
 * content are such indentation; removing them in one cheap pass leaves the Markdown byte for byte
 * the same and spares the minifier's per-node look-ahead.
 *
 * "Block" is the minifier's own list (its lib/block.js); elements that change white-space handling
 * (pre and its legacy kin, textarea, nobr, cells with `nowrap`) are not entered.
 */
import type { Element, Root } from 'hast';

const BLOCKS: ReadonlySet<string> = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'br', 'caption', 'center', 'col', 'colgroup',
  'dd', 'dialog', 'dir', 'div', 'dl', 'dt', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2',
  'h3', 'h4', 'h5', 'h6', 'head', 'header', 'hgroup', 'hr', 'html', 'legend', 'li', 'listing', 'main',
  'menu', 'nav', 'ol', 'optgroup', 'option', 'p', 'plaintext', 'pre', 'section', 'summary', 'table',
  'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'wbr', 'xmp',
]);

/** Elements whose white-space is not `normal` (the minifier keeps their whitespace). */
const PRESERVING: ReadonlySet<string> = new Set(['pre', 'listing', 'plaintext', 'xmp', 'textarea', 'nobr', 'script', 'style']);

const WHITESPACE_ONLY = /^[\t\n\v\f\r ]*$/;

function prune(parent: Root | Element, parentIsBlock: boolean): void {
  const children = parent.children;
  let out = 0;
  for (let i = 0; i < children.length; i++) {
    const node = children[i]!;
    if (node.type === 'text' && WHITESPACE_ONLY.test(node.value)) {
      const prev = out === 0 ? undefined : children[out - 1]!;
      // Only whitespace was dropped before it: the minifier is still at the parent's start.
      const afterBoundary = prev === undefined ? parentIsBlock : prev.type === 'element' && BLOCKS.has(prev.tagName);
      if (afterBoundary) continue;
    }
    if (node.type === 'element' && !PRESERVING.has(node.tagName) && !((node.tagName === 'td' || node.tagName === 'th') && node.properties.noWrap)) {
      prune(node, BLOCKS.has(node.tagName));
    }
    children[out++] = node;
  }
  children.length = out;
}

export function blockWhitespace() {
  return (tree: Root): void => {
    prune(tree, true);
  };
}
