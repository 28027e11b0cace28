/**
 * hast-util-minify-whitespace 1.0.1 (what rehype-remark runs before converting), ported step for
 * step — same walk, same look-ahead, same results — with its tag-name lists as Sets. The library
 * rebuilds an `isElement` test from each list on every call, several calls per node: about a
 * fifth of the conversion time on the sample site; this port does the same work in a fraction
 * of it. to-mdast.ts runs it instead of the library's.
 *
 * Only the default mode (`newlines: false`, whitespace runs collapse to one space) is ported:
 * it is the one rehype-remark uses.
 */
import type { Element, Nodes, Parents, Text } from 'hast';

type WhiteSpace = 'normal' | 'nowrap' | 'pre' | 'pre-wrap';

interface State {
  whitespace: WhiteSpace;
  /** A break before: leading whitespace is removable. */
  before?: boolean | undefined;
  /** A break after: trailing whitespace is removable. */
  after?: boolean | undefined;
}

interface Result {
  remove: boolean;
  ignore: boolean;
  stripAtStart: boolean;
}

/** The library's lib/block.js. */
const BLOCKS: ReadonlySet<string> = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'br', 'caption', 'center', 'col', 'colgroup',
  'dd', 'dialog', 'dir', 'div', 'dl', 'dt', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2',
  'h3', 'h4', 'h5', 'h6', 'head', 'header', 'hgroup', 'hr', 'html', 'legend', 'li', 'listing', 'main',
  'menu', 'nav', 'ol', 'optgroup', 'option', 'p', 'plaintext', 'pre', 'section', 'summary', 'table',
  'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'wbr', 'xmp',
]);

/** lib/content.js plus hast-util-embedded: elements that contribute content of their own. */
const CONTENT: ReadonlySet<string> = new Set([
  'button', 'input', 'select', 'textarea',
  'audio', 'canvas', 'embed', 'iframe', 'img', 'math', 'object', 'picture', 'svg', 'video',
]);

/** lib/skippable.js. */
const SKIPPABLE: ReadonlySet<string> = new Set([
  'area', 'base', 'basefont', 'dialog', 'datalist', 'head', 'link', 'meta', 'noembed', 'noframes',
  'param', 'rp', 'script', 'source', 'style', 'template', 'track', 'title',
]);

const RUN = /[\t\n\v\f\r ]+/g;
/** hast-util-whitespace's notion of blank (no `\v`, unlike the collapse above). */
const BLANK = /^[ \t\n\f\r]*$/;

const isIgnorable = (node: Nodes | undefined): boolean => node !== undefined && (node.type === 'comment' || node.type === 'doctype');
const isBlock = (node: Nodes | undefined): boolean => node !== undefined && node.type === 'element' && BLOCKS.has(node.tagName);
const isContent = (node: Nodes | undefined): boolean => node !== undefined && node.type === 'element' && CONTENT.has(node.tagName);
const isSkippable = (node: Nodes): boolean =>
  (node.type === 'element' && Boolean(node.properties.hidden)) || isIgnorable(node) || (node.type === 'element' && SKIPPABLE.has(node.tagName));
const removable = (character: string): boolean => character === ' ' || character === '\n';

export function minifyWhitespace(tree: Nodes): void {
  minify(tree, { whitespace: 'normal' });
}

function minify(node: Nodes, state: State): Result {
  if ('children' in node) {
    const settings: State = { ...state };
    if (node.type === 'root' || isBlock(node)) {
      settings.before = true;
      settings.after = true;
    }
    settings.whitespace = inferWhiteSpace(node, state);
    return all(node, settings);
  }
  if (node.type === 'text') {
    if (state.whitespace === 'normal') return minifyText(node, state);
    // Naïve collapse, no trimming; `pre` and `pre-wrap` are left alone.
    if (state.whitespace === 'nowrap') node.value = node.value.replace(RUN, ' ');
  }
  return { ignore: isIgnorable(node), stripAtStart: false, remove: false };
}

function minifyText(node: Text, state: State): Result {
  const value = node.value.replace(RUN, ' ');
  const result: Result = { ignore: false, stripAtStart: false, remove: false };
  let start = 0;
  let end = value.length;
  if (state.before && removable(value.charAt(0))) start++;
  if (start !== end && removable(value.charAt(end - 1))) {
    if (state.after) end--;
    else result.stripAtStart = true;
  }
  if (start === end) result.remove = true;
  else node.value = value.slice(start, end);
  return result;
}

function all(parent: Parents, state: State): Result {
  let before = state.before;
  const after = state.after;
  const children = parent.children as Nodes[];
  let length = children.length;
  let index = -1;
  while (++index < length) {
    const result = minify(children[index]!, { ...state, after: collapsableAfter(children, index, after), before });
    if (result.remove) {
      children.splice(index, 1);
      index--;
      length--;
    } else if (!result.ignore) {
      before = result.stripAtStart;
    }
    // An element such as `<select>` or `<img>` contributes content: whitespace is allowed again.
    if (isContent(children[index])) before = false;
  }
  return { ignore: false, stripAtStart: Boolean(before || after), remove: false };
}

function collapsableAfter(nodes: Nodes[], index: number, after?: boolean): boolean | undefined {
  while (++index < nodes.length) {
    const node = nodes[index]!;
    let result = inferBoundary(node);
    if (result === undefined && 'children' in node && !isSkippable(node)) result = collapsableAfter(node.children as Nodes[], -1);
    if (typeof result === 'boolean') return result;
  }
  return after;
}

/** `true`: whitespace around it adds nothing; `false`: it does; `undefined`: unknown. */
function inferBoundary(node: Nodes): boolean | undefined {
  if (node.type === 'element') {
    if (CONTENT.has(node.tagName)) return false;
    if (BLOCKS.has(node.tagName)) return true;
  } else if (node.type === 'text') {
    if (!BLANK.test(node.value)) return false;
  } else if (!isIgnorable(node)) {
    return false;
  }
  return undefined;
}

function inferWhiteSpace(node: Parents, state: State): WhiteSpace {
  if (node.type === 'element' && node.properties) {
    switch ((node as Element).tagName) {
      // Whitespace in script/style may mean something to JS/CSS.
      case 'listing':
      case 'plaintext':
      case 'script':
      case 'style':
      case 'xmp':
        return 'pre';
      case 'nobr':
        return 'nowrap';
      case 'pre':
        return node.properties.wrap ? 'pre-wrap' : 'pre';
      case 'td':
      case 'th':
        return node.properties.noWrap ? 'nowrap' : state.whitespace;
      case 'textarea':
        return 'pre-wrap';
      default:
    }
  }
  return state.whitespace;
}
