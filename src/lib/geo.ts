/** Distances between cities, for "nearby" links that make geographic sense. */
import type { City } from './site.ts';

const EARTH_KM = 6371;
const rad = (deg: number) => (deg * Math.PI) / 180;

export function distanceKm(a: City, b: City): number {
  const dLat = rad(b.lat - a.lat);
  const dLon = rad(b.lon - a.lon);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.sqrt(h));
}

/** The `count` closest other cities within `maxKm`, nearest first (ties broken by slug). */
export function nearestCities(from: City, candidates: readonly City[], count: number, maxKm = Infinity): City[] {
  return candidates
    .filter((c) => c.id !== from.id)
    .map((c) => ({ c, d: distanceKm(from, c) }))
    .filter(({ d }) => d <= maxKm)
    .sort((x, y) => x.d - y.d || x.c.id.localeCompare(y.c.id))
    .slice(0, count)
    .map(({ c }) => c);
}
