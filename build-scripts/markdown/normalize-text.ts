/**
 * Plain spaces instead of no-break and thin spaces, and no invisible characters: agents and search
 * match on text, and Markdown writers encode a no-break space at a line edge as `&#xA0;`.
 */
import type { Root } from 'hast';
import { walkText } from './walk.ts';

const SPACES = /[\u00A0\u2007\u202F]/g;
const INVISIBLE = /[\u00AD\u200B\u200C\u200D\u2060\uFEFF]/g;

export function normalizeText() {
  return (tree: Root): Root => {
    walkText(tree, (node) => {
      node.value = node.value.replace(SPACES, ' ').replace(INVISIBLE, '');
    });
    return tree;
  };
}
