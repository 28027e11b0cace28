/**
 * `node --import tsx bench/compare/search-responses.ts <tree> <read-model build> <out.jsonl>`:
 * every search_pages response of one checkout (`<tree>`, e.g. `git archive` of a commit) for the
 * realistic query set, its held-out set and the bench's query mix, each at limits 8 and 25 and
 * through all its cursors, one JSON line each. Two trees' files compared with `cmp` show whether
 * a change to the search moved a single byte of its answers. The build must be of a read-model
 * format the tree reads.
 */
import fs from 'node:fs';
import path from 'node:path';
import { searchModulesOf } from '../lib/tree.ts';

const [root, buildDir, out] = process.argv.slice(2).map((p) => path.resolve(p));
if (!root || !buildDir || !out) throw new Error('usage: search-responses.ts <tree> <read-model build> <out.jsonl>');
const { parseConfig, loadModel, SearchPagesParams, searchPages, commonQueries, realisticQueries } = await searchModulesOf(root);
// Older trees kept the query sets under test/.
const querySets = ['data/search-queries/index.ts', 'test/server/search/realistic/evaluate.ts'].map((f) => path.join(root, f)).find((f) => fs.existsSync(f))!;
const { loadQuerySet, loadHeldOut } = await import(querySets);

const model = await loadModel({ ...parseConfig(), readModelDir: path.dirname(path.dirname(buildDir)) }, buildDir);
const queries: { query: string; city?: string }[] = [...commonQueries(), ...realisticQueries()];
for (const group of [...loadQuerySet(), ...loadHeldOut()]) for (const q of group.queries) queries.push({ query: q.query, city: q.city });
// Written as they come: a large site's responses outgrow one string.
const file = fs.openSync(out, 'w');
let lines = 0;
for (const q of queries) {
  for (const limit of [8, 25]) {
    let cursor: string | null = null;
    let pages = 0;
    do {
      const params: unknown = SearchPagesParams.parse({ query: q.query, city: q.city ?? 'todas', limit, ...(cursor ? { cursor } : {}) });
      const res = (await searchPages(model.search, params)) as { next_cursor: string | null };
      fs.writeSync(file, `${JSON.stringify({ q, limit, cursor, res })}\n`);
      lines++;
      cursor = res.next_cursor;
    } while (cursor !== null && ++pages < 40);
  }
}
fs.closeSync(file);
console.log(`${queries.length} queries, ${lines} responses`);
await model.close();
