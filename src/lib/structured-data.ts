/**
 * schema.org JSON-LD built from the content collections, typed with schema-dts so a wrong
 * property or type fails `npm run typecheck`. The company is described in full (contact points,
 * area served, address) on the pages about it; elsewhere a Service names it as its provider by
 * `@id`, which keeps the few hundred service pages within their byte budget.
 */
import type {
  AdministrativeArea, BreadcrumbList, City as CityNode, ContactPoint, FAQPage, Graph,
  HomeAndConstructionBusiness, PostalAddress, Service as ServiceNode, Thing,
} from 'schema-dts';
import type { Faq } from './copy.ts';
import { phoneHref, whatsappHref } from './contact.ts';
import type { City, Company, Crumb, Service } from './site.ts';

/** Absolute URL of a site path. */
const abs = (site: URL, path: string): string => new URL(path, site).href;

const organizationId = (site: URL): string => abs(site, '/#empresa');

const telephone = (phone: string): string => phoneHref(phone).slice('tel:'.length);

/** "Calle …, 5.º izquierda, 28003 Madrid, España" → its parts; an address of another shape fails the build. */
function postalAddress(address: string): PostalAddress {
  const parts = /^(?<street>.+), (?<code>\d{5}) (?<locality>[^,]+), España$/.exec(address)?.groups;
  if (!parts) throw new Error(`company.json address must end in ", <5-digit postal code> <town>, España": ${address}`);
  return { '@type': 'PostalAddress', streetAddress: parts.street, postalCode: parts.code, addressLocality: parts.locality, addressCountry: 'ES' };
}

/** An island is served whole (its towns), a city with its metropolitan area. */
function place(city: City): CityNode | AdministrativeArea {
  return city.island ? { '@type': 'AdministrativeArea', name: `${city.island} (isla)` } : { '@type': 'City', name: city.name };
}

export function organization(company: Company, cities: readonly City[], site: URL): HomeAndConstructionBusiness {
  const channel = (contactType: string, extra: Partial<ContactPoint>): ContactPoint => ({
    '@type': 'ContactPoint', contactType, availableLanguage: 'es', areaServed: 'ES', ...extra,
  });
  return {
    '@type': 'HomeAndConstructionBusiness',
    '@id': organizationId(site),
    name: company.brand,
    legalName: company.legal_name,
    taxID: company.tax_id,
    url: abs(site, '/'),
    logo: abs(site, '/favicon.svg'),
    telephone: telephone(company.phone),
    email: company.email,
    address: postalAddress(company.address),
    contactPoint: [
      channel('customer service', { telephone: telephone(company.phone), email: company.email }),
      channel('WhatsApp', { telephone: telephone(company.whatsapp), url: whatsappHref(company.whatsapp) }),
    ],
    areaServed: cities.map(place),
    description: company.service_model.description,
  };
}

/** The company as a Service names its provider: the `@id` of its full description, and its name. */
function organizationRef(company: Company, site: URL): HomeAndConstructionBusiness {
  return { '@type': 'HomeAndConstructionBusiness', '@id': organizationId(site), name: company.brand };
}

/** The trail as the breadcrumbs show it: Inicio first, the page last (its URL is the page's own, so left out). */
export function breadcrumbList(trail: readonly Crumb[], site: URL): BreadcrumbList {
  return {
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((crumb, i) => ({
      '@type': 'ListItem', position: i + 1, name: crumb.label, ...(i < trail.length - 1 ? { item: abs(site, crumb.href) } : {}),
    })),
  };
}

export interface ServiceNodeOptions {
  service: Service;
  company: Company;
  /** Where the service is asked for on this page: one city, or every city that offers it. */
  areas: readonly City[];
  name: string;
  site: URL;
}

export function serviceNode({ service, company, areas, name, site }: ServiceNodeOptions): ServiceNode {
  return {
    '@type': 'Service',
    name,
    serviceType: service.name,
    provider: organizationRef(company, site),
    areaServed: areas.length === 1 ? place(areas[0]!) : areas.map(place),
  };
}

export function faqPage(faqs: readonly Faq[]): FAQPage {
  return {
    '@type': 'FAQPage',
    mainEntity: faqs.map((f) => ({ '@type': 'Question', name: f.q, acceptedAnswer: { '@type': 'Answer', text: f.a } })),
  };
}

export function graph(nodes: readonly Thing[]): Graph {
  return { '@context': 'https://schema.org', '@graph': nodes };
}

/** JSON for a `<script type="application/ld+json">`: `<` escaped, so no text can close the script. */
export function jsonLd(value: Graph): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}
