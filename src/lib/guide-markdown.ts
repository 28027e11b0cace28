/**
 * The guides' Markdown as their pages show it. Astro's own rendering keeps every guide's HTML in
 * its content store, which it rewrites and bundles whole on every build: on a site of many guides
 * that store, not the pages an edit touches, is what a build spends its time on. So the store
 * keeps a guide's frontmatter and digest (guides-loader.ts) and its page renders the file with the
 * processor Astro is configured with (astro.config.mjs takes `markdownProcessor` from here).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { markdownConfigDefaults, parseFrontmatter, unified, type MarkdownRenderer } from '@astrojs/markdown-remark';
import { rehypeScrollTables } from './rehype-scroll-tables.ts';

/** remark/rehype, as the read model's Markdown and the guides' HTML are made with. */
export const markdownProcessor = unified({ rehypePlugins: [rehypeScrollTables] });

let renderer: Promise<MarkdownRenderer> | undefined;

/** The HTML of a guide file's Markdown (`text`, frontmatter included): what its page's article holds. */
export async function renderGuideMarkdown(text: string, file?: string): Promise<string> {
  const { frontmatter, content } = parseFrontmatter(text, { frontmatter: 'empty-with-spaces' });
  renderer ??= markdownProcessor.createRenderer({
    syntaxHighlight: markdownConfigDefaults.syntaxHighlight,
    shikiConfig: markdownConfigDefaults.shikiConfig,
    gfm: markdownConfigDefaults.gfm,
    smartypants: markdownConfigDefaults.smartypants,
  });
  const result = await (await renderer).render(content.trim(), { frontmatter, ...(file ? { fileURL: pathToFileURL(file) } : {}) });
  return result.code;
}

/** The HTML of the guide file at `file` (relative to the project's root, as the content store records it). */
export async function renderGuideFile(file: string, root = process.cwd()): Promise<string> {
  const absolute = path.resolve(root, file);
  return renderGuideMarkdown(await fs.readFile(absolute, 'utf8'), absolute);
}
