/**
 * Lists stay tight unless an item really holds several blocks. The HTML→mdast step marks any item
 * with a nested list of two or more entries as "spread", which would put blank lines between
 * every item of an ordinary nested list.
 */
import type { ListItem, Nodes, Root } from 'mdast';

const isSpread = (item: ListItem): boolean => item.children.filter((c) => c.type !== 'list').length > 1;

function tighten(node: Nodes): void {
  if (node.type === 'list') {
    for (const item of node.children) item.spread = isSpread(item);
    node.spread = node.children.some((item) => item.spread);
  }
  if ('children' in node) for (const child of node.children) tighten(child);
}

export function tightLists() {
  return (tree: Root): Root => {
    tighten(tree);
    return tree;
  };
}
