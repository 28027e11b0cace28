/**
 * Question-and-answer markup reads as such in Markdown: a `<summary>` (FAQ entries in
 * `<details>`) becomes a bold line unless it already holds a heading, and a definition list
 * becomes `**term**: definition` paragraphs instead of a list of bare terms.
 */
import type { Element, ElementContent, Root } from 'hast';
import { isBlock } from './block-elements.ts';
import { walkElements } from './walk.ts';

const el = (tagName: string, children: ElementContent[]): Element => ({ type: 'element', tagName, properties: {}, children });
const text = (value: string): ElementContent => ({ type: 'text', value });
const isBlank = (c: ElementContent) => c.type === 'text' && !c.value.trim();

function summary(node: Element): void {
  const blocks = node.children.some(isBlock);
  node.tagName = 'div';
  if (!blocks) node.children = [el('p', [el('strong', node.children)])];
}

function definitionList(node: Element): ElementContent[] {
  const out: ElementContent[] = [];
  let term: ElementContent[] | null = null;
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    if (child.tagName === 'div') {
      out.push(...definitionList(child));
    } else if (child.tagName === 'dt') {
      if (term) out.push(el('p', [el('strong', term)]));
      term = child.children;
    } else if (child.tagName === 'dd') {
      const inline = !child.children.some(isBlock);
      if (term && inline) out.push(el('p', [el('strong', term), text(': '), ...child.children.filter((c) => !isBlank(c))]));
      else out.push(...(term ? [el('p', [el('strong', term)])] : []), el('div', child.children));
      term = null;
    }
  }
  if (term) out.push(el('p', [el('strong', term)]));
  return out;
}

export function disclosure() {
  return (tree: Root): Root => {
    walkElements(tree, (node, parent, index) => {
      if (node.tagName === 'summary') summary(node);
      if (node.tagName === 'details') node.tagName = 'div';
      if (node.tagName === 'dl') parent.children.splice(index, 1, el('div', definitionList(node)));
    });
    return tree;
  };
}
