/**
 * Markdown tables (the guides') wrapped in a box that scrolls sideways on its own, so a wide table
 * never makes the whole page scroll on a phone. The box takes the keyboard focus, so it can be
 * scrolled without a pointer too. Wrapping in a <div> leaves the read model's Markdown as it was.
 */
import type { Root } from 'hast';
import { SKIP, visit } from 'unist-util-visit';

export function rehypeScrollTables() {
  return (tree: Root): void => {
    visit(tree, 'element', (node, index, parent) => {
      if (node.tagName !== 'table' || !parent || index === undefined) return;
      parent.children[index] = {
        type: 'element',
        tagName: 'div',
        properties: { className: ['table-wrap'], tabIndex: 0 },
        children: [node],
      };
      return SKIP;
    });
  };
}
