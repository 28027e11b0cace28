/**
 * Markdown: parses each page's built HTML, converts its main content (see build-scripts/markdown/)
 * and hashes it, then writes `pages/<slug>.json`. One tree at a time is alive.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Element, Root } from 'hast';
import { select } from 'hast-util-select';
import { hastToMarkdown, parseHtml } from '../markdown/index.ts';
import type { BuildContext, CrawledPage, PageMeta, ReadModelPage } from '../context.ts';
import { forPage } from '../errors.ts';
import { writeJson } from '../files.ts';

export const STAGE = 'markdown';

export function pageHash(title: string, markdown: string): string {
  return createHash('sha256').update(`${title}\n${markdown}`).digest('hex');
}

function toPage(meta: PageMeta, markdown: string): ReadModelPage {
  const { hasH1: _hasH1, ...fields } = meta;
  return { ...fields, markdown, hash: pageHash(meta.title, markdown) };
}

function addHeading(tree: Root, title: string): void {
  const container = select('main', tree) ?? select('[role=main]', tree) ?? select('body', tree);
  const h1: Element = { type: 'element', tagName: 'h1', properties: {}, children: [{ type: 'text', value: title }] };
  if (container) container.children.unshift(h1);
}

export async function markdown(ctx: BuildContext, crawled: CrawledPage[], metas: PageMeta[]): Promise<ReadModelPage[]> {
  const pages: ReadModelPage[] = [];
  for (const [i, page] of crawled.entries()) {
    const meta = metas[i]!;
    const result = await forPage(STAGE, page.path, async () => {
      const tree = parseHtml(await fs.readFile(page.file, 'utf8'));
      // The title heads every page's Markdown, also when it came from <title>, not an <h1>.
      if (!meta.hasH1) addHeading(tree, meta.title);
      const md = hastToMarkdown(tree, { baseUrl: meta.url });
      const out = toPage(meta, md);
      await writeJson(path.join(ctx.stagingDir, 'pages', `${out.slug}.json`), out);
      return out;
    });
    pages.push(result);
    ctx.progress(pages.length, crawled.length);
  }
  return pages;
}
