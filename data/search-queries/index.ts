/**
 * The search query sets: what people and agents type, each query with the pages that answer it,
 * decided from the site's content before any run. The tests assert floors on them and the bench
 * reports them (scripts/lib/search-relevance.ts scores an engine on a set).
 * - realistic/<group>.json: one file per group (symptoms, service × city, typos…);
 * - held-out.json: written later, by someone who had not seen the lexicon nor the realistic set;
 * - blind.json: written from the content alone by someone who had seen neither the lexicon, the
 *   search code nor the other sets. It is reported apart and never tuned on;
 * - blind-earlier.json: the blind sets before it, reported since and so no longer blind, kept as
 *   a further held-out set. A blind set is replaced once it has been measured and its misses
 *   recorded: the next one is written afresh.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { CityFilterSchema } from '../../formats/schemas/cities.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));

const GroupSchema = z.object({
  group: z.string(),
  about: z.string(),
  queries: z.array(z.object({
    query: z.string().min(2).max(200),
    answers: z.array(z.string().regex(/^\/(?:[a-z0-9-]+\/)*$/)),
    city: CityFilterSchema.optional(),
    /** In a mixed set, the group the query belongs to. */
    kind: z.string().optional(),
  }).strict()).min(1),
}).strict();

export type QueryGroup = z.infer<typeof GroupSchema>;
export type QueryCase = QueryGroup['queries'][number];

/** The realistic set, one group per file, in file order. */
export function loadQuerySet(): QueryGroup[] {
  const dir = path.join(HERE, 'realistic');
  return fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()
    .map((f) => GroupSchema.parse(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))));
}

/** A one-file set (held-out.json by default, or blind.json), its queries grouped by `kind`. */
export function loadHeldOut(file = path.join(HERE, 'held-out.json')): QueryGroup[] {
  const all = GroupSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
  const kinds = [...new Set(all.queries.map((q) => q.kind ?? all.group))];
  return kinds.map((kind) => ({ group: kind, about: all.about, queries: all.queries.filter((q) => (q.kind ?? all.group) === kind) }));
}

export const loadBlind = (): QueryGroup[] => loadHeldOut(path.join(HERE, 'blind.json'));
export const loadEarlierBlind = (): QueryGroup[] => loadHeldOut(path.join(HERE, 'blind-earlier.json'));
