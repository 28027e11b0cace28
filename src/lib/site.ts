/** Loads the content collections once per build and answers the questions pages ask of them. */
import { getCollection, getEntry, type CollectionEntry } from 'astro:content';
import { CITY_SLUGS } from '../../formats/schemas/cities.ts';
import servicesData from '../content/services.json';

const SERVICE_ORDER: readonly string[] = servicesData.map((s) => s.id);

export type Company = CollectionEntry<'company'>['data'];
export type Service = CollectionEntry<'services'>['data'];
export type City = CollectionEntry<'cities'>['data'];
export type Guide = CollectionEntry<'guides'>;
export type PriceRow = Service['prices'][number];

/** One step of the breadcrumb trail; the last one is the current page. */
export interface Crumb {
  label: string;
  href: string;
}

export interface SiteData {
  company: Company;
  services: Service[];
  cities: City[];
  guides: Guide[];
}

/** Site paths. Every internal href goes through here so trailing slashes never go missing. */
export const paths = {
  home: '/',
  services: '/servicios/',
  service: (service: string) => `/servicios/${service}/`,
  serviceCity: (service: string, city: string) => `/servicios/${service}/${city}/`,
  cities: '/ciudades/',
  city: (city: string) => `/ciudades/${city}/`,
  guides: '/guias/',
  guide: (slug: string) => `/guias/${slug}/`,
} as const;

/** A page's whole breadcrumb trail: Inicio, then its own crumbs. */
export function breadcrumbTrail(crumbs: readonly Crumb[]): Crumb[] {
  return [{ label: 'Inicio', href: paths.home }, ...crumbs];
}

let cached: Promise<SiteData> | undefined;

export function loadSite(): Promise<SiteData> {
  cached ??= load();
  return cached;
}

async function load(): Promise<SiteData> {
  const companyEntry = await getEntry('company', 'empresa');
  if (!companyEntry) throw new Error('src/content/company.json did not load (collection "company", entry "empresa")');

  // In the file's order, as the read model lists them: the collection's own order is by id.
  const serviceById = new Map((await getCollection('services')).map((e) => [e.id, e.data]));
  const services = SERVICE_ORDER.map((id) => serviceById.get(id)!);
  const cityById = new Map((await getCollection('cities')).map((e) => [e.id, e.data]));
  const missing = CITY_SLUGS.filter((slug) => !cityById.has(slug));
  if (missing.length > 0 || cityById.size !== CITY_SLUGS.length) {
    throw new Error(`src/content/cities.json must hold exactly the ${CITY_SLUGS.length} contract cities; missing: ${missing.join(', ') || '(none)'}, found ${cityById.size}`);
  }
  const cities = CITY_SLUGS.map((slug) => cityById.get(slug)!);

  const guides = (await getCollection('guides')).sort((a, b) => a.data.title.localeCompare(b.data.title, 'es'));
  return { company: companyEntry.data, services, cities, guides };
}

/** The year the footer's copyright line names: it changes every page's bytes on New Year's Day. */
export function copyrightYear(): number {
  return new Date().getFullYear();
}

export function offersIn(service: Service, cityId: string): boolean {
  return !service.cities || service.cities.includes(cityId as City['id']);
}

export function citiesFor(service: Service, cities: readonly City[]): City[] {
  return cities.filter((c) => offersIn(service, c.id));
}

export function servicesIn(city: City, services: readonly Service[]): Service[] {
  return services.filter((s) => offersIn(s, city.id));
}

/** Each service's guides in title order, and each guide's place there, made once per list of guides: a large site has thousands. */
const byServiceOf = new WeakMap<readonly Guide[], { lists: Map<string, Guide[]>; places: Map<string, number> }>();

function byService(guides: readonly Guide[]): { lists: Map<string, Guide[]>; places: Map<string, number> } {
  let made = byServiceOf.get(guides);
  if (made === undefined) {
    made = { lists: new Map(), places: new Map() };
    for (const g of guides) {
      let list = made.lists.get(g.data.service);
      if (list === undefined) made.lists.set(g.data.service, list = []);
      made.places.set(g.id, list.length);
      list.push(g);
    }
    byServiceOf.set(guides, made);
  }
  return made;
}

export function guidesFor(serviceId: string, guides: readonly Guide[]): Guide[] {
  return byService(guides).lists.get(serviceId) ?? [];
}

/**
 * Guides a page lists of one service. Listing them all would put every guide on each of its
 * service's pages and guides: pages that grow with the site, and one guide added or removed
 * rendering all of them again. The guides index (`/guias/`) lists every guide.
 */
export const LISTED_GUIDES = 6;

/** The guides a service's pages list (its first LISTED_GUIDES in title order), and whether it has more. */
export function listedGuides(serviceId: string, guides: readonly Guide[]): { shown: Guide[]; more: boolean } {
  const all = guidesFor(serviceId, guides);
  return { shown: all.slice(0, LISTED_GUIDES), more: all.length > LISTED_GUIDES };
}

/** The other guides a guide's page lists: up to LISTED_GUIDES of its service's, those nearest it in title order. */
export function nearbyGuides(guide: Guide, guides: readonly Guide[]): Guide[] {
  const all = guidesFor(guide.data.service, guides);
  const at = byService(guides).places.get(guide.id) ?? 0;
  const from = Math.max(0, Math.min(at - LISTED_GUIDES / 2, all.length - 1 - LISTED_GUIDES));
  return all.slice(from, from + LISTED_GUIDES + 1).filter((g) => g.id !== guide.id).slice(0, LISTED_GUIDES);
}

export function findService(services: readonly Service[], id: string): Service {
  const found = services.find((s) => s.id === id);
  if (!found) throw new Error(`unknown service id "${id}"`);
  return found;
}

/** "en la isla de Tenerife" / "en la provincia de Bizkaia": where the partner professionals work. */
export function areaOf(city: City): string {
  return city.island ? `la isla de ${city.island}` : `la provincia de ${city.province}`;
}
