/**
 * HTML page → Markdown of its main content. One processor is built once and reused for every
 * page (building it is the expensive part); the page URL travels on the file, not the processor.
 *
 *   parse (rehype-parse's parser, without positions) → select-main → strip-chrome → normalize-text → headings → absolute-links
 *   → images → tables → disclosure → code-blocks → minified stand-in → rehype-remark (to-mdast.ts) → tight-lists → breaks
 *   → remark-gfm → remark-stringify
 */
import type { Root } from 'hast';
import { fromParse5 } from 'hast-util-from-parse5';
import { parse } from 'parse5';
import rehypeRemark from 'rehype-remark';
import remarkGfm from 'remark-gfm';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';
import { absoluteLinks } from './absolute-links.ts';
import { breaks } from './breaks.ts';
import { codeBlocks } from './code-blocks.ts';
import { disclosure } from './disclosure.ts';
import { headings } from './headings.ts';
import { images } from './images.ts';
import { normalizeText } from './normalize-text.ts';
import { selectMain } from './select-main.ts';
import { stringifyOptions } from './stringify-options.ts';
import { stripChrome } from './strip-chrome.ts';
import { tables } from './tables.ts';
import { tightLists } from './tight-lists.ts';
import { minifiedStandIn, rehypeRemarkOptions } from './to-mdast.ts';

export interface MarkdownOptions {
  /** The page's own URL (on SITE_URL): relative links and images resolve against it. */
  baseUrl: string | URL;
}

const converter = unified()
  .use(selectMain)
  .use(stripChrome)
  .use(normalizeText)
  .use(headings)
  .use(absoluteLinks)
  .use(images)
  .use(tables)
  .use(disclosure)
  .use(codeBlocks)
  .use(minifiedStandIn)
  .use(rehypeRemark, rehypeRemarkOptions)
  .use(tightLists)
  .use(breaks)
  // Unpadded tables: padding to align pipes multiplies a long cell's width into every row.
  .use(remarkGfm, { tablePipeAlign: false })
  .use(remarkStringify, stringifyOptions)
  .freeze();

/**
 * Parses a whole HTML document (the crawler parses each page once and shares the tree). This is
 * exactly what rehype-parse does — parse5 (scripting off), then hast-util-from-parse5 — minus
 * source positions, which nothing downstream reads: tracking them costs about a third of the
 * parse and three objects per node held until the page is converted.
 */
export function parseHtml(html: string): Root {
  return fromParse5(parse(html, { scriptingEnabled: false })) as Root;
}

/** Converts a parsed page. The tree is consumed: it is modified in place. */
export function hastToMarkdown(tree: Root, { baseUrl }: MarkdownOptions): string {
  const file = { data: { baseUrl: new URL(baseUrl) } };
  const mdast = converter.runSync(tree, file as never);
  return String(converter.stringify(mdast, file as never)).trim() + '\n';
}

export function htmlToMarkdown(html: string, options: MarkdownOptions): string {
  return hastToMarkdown(parseHtml(html), options);
}
