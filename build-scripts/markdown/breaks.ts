/**
 * A `<br>` becomes a plain line break in the Markdown source rather than a hard break (`\` at
 * the end of the line): addresses and timetables read the same, without a backslash on each line.
 */
import type { Nodes, Root, Text } from 'mdast';

function soften(node: Nodes): void {
  if (!('children' in node)) return;
  const children = node.children as Nodes[];
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (child.type !== 'break') {
      soften(child);
      continue;
    }
    // A break that ends its paragraph adds nothing.
    const replacement: Text[] = i + 1 < children.length ? [{ type: 'text', value: '\n' }] : [];
    children.splice(i, 1, ...replacement);
    i -= 1 - replacement.length;
  }
}

export function breaks() {
  return (tree: Root): Root => {
    soften(tree);
    return tree;
  };
}
