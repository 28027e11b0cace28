/**
 * Images become `![alt](absolute-src)`: the alt text is what an agent can use, so images without
 * one (decorative, `role=presentation`) are dropped rather than emitted as empty `![](…)`.
 * `<picture>` collapses to its `<img>`; a missing `src` falls back to the first `srcset` candidate.
 */
import type { Element, Root } from 'hast';
import type { Transformer } from 'unified';
import { absoluteUrl } from './absolute-links.ts';
import { baseUrlOf } from './base-url.ts';
import { walkElements } from './walk.ts';

function source(node: Element): string {
  const { src, srcSet } = node.properties;
  if (typeof src === 'string' && src.trim()) return src;
  const first = Array.isArray(srcSet) ? String(srcSet[0] ?? '') : typeof srcSet === 'string' ? srcSet.split(',')[0] ?? '' : '';
  return first.trim().split(/\s+/)[0] ?? '';
}

function isDecorative(node: Element): boolean {
  const alt = node.properties.alt;
  return typeof alt !== 'string' || alt.trim() === '' || node.properties.role === 'presentation';
}

export function images(): Transformer<Root, Root> {
  return (tree, file) => {
    const base = baseUrlOf(file);
    walkElements(tree, (node, parent, index) => {
      if (node.tagName === 'picture') {
        const img = node.children.find((c): c is Element => c.type === 'element' && c.tagName === 'img');
        parent.children.splice(index, 1, ...(img ? [img] : []));
        return index;
      }
      if (node.tagName !== 'img') return;
      const src = absoluteUrl(source(node), base);
      if (!src || isDecorative(node)) {
        parent.children.splice(index, 1);
        return index;
      }
      node.properties = { src, alt: String(node.properties.alt).trim(), title: node.properties.title };
    });
  };
}

