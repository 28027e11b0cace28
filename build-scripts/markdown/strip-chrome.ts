/**
 * Removes what is not content: site chrome that may sit inside `<main>` (asides, navs, breadcrumb
 * footers), interactive widgets, scripts, and anything the page hides or excludes from search.
 * The same `data-pagefind-ignore` marks keep it out of the search index, so Markdown and index agree.
 */
import type { Element, Root, RootContent } from 'hast';

const DROPPED_TAGS = new Set([
  'header', 'nav', 'footer', 'aside', 'script', 'style', 'noscript', 'template', 'form', 'button',
  'svg', 'iframe', 'object', 'embed', 'canvas', 'dialog', 'select', 'input', 'textarea', 'label',
]);

function isChrome(node: Element): boolean {
  if (DROPPED_TAGS.has(node.tagName)) return true;
  const p = node.properties;
  return p.hidden !== undefined && p.hidden !== false
    || p.dataPagefindIgnore !== undefined
    || String(p.ariaHidden) === 'true';
}

function prune(children: RootContent[]): RootContent[] {
  const kept: RootContent[] = [];
  for (const child of children) {
    if (child.type === 'comment' || child.type === 'doctype') continue;
    // Source positions are never used downstream, and the HTML→mdast step deep-clones the tree:
    // dropping them here halves that copy.
    delete child.position;
    if (child.type === 'element') {
      if (isChrome(child)) continue;
      child.children = prune(child.children as RootContent[]) as Element['children'];
    }
    kept.push(child);
  }
  return kept;
}

export function stripChrome() {
  return (tree: Root): Root => {
    delete tree.position;
    tree.children = prune(tree.children);
    return tree;
  };
}
