/**
 * A realistic search_pages workload for the sample site, from its own content files: the 200 most
 * common kinds of query — service and trade names, problems people describe, trade + city, city
 * alone, and misspellings — some with a `city` filter. Traffic is skewed as real traffic is: query
 * i is drawn with a Zipf weight 1/(i+1), so popular queries repeat and the tail is long.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../server/config.ts';
import type { CityFilter } from '../../formats/schemas/cities.ts';
import { loadQuerySet } from '../../data/search-queries/index.ts';

export interface Query { query: string; city: CityFilter }

interface Service { id: string; name: string; pro: string; label: string; problems?: string[] }
interface City { id: string; name: string }

function readJson<T>(name: string): T {
  return JSON.parse(fs.readFileSync(path.join(ROOT, 'src', 'content', name), 'utf8')) as T;
}

/** Drops one letter in the middle: "cerrajero" → "cerrajro". */
const typo = (w: string) => (w.length < 6 ? w : w.slice(0, Math.floor(w.length / 2) + 1) + w.slice(Math.floor(w.length / 2) + 2));

/** The query set, most common first, de-duplicated, cut to `count`. */
export function commonQueries(count = 200): Query[] {
  const services = readJson<Service[]>('services.json');
  const cities = readJson<City[]>('cities.json');
  const out: Query[] = [];
  const seen = new Set<string>();
  const add = (query: string, city: CityFilter = 'todas') => {
    const key = `${city}|${query}`;
    if (!seen.has(key) && query.length >= 2) { seen.add(key); out.push({ query, city }); }
  };
  const topCities = cities.slice(0, 8);
  for (const s of services) add(s.pro.split(' ').pop()!);
  for (const s of services) add(s.label);
  for (const [i, s] of services.entries()) add(`${s.pro.split(' ').pop()} ${topCities[i % topCities.length]!.name}`);
  for (const s of services) for (const p of (s.problems ?? []).slice(0, 3)) add(p);
  for (const [i, s] of services.entries()) add(s.pro.split(' ').pop()!, topCities[(i + 3) % topCities.length]!.id as CityFilter);
  for (const c of cities) add(c.name);
  for (const s of services) add(typo(s.pro.split(' ').pop()!));
  for (const [i, s] of services.entries()) add(`${s.label} urgente`, cities[i % cities.length]!.id as CityFilter);
  for (const s of services) for (const p of (s.problems ?? []).slice(3)) add(p);
  for (const [i, s] of services.entries()) for (const c of cities.slice(8, 12)) if (i % 2 === 0) add(`${s.pro.split(' ').pop()} en ${c.name}`);
  return out.slice(0, count);
}

/** `n` draws from `queries` with Zipf weights, from a fixed seed. */
export function zipfTraffic(queries: readonly Query[], n: number, seed = 7): Query[] {
  const weights = queries.map((_, i) => 1 / (i + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const cumulative: number[] = [];
  let acc = 0;
  for (const w of weights) cumulative.push((acc += w / total));
  let state = seed >>> 0;
  const rand = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
  const out: Query[] = [];
  for (let k = 0; k < n; k++) {
    const r = rand();
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < r) lo = mid + 1;
      else hi = mid;
    }
    out.push(queries[lo]!);
  }
  return out;
}

/** The realistic query set (data/search-queries/realistic/), in file order. */
export function realisticQueries(): Query[] {
  return loadQuerySet().flatMap((g) => g.queries.map((q) => ({ query: q.query, city: q.city ?? 'todas' })));
}
