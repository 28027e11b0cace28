import { z } from 'zod';

/** The 21 city slugs of the contract, in the contract's order. */
export const CITY_SLUGS = [
  'tenerife', 'las-palmas', 'mallorca', 'madrid', 'barcelona', 'valencia', 'sevilla',
  'malaga', 'bilbao', 'murcia', 'zaragoza', 'alicante', 'valladolid', 'cordoba', 'vigo',
  'gijon', 'a-coruna', 'elche', 'granada', 'oviedo', 'pamplona',
] as const;

export type CitySlug = (typeof CITY_SLUGS)[number];

export const CitySlugSchema = z.enum(CITY_SLUGS);
/** `todas` means no filter. */
export const CityFilterSchema = z.enum([...CITY_SLUGS, 'todas']);
export type CityFilter = z.infer<typeof CityFilterSchema>;
