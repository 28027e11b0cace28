/** One built page of each kind a visitor lands on: the pages the page tests and the Lighthouse bench open. */
export const REPRESENTATIVE = {
  home: '/',
  service: '/servicios/fontaneria/',
  'service-city': '/servicios/fontaneria/madrid/',
  city: '/ciudades/madrid/',
  guide: '/guias/fuga-agua-fregadero/',
  contact: '/contacto/',
} as const;

/**
 * The search results page (the server fills it per request), with results: the page tests and the
 * Lighthouse bench open it beside the representative pages.
 */
export const SEARCH_RESULTS = '/buscar/?q=se+me+sale+el+agua+del+termo&ciudad=Madrid';
