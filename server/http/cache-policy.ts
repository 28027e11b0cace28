/**
 * How long each kind of answer may be reused, in one place: HTTP `Cache-Control` on REST and the
 * discovery documents, and MCP 2026-07-28's `ttlMs`/`cacheScope` on the matching MCP results, so
 * an agent caches a page read the same whichever way it asked.
 */

/** Content answers (a page, a company section): anyone without a token, only the client with one. */
export const CONTENT_MAX_AGE = 60;
/** Documents derived from the configuration change only with a deployment. */
export const CONFIG_DOCUMENT_MAX_AGE = 3600;
/** Documents that follow the published pages, which a rebuild can change at any time. */
export const MODEL_DOCUMENT_MAX_AGE = 300;

export const CACHE_PUBLIC = `public, max-age=${CONTENT_MAX_AGE}`;
export const CACHE_PRIVATE = `private, max-age=${CONTENT_MAX_AGE}`;
export const CACHE_CONFIG_DOCUMENT = `public, max-age=${CONFIG_DOCUMENT_MAX_AGE}`;
export const CACHE_MODEL_DOCUMENT = `public, max-age=${MODEL_DOCUMENT_MAX_AGE}`;
/** Files named by their content (Astro's hashed assets, Pagefind's shards): never other bytes at that name. */
export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
