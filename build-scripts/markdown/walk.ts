/**
 * A plain depth-first walk over hast elements. unist-util-visit builds an ancestor stack and a
 * test function per call, a fifth of the conversion time across the plugins; this loop is all
 * they need.
 *
 * `fn` may replace or remove `parent.children[index]`; it returns the index to continue at
 * (default: the next one) or `SKIP` to leave the element's children unvisited.
 */
import type { Element, Root, RootContent, Text } from 'hast';

export const SKIP = -1;

type Parent = Root | Element;
export type ElementVisitor = (node: Element, parent: Parent, index: number) => number | void;

export function walkElements(parent: Parent, fn: ElementVisitor): void {
  const children = parent.children as RootContent[];
  let i = 0;
  while (i < children.length) {
    const node = children[i]!;
    if (node.type !== 'element') {
      i++;
      continue;
    }
    const next = fn(node, parent, i);
    if (next === SKIP) {
      i++;
      continue;
    }
    if (children[i] === node) walkElements(node, fn);
    i = next ?? i + 1;
  }
}

export function walkText(parent: Parent, fn: (node: Text) => void): void {
  for (const node of parent.children) {
    if (node.type === 'text') fn(node);
    else if (node.type === 'element') walkText(node, fn);
  }
}
