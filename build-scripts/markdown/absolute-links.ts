/**
 * Makes every link absolute on the page's own URL, so Markdown read out of context (by an agent,
 * from the API) still points at the right pages. Links that cannot be followed (`javascript:`,
 * empty, unparsable) are unwrapped to their text.
 */
import type { ElementContent, Root } from 'hast';
import type { Transformer } from 'unified';
import { baseUrlOf } from './base-url.ts';
import { walkElements } from './walk.ts';

export function absoluteUrl(raw: string, base: URL): string | null {
  const value = raw.trim();
  if (!value) return null;
  let url: URL;
  try { url = new URL(value, base); } catch { return null; }
  if (url.protocol === 'javascript:' || url.protocol === 'data:') return null;
  return url.href;
}

export function absoluteLinks(): Transformer<Root, Root> {
  return (tree, file) => {
    const base = baseUrlOf(file);
    walkElements(tree, (node, parent, index) => {
      if (node.tagName !== 'a') return;
      const href = typeof node.properties.href === 'string' ? absoluteUrl(node.properties.href, base) : null;
      if (href) {
        node.properties.href = href;
        return;
      }
      parent.children.splice(index, 1, ...(node.children as ElementContent[]));
      return index;
    });
  };
}
