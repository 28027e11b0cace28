/**
 * Pagefind's bundle as a build publishes it: the build writes it into the folder BUNDLE_DIR of the
 * build's static site (build-scripts/stages/pagefind.ts), and the server serves it there, at
 * BUNDLE_PATH, with the rest of the site (server/routes/site.ts).
 */

/** The bundle's folder in the build's `site/`. */
export const BUNDLE_DIR = 'pagefind';

/** Where the bundle is served. */
export const BUNDLE_PATH = `/${BUNDLE_DIR}/`;

/** Pagefind's JavaScript API, which a client imports to search. */
export const BUNDLE_SCRIPT = `${BUNDLE_PATH}pagefind.js`;

/**
 * The files Pagefind names by a hash of their content: the index, fragment and filter shards and
 * the meta file (`pagefind.<hash>.pf_meta`). `pagefind-entry.json` names the meta of the build,
 * which names its shards; every other file keeps its name from one build to the next.
 */
const HASHED = /^(?:index\/[^/]+\.pf_index|fragment\/[^/]+\.pf_fragment|filter\/[^/]+\.pf_filter|pagefind\.[^/]+\.pf_meta)$/;

/** Whether `name`, a path inside the bundle (`index/es_1a2b.pf_index`), is named by its content. */
export const isContentHashed = (name: string): boolean => HASHED.test(name);
