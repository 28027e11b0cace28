/**
 * The realistic query set (queries/<group>.json: what people and agents type, each with the pages
 * that answer it, decided from the content before any run) and how a search engine does on it:
 * per group, the share of queries whose first result is an answer (top-1) and whose first three
 * hold one (top-3); queries with no answer (things the site does not offer) must find nothing.
 * `npm test` asserts floors on it (realistic.test.ts); `npm run bench` reports it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { CityFilterSchema } from '../../../../formats/schemas/cities.ts';
import type { SearchEngine } from '../../../../server/search/index.ts';

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'queries');
const HELD_OUT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'held-out', 'queries.json');
const BLIND = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'blind', 'queries.json');

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

export function loadQuerySet(): QueryGroup[] {
  return fs.readdirSync(DIR).filter((f) => f.endsWith('.json')).sort()
    .map((f) => GroupSchema.parse(JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8'))));
}

/**
 * The blind set (../blind/queries.json): written from the site's content alone by someone who had
 * seen neither the lexicon, the search code nor the other sets, with its answers decided first; in
 * the same form as the held-out set. It is reported apart and never tuned on: its misses are
 * recorded, and the next blind set is written afresh.
 */
export const loadBlind = (): QueryGroup[] => loadHeldOut(BLIND);

/**
 * The held-out set (../held-out/queries.json): written later, by someone who had not seen the
 * lexicon nor this set, after the lexicon was written; one file, its queries grouped by `kind`.
 * It says how the search does on queries nobody could tune for.
 */
export function loadHeldOut(file = HELD_OUT): QueryGroup[] {
  const all = GroupSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
  const kinds = [...new Set(all.queries.map((q) => q.kind ?? all.group))];
  return kinds.map((kind) => ({ group: kind, about: all.about, queries: all.queries.filter((q) => (q.kind ?? all.group) === kind) }));
}

export interface Outcome { query: string; city?: string; answers: string[]; got: string[] }

export interface GroupReport {
  group: string;
  /** Queries with an answer. */
  answerable: number;
  top1: number;
  top3: number;
  /** Queries with no answer, and how many of them found nothing. */
  offSite: number;
  empty: number;
  misses: Outcome[];
}

export interface Report { groups: GroupReport[]; total: GroupReport }

const pathOf = (url: string) => new URL(url).pathname;

export async function evaluate(engine: SearchEngine, groups: readonly QueryGroup[] = loadQuerySet()): Promise<Report> {
  const total: GroupReport = { group: 'all', answerable: 0, top1: 0, top3: 0, offSite: 0, empty: 0, misses: [] };
  const reports: GroupReport[] = [];
  for (const g of groups) {
    const r: GroupReport = { group: g.group, answerable: 0, top1: 0, top3: 0, offSite: 0, empty: 0, misses: [] };
    for (const q of g.queries) {
      const res = await engine.search({ query: q.query, city: q.city ?? 'todas', limit: 25 });
      const got = res.results.map((x) => pathOf(x.url));
      const outcome: Outcome = { query: q.query, ...(q.city ? { city: q.city } : {}), answers: q.answers, got: got.slice(0, 5) };
      if (q.answers.length === 0) {
        r.offSite++;
        if (got.length === 0 && res.next_cursor === null) r.empty++;
        else r.misses.push(outcome);
        continue;
      }
      r.answerable++;
      const first = got.slice(0, 3).findIndex((p) => q.answers.includes(p));
      if (first === 0) r.top1++;
      if (first >= 0) r.top3++;
      if (first !== 0) r.misses.push(outcome);
    }
    reports.push(r);
    for (const k of ['answerable', 'top1', 'top3', 'offSite', 'empty'] as const) total[k] += r[k];
    total.misses.push(...r.misses);
  }
  return { groups: reports, total };
}

export const share = (n: number, of: number): number => (of === 0 ? 1 : n / of);
