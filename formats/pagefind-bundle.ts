/**
 * Pagefind's bundle as a build publishes it: the build writes it into the folder BUNDLE_DIR of the
 * build's static site (build-scripts/stages/pagefind.ts), and the server serves it there, at
 * BUNDLE_PATH, with the rest of the site (server/routes/site.ts).
 *
 * A large site's bundle comes in parts, each a whole Pagefind bundle of some of the pages, so that
 * no Pagefind process ever indexes more than one part: the first part is the bundle's folder
 * itself, the others are folders inside it named by PARTS_FILE, which a client merges into its
 * search with Pagefind's `mergeIndex`.
 */
import { z } from 'zod';

/** The bundle's folder in the build's `site/`. */
export const BUNDLE_DIR = 'pagefind';

/** Where the bundle is served. */
export const BUNDLE_PATH = `/${BUNDLE_DIR}/`;

/** Pagefind's JavaScript API, which a client imports to search. */
export const BUNDLE_SCRIPT = `${BUNDLE_PATH}pagefind.js`;

/** The list of the bundle's other parts, in the bundle's folder (written for every build, empty when there is one part). */
export const PARTS_FILE = 'parts.json';

/** Where the list of parts is served. */
export const BUNDLE_PARTS = `${BUNDLE_PATH}${PARTS_FILE}`;

/** The folder of part `n` (2, 3, …) inside the bundle's folder. */
export const partDir = (n: number): string => `part-${n}`;

/** PARTS_FILE: each other part's folder as a URL relative to the file, in page order. */
export const BundleParts = z.object({
  parts: z.array(z.string().regex(/^part-[1-9]\d*\/$/)),
});
export type BundleParts = z.infer<typeof BundleParts>;

/**
 * The files Pagefind names by a hash of their content: the index, fragment and filter shards and
 * the meta file (`pagefind.<hash>.pf_meta`), in the first part or another. `pagefind-entry.json`
 * names the meta of the build, which names its shards; every other file keeps its name from one
 * build to the next.
 */
const HASHED = /^(?:part-[1-9]\d*\/)?(?:index\/[^/]+\.pf_index|fragment\/[^/]+\.pf_fragment|filter\/[^/]+\.pf_filter|pagefind\.[^/]+\.pf_meta)$/;

/** Whether `name`, a path inside the bundle (`index/es_1a2b.pf_index`), is named by its content. */
export const isContentHashed = (name: string): boolean => HASHED.test(name);
