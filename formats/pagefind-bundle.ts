/**
 * Pagefind's bundle as a build publishes it. It cannot be updated in part, and writing it takes
 * longer than the rest of a publish, so it follows the read model: once a build is published, the
 * build writes its bundle into a folder of its own under the read-model folder's BUNDLES_DIR
 * (build-scripts/stages/pagefind.ts), then points CURRENT_BUNDLE at it; until then the previous
 * bundle, whole, is served. The server serves the bundle CURRENT_BUNDLE names at BUNDLE_PATH
 * (server/routes/site-pagefind.ts), and a content-hashed file it lacks from the other bundles
 * kept, so a client that loaded the previous bundle's entry still finds that bundle's shards.
 *
 * A large site's bundle comes in parts, each a whole Pagefind bundle of some of the pages, so that
 * no Pagefind process ever indexes more than one part: the first part is the bundle's folder
 * itself, the others are folders inside it named by PARTS_FILE, which a client merges into its
 * search with Pagefind's `mergeIndex`.
 */
import fs from 'node:fs';
import { z } from 'zod';

/** The bundles' folder in the read-model folder: one folder per build, named by its id. */
export const BUNDLES_DIR = 'pagefind';

/** The symbolic link in BUNDLES_DIR naming the bundle served, replaced whole (rename) when the next is complete. */
export const CURRENT_BUNDLE = 'current';

/** How many bundles stay on disk, the current one among them: the previous stays for clients that loaded its entry. */
export const KEEP_BUNDLES = 2;

/** Where the bundle is served. */
export const BUNDLE_PATH = '/pagefind/';

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

/** The id of the bundle CURRENT_BUNDLE names in `root` (the read model's BUNDLES_DIR), or null when there is none yet. */
export function currentBundle(root: string): string | null {
  try {
    return fs.readlinkSync(`${root}/${CURRENT_BUNDLE}`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}
