import type { APIRoute } from 'astro';

/**
 * Built to dist as a static file; the sitemap address follows SITE_URL. `Content-Signal`
 * (contentsignals.org) states what the site allows of its content: search indexes and answers
 * built from it (ai-input: agents reading pages, as the API invites them to), not model training.
 */
export const CONTENT_SIGNAL = 'search=yes, ai-input=yes, ai-train=no';

export const GET: APIRoute = ({ site }) => {
  if (!site) throw new Error('astro.config.mjs must set `site`');
  const body = `User-agent: *\nContent-Signal: ${CONTENT_SIGNAL}\nAllow: /\n\nSitemap: ${new URL('/sitemap-index.xml', site).href}\n`;
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
