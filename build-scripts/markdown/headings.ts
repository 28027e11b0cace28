/**
 * Drops heading permalinks (`<h2 id="x">Título <a href="#x">#</a></h2>`, as added by
 * rehype-autolink-headings and similar): in Markdown they are a stray `[#](…)` in every title.
 */
import type { Element, Root } from 'hast';
import { toString } from 'hast-util-to-string';
import { SKIP, walkElements } from './walk.ts';

const HEADING = /^h[1-6]$/;
const SYMBOLS = /^[\s#¶§🔗]*$/u;

function isPermalink(node: Element): boolean {
  const href = node.properties.href;
  return node.tagName === 'a' && typeof href === 'string' && href.startsWith('#') && SYMBOLS.test(toString(node));
}

export function headings() {
  return (tree: Root): Root => {
    walkElements(tree, (node) => {
      if (!HEADING.test(node.tagName)) return;
      walkElements(node, (child, parent, index) => {
        if (!isPermalink(child)) return;
        parent.children.splice(index, 1);
        return index;
      });
      return SKIP;
    });
    return tree;
  };
}
