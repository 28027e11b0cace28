/**
 * Content collections of the site (Astro Content Layer API).
 *
 * Files and exact shapes (the read-model build parses the JSON files directly, without Astro):
 *
 *   src/content/company.json   ONE plain JSON object (no wrapper, no `id`):
 *     { brand, legal_name, tax_id, address, phone, email, whatsapp, hours, coverage, tax, prices: string,
 *       service_model: { description: string, online_booking: false, performed_by, quoted_by,
 *                        invoiced_by, warranty: string },
 *       pages: { [name]: "/site-path/" } }
 *     Loaded as the single entry `empresa` of the `company` collection (the parser below wraps it).
 *
 *   src/content/services.json  array of services, each { id: slug, name, label, pro, pro_plural,
 *     pro_article, gender, summary, intro, typical_jobs[], problems[],
 *     prices: [{ concept, min, max, unit }], urgent, reduced_vat, cities?: city slugs (absent = all),
 *     climate_effects: { [trait]: text }, related: service ids[] }. Page: /servicios/<id>/.
 *
 *   src/content/cities.json    array of exactly the 21 contract cities, each { id: slug, name, short,
 *     province, region, island?, tax: "IVA" | "IGIC", lat, lon, price_factor, intro, districts[],
 *     nearby[], climate: { summary, traits[], homes }, housing, service_notes: { [service id]: text } }.
 *     Page: /ciudades/<id>/; service × city: /servicios/<service id>/<city id>/.
 *
 *   src/content/guides/*.md    frontmatter exactly { title, description, service: a service id }.
 *     Page: /guias/<file name without .md>/.
 */
import { defineCollection } from 'astro:content';
import { file } from 'astro/loaders';
import { z } from 'astro/zod';
import { CITY_SLUGS } from '../formats/schemas/cities.ts';
import servicesData from './content/services.json';
import { guidesLoader } from './lib/guides-loader.ts';

/** Climate and housing traits a city can have; services explain what each means for their trade. */
export const TRAITS = ['calor', 'frio', 'humedad', 'lluvia', 'salitre', 'viento', 'cal', 'calima', 'tormentas'] as const;

const SERVICE_IDS: readonly string[] = servicesData.map((s) => s.id);
const serviceId = z.string().refine((id) => SERVICE_IDS.includes(id), {
  message: `must be one of the service ids in src/content/services.json: ${SERVICE_IDS.join(', ')}`,
});
const slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
const text = z.string().min(1);

const company = defineCollection({
  loader: file('src/content/company.json', { parser: (raw) => ({ empresa: JSON.parse(raw) }) }),
  schema: z.object({
    brand: text,
    legal_name: text,
    tax_id: text,
    address: text,
    phone: text,
    email: z.email(),
    whatsapp: text,
    hours: text,
    coverage: text,
    tax: text,
    prices: text,
    service_model: z.object({
      description: text,
      online_booking: z.literal(false),
      performed_by: text,
      quoted_by: text,
      invoiced_by: text,
      warranty: text,
    }),
    pages: z.record(slug, z.string().regex(/^\/(?:[a-z0-9-]+\/)*$/)),
  }).strict(),
});

const services = defineCollection({
  loader: file('src/content/services.json'),
  schema: z.object({
    id: slug,
    name: text,
    label: text,
    pro: text,
    pro_plural: text,
    pro_article: text,
    gender: z.enum(['m', 'f']),
    summary: text,
    intro: text,
    typical_jobs: z.array(text).min(6),
    problems: z.array(text).min(3),
    prices: z.array(z.object({
      concept: text,
      min: z.number().positive(),
      max: z.number().positive(),
      unit: z.enum(['€', '€/h', '€/m²', '€/ml']),
    }).refine((p) => p.min <= p.max, 'min must not exceed max')).min(3),
    urgent: z.boolean(),
    reduced_vat: z.boolean(),
    cities: z.array(z.enum(CITY_SLUGS)).optional(),
    // Zod 4's record over an enum wants every key: a service explains only the traits it is touched by.
    climate_effects: z.partialRecord(z.enum(TRAITS), text),
    related: z.array(serviceId).min(3),
  }).strict(),
});

const cities = defineCollection({
  loader: file('src/content/cities.json'),
  schema: z.object({
    id: z.enum(CITY_SLUGS),
    name: text,
    short: text,
    province: text,
    region: text,
    island: text.optional(),
    tax: z.enum(['IVA', 'IGIC']),
    lat: z.number(),
    lon: z.number(),
    price_factor: z.number().min(0.8).max(1.3),
    intro: text,
    districts: z.array(text).min(6).max(10),
    nearby: z.array(text).min(4),
    climate: z.object({ summary: text, traits: z.array(z.enum(TRAITS)).min(1), homes: text }),
    housing: text,
    service_notes: z.record(serviceId, text),
  }).strict(),
});

const guides = defineCollection({
  loader: guidesLoader({ base: 'src/content/guides' }),
  schema: z.object({
    title: text,
    description: text,
    service: serviceId,
  }),
});

export const collections = { company, services, cities, guides };
