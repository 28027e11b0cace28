/**
 * What the results page shows in its slot, for each way a request can end: results, nothing found
 * (said plainly, with the services and the contact actions, never other pages), no query yet, a
 * query the search refuses (400), a used-up quota (429) and a failure (500). HTML, with every text
 * from the query or the build escaped.
 */
import { phoneHref, unbroken, whatsappHref } from '../../formats/contact-links.ts';
import type { SearchResponse } from '../../formats/schemas/resources.ts';
import type { BuildParts } from './build-parts.ts';
import { escapeHtml } from './html.ts';
import { markWords, queryStems } from './marks.ts';

/** What the WhatsApp chat opens with: the person's problem, in their words. */
export const whatsappText = (query: string) => `Tengo este problema: ${query}`;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A result's city name: a page for every city has no city of its own. */
const cityOf = (parts: BuildParts, slug: string) => parts.cityNames.get(slug) ?? 'Todas las ciudades';

function services(parts: BuildParts): string {
  const items = parts.services.map((s) => `<li><a href="${escapeHtml(s.href)}">${escapeHtml(s.text)}</a></li>`).join('');
  return `<h2>Nuestros servicios</h2><ul class="columns">${items}</ul>`;
}

/** Call and WhatsApp, the chat opened with the query when there is one. */
function contact(parts: BuildParts, query: string): string {
  const chat = whatsappHref(parts.whatsapp, query === '' ? undefined : whatsappText(query));
  return '<section class="search-help"><h2>¿Prefieres contárnoslo?</h2>'
    + '<p>Llámanos o escríbenos por WhatsApp: pasamos tu solicitud a un profesional colaborador de tu zona, que te llama y te da presupuesto. Gratis y sin compromiso.</p>'
    + `<p class="search-help__actions"><a class="button" href="${escapeHtml(phoneHref(parts.phone))}">Llamar al ${escapeHtml(unbroken(parts.phone))}</a> `
    + `<a class="button button--alt" href="${escapeHtml(chat)}">Escribir por WhatsApp</a></p></section>`;
}

export interface Searched {
  query: string;
  /** The slug searched (`todas`: every city). */
  city: string;
  response: SearchResponse;
  /** Whether these follow earlier results (a `cursor` was given). */
  later: boolean;
  /** The link to the next results, or null for the last ones. */
  next: string | null;
}

export function resultsHtml(parts: BuildParts, { query, city, response, later, next }: Searched): string {
  const q = escapeHtml(query);
  const where = city === 'todas' ? '' : ` en ${escapeHtml(cityOf(parts, city))}`;
  if (response.results.length === 0) {
    return `<h1>No hay resultados para «${q}»</h1>`
      + `<p class="lead">No hemos encontrado ninguna página sobre eso${where}. Gestionamos reparaciones, reformas y servicios técnicos del hogar: si lo que necesitas es uno de estos servicios, entra en el suyo, o cuéntanoslo.</p>`
      + services(parts) + contact(parts, query);
  }
  const stems = queryStems(query, parts.filler);
  const items = response.results.map((r) => `<li><h2><a href="${escapeHtml(new URL(r.url).pathname)}">${escapeHtml(r.title)}</a></h2>`
    + `<p class="results__city">${escapeHtml(cityOf(parts, r.city))}</p><p>${markWords(r.excerpt, stems)}</p></li>`).join('');
  const count = plural(response.total, 'página', 'páginas');
  const summary = later ? `${count} más${where}.` : next === null ? `${count}${where}.` : `Las ${count} que mejor responden${where}.`;
  return `<h1>${later ? 'Más resultados' : 'Resultados'} para «${q}»</h1><p>${summary}</p><ol class="results">${items}</ol>`
    + (next === null ? '' : `<p class="more"><a href="${escapeHtml(next)}">Más resultados</a></p>`)
    + contact(parts, query);
}

export function emptyHtml(parts: BuildParts): string {
  return '<h1>Buscar</h1>'
    + '<p class="lead">Escribe en el buscador lo que le pasa a tu casa, con tus palabras («el termo gotea», «no cierra la puerta»), o el servicio que necesitas, y elige tu ciudad.</p>'
    + services(parts);
}

export function badRequestHtml(parts: BuildParts, reason: string): string {
  return '<h1>No hemos podido hacer esa búsqueda</h1>'
    + `<p class="lead">${escapeHtml(reason)} Prueba otra vez con el buscador de arriba.</p>`
    + services(parts) + contact(parts, '');
}

export function rateLimitedHtml(parts: BuildParts, query: string, seconds: number): string {
  return '<h1>Demasiadas búsquedas seguidas</h1>'
    + `<p class="lead">Desde tu conexión se han hecho muchas búsquedas en poco tiempo. Vuelve a intentarlo dentro de ${plural(seconds, 'segundo', 'segundos')}, o cuéntanos directamente qué necesitas.</p>`
    + contact(parts, query) + services(parts);
}

export function failedHtml(parts: BuildParts, query: string): string {
  return '<h1>No hemos podido buscar ahora</h1>'
    + '<p class="lead">Algo ha fallado de nuestro lado. Vuelve a intentarlo dentro de un momento, o cuéntanos directamente qué necesitas.</p>'
    + contact(parts, query);
}
