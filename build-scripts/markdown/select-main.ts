/**
 * Keeps only the page's main content. Pages mark it with `<main>` (Pagefind reads the same
 * region through `data-pagefind-body`); `[role=main]` and then `<body>` are fallbacks so a page
 * without `<main>` still converts instead of silently yielding menus.
 */
import type { Element, Root } from 'hast';
import { select } from 'hast-util-select';

/** The first `<main>` in document order, as `select('main')` finds it, without parsing a selector per page. */
function firstMain(parent: Root | Element): Element | undefined {
  for (const node of parent.children) {
    if (node.type !== 'element') continue;
    if (node.tagName === 'main') return node;
    const inner = firstMain(node);
    if (inner) return inner;
  }
  return undefined;
}

/** The element holding the page's main content, or undefined for a document without a body. */
export function mainContainer(tree: Root): Element | undefined {
  return firstMain(tree) ?? select('[role=main]', tree) ?? select('body', tree);
}

export function selectMain() {
  return (tree: Root): Root => {
    const main = mainContainer(tree);
    if (main) tree.children = [main];
    return tree;
  };
}
