/**
 * How a search engine does on a query set (data/search-queries/): per group, the share of
 * queries whose first result is an answer (top-1) and whose first three hold one (top-3); queries
 * with no answer (things the site does not offer) must find nothing. The tests assert floors on
 * it; the bench reports it.
 */
import { loadQuerySet, type QueryGroup } from '../../data/search-queries/index.ts';
import type { SearchEngine } from '../../server/search/index.ts';

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
