// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import sitemap from '@astrojs/sitemap';
import { siteUrlFrom } from './formats/settings.ts';
import { SEARCH_PAGE_PATH } from './formats/search-page.ts';
import { markdownProcessor } from './src/lib/guide-markdown.ts';

// SITE_URL, read as the server and the read-model build read it (formats/settings.ts).
const site = siteUrlFrom(process.env);

export default defineConfig({
  site,
  trailingSlash: 'always',
  output: 'static',
  adapter: node({ mode: 'middleware' }),
  // One page at a time, Astro's default: the incremental build below is used only so.
  build: { format: 'directory', concurrency: 1 },
  // Every built page is listed but the search results' shell, which the server fills per request;
  // the 404 page is left out by the integration itself.
  integrations: [sitemap({ filter: (page) => new URL(page).pathname !== SEARCH_PAGE_PATH })],
  compressHTML: true,
  // remark/rehype, as the read model's Markdown and the guides' HTML were made with (Astro's
  // default processor, Sätteri, writes some constructs differently): the one the guides' pages
  // render their files with (src/lib/guide-markdown.ts). Plugins live in src/lib/{remark,rehype}-*.ts.
  markdown: { processor: markdownProcessor },
  server: { port: Number(process.env.PORT || 4321) },
  devToolbar: { enabled: false },
  // Pages of getStaticPaths routes come back from the last build while their cacheKey
  // (src/lib/cache-key.ts) and code are unchanged; `npm run build -- --full` renders them all.
  experimental: { incrementalBuild: true },
});
