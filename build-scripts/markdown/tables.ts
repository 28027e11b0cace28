/**
 * Shapes HTML tables so they survive as GFM tables: a GFM cell is one line of phrasing, so block
 * content and line breaks inside cells are flattened; a table without a header row gets its first
 * row promoted (GFM requires one, and an empty header row reads as noise); the caption, which GFM
 * cannot hold, becomes a paragraph just before the table.
 */
import type { Element, ElementContent, Root, RootContent } from 'hast';
import { isBlock } from './block-elements.ts';
import { walkElements } from './walk.ts';
import type { WriterState } from './writer-state.ts';

const text = (value: string): ElementContent => ({ type: 'text', value });

/** Inline content of a cell, with block boundaries and `<br>` turned into separators. */
function flatten(children: ElementContent[]): ElementContent[] {
  const out: ElementContent[] = [];
  const separate = (sep: string) => {
    if (out.length > 0) out.push(text(sep));
  };
  for (const child of children) {
    if (child.type !== 'element') {
      out.push(child);
    } else if (child.tagName === 'br') {
      separate(' ');
    } else if (isBlock(child)) {
      const inner = flatten(child.children);
      if (inner.length === 0) continue;
      separate(child.tagName === 'li' || child.tagName === 'dd' ? '; ' : ' ');
      out.push(...inner);
    } else {
      child.children = flatten(child.children);
      out.push(child);
    }
  }
  return out;
}

function rowsOf(table: Element): Element[] {
  const rows: Element[] = [];
  for (const child of table.children) {
    if (child.type !== 'element') continue;
    if (child.tagName === 'tr') rows.push(child);
    else if (child.tagName === 'thead' || child.tagName === 'tbody' || child.tagName === 'tfoot') {
      for (const row of child.children) if (row.type === 'element' && row.tagName === 'tr') rows.push(row);
    }
  }
  return rows;
}

function cellsOf(row: Element): Element[] {
  return row.children.filter((c): c is Element => c.type === 'element' && (c.tagName === 'td' || c.tagName === 'th'));
}

function promoteHeader(table: Element): void {
  const hasHead = table.children.some((c) => c.type === 'element' && c.tagName === 'thead');
  const first = rowsOf(table)[0];
  if (hasHead || !first || cellsOf(first).some((c) => c.tagName === 'th')) return;
  for (const cell of cellsOf(first)) cell.tagName = 'th';
}

export function tables() {
  return (tree: Root): Root => {
    walkElements(tree, (node, parent, index) => {
      if (node.tagName !== 'table') return;
      const caption = node.children.find((c): c is Element => c.type === 'element' && c.tagName === 'caption');
      promoteHeader(node);
      for (const row of rowsOf(node)) for (const cell of cellsOf(row)) cell.children = flatten(cell.children);
      if (!caption) return;
      node.children = node.children.filter((c) => c !== caption);
      const paragraph: Element = { type: 'element', tagName: 'p', properties: {}, children: flatten(caption.children) };
      parent.children.splice(index, 0, paragraph as RootContent & ElementContent);
      return index + 2;
    });
    return tree;
  };
}

/**
 * Unpadded GFM tables (see index.ts) get a one-dash delimiter row (`| - | - |`); three dashes is
 * what every Markdown reader accepts, so the writer's table output is widened.
 */
export function widenTableDelimiters(state: WriterState): void {
  const table = state.handlers.table;
  if (!table || (table as { widened?: true }).widened) return;
  const widened = ((...args: Parameters<typeof table>) => {
    const out = table(...args);
    const lines = out.split('\n');
    if (lines[1]) lines[1] = lines[1].replace(/(?<=\| ?)(:?)-(:?)(?= ?\|)/g, '$1---$2');
    return lines.join('\n');
  }) as typeof table & { widened?: true };
  widened.widened = true;
  state.handlers.table = widened;
}
