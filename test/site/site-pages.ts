/** Which built pages the page tests open: one of each kind, every guide (their tables) and every general page. */
import type { ReadModelPage } from '../../formats/schemas/read-model.ts';

/** One page of each kind a visitor lands on: home, a service, a service × city, a city, a guide and contact. */
export const REPRESENTATIVE = {
  home: '/',
  service: '/servicios/fontaneria/',
  'service-city': '/servicios/fontaneria/madrid/',
  city: '/ciudades/madrid/',
  guide: '/guias/fuga-agua-fregadero/',
  contact: '/contacto/',
} as const;

/** The representative pages, then every guide and every general page (info), each once, in path order. */
export function pagesToCheck(pages: readonly Pick<ReadModelPage, 'path' | 'kind'>[]): string[] {
  const chosen = new Set<string>(Object.values(REPRESENTATIVE));
  for (const page of pages) if (page.kind === 'guide' || page.kind === 'info') chosen.add(page.path);
  return [...chosen].sort();
}
