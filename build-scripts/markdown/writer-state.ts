/**
 * Per-document tweaks of the Markdown writer. remark-stringify has no hook to remove a default
 * escape rule or post-process one construct, so the `root` handler (run once per document,
 * before anything is written) applies each tweak to the writer state, then writes the document.
 */
import type { Root } from 'mdast';
import type { Options } from 'remark-stringify';

export type Handle = NonNullable<NonNullable<Options['handlers']>['root']>;
export type WriterState = Parameters<Handle>[2];

export function rootWith(...tweaks: ((state: WriterState) => void)[]): Handle {
  return (node: Root, _parent, state, info) => {
    for (const tweak of tweaks) tweak(state);
    return state.containerFlow(node, info);
  };
}
