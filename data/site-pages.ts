/** One built page of each kind a visitor lands on: the pages the page tests and the Lighthouse bench open. */
export const REPRESENTATIVE = {
  home: '/',
  service: '/servicios/fontaneria/',
  'service-city': '/servicios/fontaneria/madrid/',
  city: '/ciudades/madrid/',
  guide: '/guias/fuga-agua-fregadero/',
  contact: '/contacto/',
} as const;
