/**
 * Code blocks keep their language: Astro's Shiki output marks it as `data-language` on `<pre>`,
 * while the Markdown converter reads only `class="language-*"` on the inner `<code>`.
 */
import type { Element, Root } from 'hast';
import { SKIP, walkElements } from './walk.ts';

export function codeBlocks() {
  return (tree: Root): Root => {
    walkElements(tree, (node) => {
      if (node.tagName !== 'pre') return;
      const lang = node.properties.dataLanguage;
      const code = node.children.find((c): c is Element => c.type === 'element' && c.tagName === 'code');
      if (typeof lang !== 'string' || !lang || lang === 'plaintext' || !code) return;
      const classes = Array.isArray(code.properties.className) ? code.properties.className : [];
      if (!classes.some((c) => String(c).startsWith('language-'))) code.properties.className = [...classes, `language-${lang}`];
      return SKIP;
    });
    return tree;
  };
}
