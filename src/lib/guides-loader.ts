/**
 * The guides collection's loader: each `*.md` file of `base` is an entry (its name without `.md`
 * is its id) holding its frontmatter, its path and its text's digest, but neither its Markdown nor
 * its HTML. Astro rewrites and bundles its whole content store on every build, so a store holding
 * every guide's text and HTML costs each build time in proportion to the site; a guide's page
 * renders its file itself (guide-markdown.ts), keyed by this digest (cache-key.ts).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFrontmatter } from '@astrojs/markdown-remark';
import type { Loader, LoaderContext } from 'astro/loaders';

const MARKDOWN = /\.md$/;

export function guidesLoader(options: { base: string }): Loader {
  return {
    name: 'agentes-guides',
    async load(ctx: LoaderContext): Promise<void> {
      const root = fileURLToPath(ctx.config.root);
      const dir = path.resolve(root, options.base);
      const untouched = new Set(ctx.store.keys());
      const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => MARKDOWN.test(n)).sort();
      for (const name of names) {
        untouched.delete(name.replace(MARKDOWN, ''));
        await sync(ctx, root, path.join(dir, name));
      }
      for (const id of untouched) ctx.store.delete(id);
      // `astro dev`: an edited, added or removed guide is loaded again on its own.
      ctx.watcher?.add(dir);
      const inDir = (file: string) => path.dirname(file) === dir && MARKDOWN.test(file);
      ctx.watcher?.on('change', (file) => { if (inDir(file)) void sync(ctx, root, file); });
      ctx.watcher?.on('add', (file) => { if (inDir(file)) void sync(ctx, root, file); });
      ctx.watcher?.on('unlink', (file) => { if (inDir(file)) ctx.store.delete(path.basename(file).replace(MARKDOWN, '')); });
    },
  };
}

/** Stores one guide file's entry, unless the store holds it with the same digest already. */
async function sync(ctx: LoaderContext, root: string, file: string): Promise<void> {
  const id = path.basename(file).replace(MARKDOWN, '');
  const text = await fs.readFile(file, 'utf8');
  const digest = ctx.generateDigest(text);
  const filePath = path.relative(root, file).split(path.sep).join('/');
  const known = ctx.store.get(id);
  if (known?.digest === digest && known.filePath === filePath) return;
  const data = await ctx.parseData({ id, data: parseFrontmatter(text).frontmatter as Record<string, unknown>, filePath: file });
  ctx.store.set({ id, data, filePath, digest });
}
