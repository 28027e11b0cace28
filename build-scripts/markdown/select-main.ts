/**
 * Keeps only the page's main content. Pages mark it with `<main>` (Pagefind reads the same
 * region through `data-pagefind-body`); `[role=main]` and then `<body>` are fallbacks so a page
 * without `<main>` still converts instead of silently yielding menus.
 */
import type { Element, Root } from 'hast';
import { select } from 'hast-util-select';

export function selectMain() {
  return (tree: Root): Root => {
    const main: Element | undefined =
      select('main', tree) ?? select('[role=main]', tree) ?? select('body', tree);
    if (main) tree.children = [main];
    return tree;
  };
}
