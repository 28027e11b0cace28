/**
 * The search stage's output for the test fixtures, made once per content and code: keyed by the
 * pages, site URL and lexicon it indexes with and by every source file the build and the server are made of
 * (and Pagefind's version), so a change to any of them makes it afresh. Running Pagefind is most
 * of a fixture's cost, and dozens of test files index the same pages; a copy is what the stage
 * writes for them (search-index-cache.test.ts). Entries live in
 * var/test/search-index/<sources>/<input>/.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { buildSearchIndex } from '../../build-scripts/pagefind/search-index.ts';
import { ROOT } from '../../server/config.ts';
import type { CompiledLexicon } from '../../formats/schemas/lexicon.ts';
import type { ReadModelPage } from '../../formats/schemas/read-model.ts';

const CACHE = path.join(ROOT, 'var', 'test', 'search-index');
/** Folders whose files cannot change what the search stage writes. */
const NOT_SOURCES = new Set(['.git', '.astro', 'node_modules', 'var', 'dist', 'test', 'test-artifacts', 'bench', 'docs', 'src', 'public', 'data']);

let sources: string | undefined;

/** A hash of the project's code outside the folders above, with Pagefind's version. */
function sourcesHash(): string {
  if (sources) return sources;
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!(dir === ROOT && NOT_SOURCES.has(entry.name))) walk(full);
      } else if (/\.(?:ts|mts|js|mjs|json)$/.test(entry.name)) {
        hash.update(path.relative(ROOT, full)).update('\0').update(fs.readFileSync(full)).update('\0');
      }
    }
  };
  walk(ROOT);
  hash.update(fs.readFileSync(path.join(ROOT, 'node_modules', 'pagefind', 'package.json')));
  sources = hash.digest('hex').slice(0, 16);
  return sources;
}

/** Writes into `outDir` what `buildSearchIndex({ pages, outDir, siteUrl, lexicon })` writes. */
export async function cachedSearchIndex(opts: { pages: readonly ReadModelPage[]; outDir: string; siteUrl: string; lexicon?: CompiledLexicon }): Promise<void> {
  const code = sourcesHash();
  const input = createHash('sha256').update(JSON.stringify({ siteUrl: opts.siteUrl, pages: opts.pages, lexicon: opts.lexicon ?? null })).digest('hex').slice(0, 16);
  const entry = path.join(CACHE, code, input);
  if (!fs.existsSync(entry)) {
    // Made aside and renamed into place, so a process never reads another's half-written entry.
    const making = `${entry}.${process.pid}-${Math.random().toString(36).slice(2)}`;
    fs.mkdirSync(path.dirname(entry), { recursive: true });
    await buildSearchIndex({ pages: [...opts.pages], outDir: making, siteUrl: opts.siteUrl, ...(opts.lexicon ? { lexicon: opts.lexicon } : {}) });
    try {
      fs.renameSync(making, entry);
    } catch {
      // Another process put the same entry in place first.
      fs.rmSync(making, { recursive: true, force: true });
    }
    // Entries of other code are never read again.
    for (const old of fs.readdirSync(CACHE)) if (old !== code) fs.rmSync(path.join(CACHE, old), { recursive: true, force: true });
  }
  await fs.promises.cp(entry, opts.outDir, { recursive: true });
}
