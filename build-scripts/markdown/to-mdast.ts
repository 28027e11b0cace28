/**
 * hast → mdast through rehype-remark, without two costs its transform (`toMdast`) always pays:
 * it deep-clones the tree so it may modify it (ours is consumed anyway), then runs
 * hast-util-minify-whitespace, whose tag tests are rebuilt on every call — together about a
 * quarter of the conversion time on the sample site. Neither can be turned off by an option, so:
 *
 *   - `minifiedStandIn` (a rehype plugin, just before rehype-remark) minifies the whitespace with
 *     an exact port of the library (minify-whitespace.ts) and hands on an empty root standing in
 *     for the page: rehype-remark has nothing to clone or minify;
 *   - `rehypeRemarkOptions` gives rehype-remark a `root` handler that converts the page the
 *     stand-in holds with the library's own handlers, after recording element ids as `toMdast`
 *     would (`<input list>` looks up its `<datalist>` by id).
 *
 * Everything else — handlers, state, the final text clean-up — is rehype-remark's, unchanged.
 */
import type { Element, Root } from 'hast';
import { defaultNodeHandlers, type NodeHandle } from 'hast-util-to-mdast';
import type { Options } from 'rehype-remark';
import { minifyWhitespace } from './minify-whitespace.ts';
import { walkElements } from './walk.ts';

type State = Parameters<NodeHandle>[0];

/**
 * The page the next stand-in stands for. `toMdast` clones what it is given (so no identity or
 * `data` survives cheaply); conversion is synchronous, so the page is handed over here, one at a
 * time (each worker thread has its own module).
 */
let pending: Root | null = null;

function recordIds(state: State, tree: Root): void {
  walkElements(tree, (node: Element) => {
    const id = String(node.properties.id || '') || undefined;
    if (id && !state.elementById.has(id)) state.elementById.set(id, node);
  });
}

export function minifiedStandIn() {
  return (tree: Root): Root => {
    minifyWhitespace(tree);
    pending = tree;
    return { type: 'root', children: [] } satisfies Root;
  };
}

const root: NodeHandle = (state, node, parent) => {
  const page = parent === undefined ? pending : null;
  if (page === null) return defaultNodeHandlers.root(state, node);
  pending = null;
  recordIds(state, page);
  return defaultNodeHandlers.root(state, page);
};

export const rehypeRemarkOptions: Options = { nodeHandlers: { root } };
