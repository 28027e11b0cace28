/** Indicative price ranges, scaled by a city's price level and formatted the Spanish way. */
import type { City, PriceRow } from './site.ts';

/** Rounds a scaled price to a step that looks like a real quote (5 €, 10 €, 50 €, 500 €). */
function roundPrice(value: number): number {
  const step = value < 100 ? 5 : value < 1000 ? 10 : value < 10000 ? 50 : 500;
  return Math.max(step, Math.round(value / step) * step);
}

export function scale(value: number, factor: number): number {
  return factor === 1 ? value : roundPrice(value * factor);
}

/** 1800 → "1.800", 35000 → "35.000" (thousands separated as in shop quotes). */
export function euros(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
}

export interface ScaledPrice {
  concept: string;
  min: number;
  max: number;
  unit: string;
  /** "35 – 50 €/h" */
  range: string;
  /** "de 35 a 50 €/h" */
  prose: string;
}

export function scalePrice(row: PriceRow, factor = 1): ScaledPrice {
  const min = scale(row.min, factor);
  const max = Math.max(min, scale(row.max, factor));
  return {
    concept: row.concept,
    min,
    max,
    unit: row.unit,
    range: `${euros(min)} – ${euros(max)} ${row.unit}`,
    prose: `de ${euros(min)} a ${euros(max)} ${row.unit}`,
  };
}

export function cityPrices(rows: readonly PriceRow[], city: City): ScaledPrice[] {
  return rows.map((row) => scalePrice(row, city.price_factor));
}

/** How a city's prices compare with the reference ranges, in words. */
export function priceLevel(city: City): string {
  const pct = Math.round((city.price_factor - 1) * 100);
  if (pct >= 3) return `alrededor de un ${pct} % por encima de la media de las ciudades que cubrimos`;
  if (pct <= -3) return `alrededor de un ${-pct} % por debajo de la media de las ciudades que cubrimos`;
  return 'en la media de las ciudades que cubrimos';
}
