// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import sitemap from '@astrojs/sitemap';

// SITE_URL is the public identity of the site (canonical links, API URLs); it is not
// the address the server listens on, so tests and proxies can differ from it.
const site = (process.env.SITE_URL || 'http://localhost:4321').replace(/\/+$/, '');

export default defineConfig({
  site,
  trailingSlash: 'always',
  output: 'static',
  adapter: node({ mode: 'middleware' }),
  build: { format: 'directory' },
  // Every built page is listed; the 404 page is left out by the integration itself.
  integrations: [sitemap()],
  compressHTML: true,
  server: { port: Number(process.env.PORT || 4321) },
  devToolbar: { enabled: false },
});
