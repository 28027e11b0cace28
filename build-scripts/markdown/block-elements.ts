/** Elements that start a block (flow content) rather than sit inside a line of text. */
import type { ElementContent } from 'hast';

export const BLOCK_ELEMENTS: ReadonlySet<string> = new Set([
  'address', 'article', 'aside', 'blockquote', 'details', 'dialog', 'dd', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'header', 'hgroup', 'hr', 'li', 'main', 'menu', 'nav', 'ol', 'p', 'pre', 'section', 'summary',
  'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'ul',
]);

export const isBlock = (node: ElementContent): boolean => node.type === 'element' && BLOCK_ELEMENTS.has(node.tagName);
