/**
 * The contract's resources (contract.md, "Resources and their fields"). Field names are binding.
 * These schemas are the one source for response validation, the emitted read model,
 * /openapi.json and the MCP output schemas.
 */
import { z } from 'zod';
import { CitySlugSchema } from './cities.ts';

export const SearchResultSchema = z.object({
  title: z.string().describe('Título de la página'),
  url: z.string().describe('URL de la página; pásela a read_page'),
  city: z.union([CitySlugSchema, z.literal('')]).describe('Slug de la ciudad de la página; vacío si es general'),
  excerpt: z.string().describe('Extracto en texto plano alrededor de las palabras buscadas'),
});

export const SearchResponseSchema = z.object({
  total: z.number().int().min(0).describe('Número de resultados en esta página'),
  results: z.array(SearchResultSchema),
  next_cursor: z.string().max(12).nullable().describe('Valor para `cursor` en la siguiente llamada; null al final'),
});

export const SectionSchema = z.object({
  title: z.string().describe('Texto del encabezado'),
  level: z.number().int().min(2).max(6).describe('Nivel del encabezado: 2 para ##, 3 para ###…'),
  offset: z.number().int().min(0).describe('Dónde empieza la sección en el Markdown completo: páselo como `offset` para leerla'),
});

export const PageSchema = z.object({
  title: z.string(),
  url: z.string(),
  markdown: z.string().describe('Texto de la página en Markdown, sin menús ni pie: entero, o la parte que empieza en `offset`'),
  truncated: z.boolean().describe('true si el texto no llega al final de la página: la continuación se lee con `offset` = `next_offset`'),
  offset: z.number().int().min(0).optional().describe('Dónde empieza este texto en el Markdown completo (0: el principio)'),
  next_offset: z.number().int().min(1).nullable().optional()
    .describe('Valor de `offset` para leer la parte siguiente; null cuando el texto llega al final. Las partes unidas son el Markdown completo'),
  total_chars: z.number().int().min(0).optional().describe('Longitud del Markdown completo, en caracteres (unidades UTF-16)'),
  sections: z.array(SectionSchema).optional().describe('Secciones de la página (encabezados ## a ######), cada una con el `offset` desde el que leerla'),
  version: z.string().optional()
    .describe('Versión del texto de la página, que cambia cuando se publica otro: pásela como `version` junto con `offset` al pedir otra parte'),
});

export const ServiceModelSchema = z.object({
  description: z.string(),
  online_booking: z.literal(false).describe('false: en este sitio no se contrata ni se paga nada en línea'),
  performed_by: z.string().optional(),
  quoted_by: z.string().optional(),
  invoiced_by: z.string().optional(),
  warranty: z.string().optional(),
});

export const ServiceEntrySchema = z.object({ name: z.string(), url: z.string() });
export const CityEntrySchema = z.object({ slug: CitySlugSchema, name: z.string(), url: z.string() });

export const CompanyInfoSchema = z.object({
  brand: z.string(),
  website: z.string(),
  legal_name: z.string().optional(),
  tax_id: z.string().optional(),
  address: z.string().optional(),
  phone: z.string().optional(),
  email: z.string().optional(),
  whatsapp: z.string().optional(),
  hours: z.string().optional(),
  coverage: z.string().optional(),
  tax: z.string().optional(),
  prices: z.string().optional(),
  service_model: ServiceModelSchema.optional(),
  services: z.array(ServiceEntrySchema).optional(),
  cities: z.array(CityEntrySchema).optional(),
  pages: z.record(z.string(), z.string()).optional(),
});

export const COMPANY_SECTIONS = ['all', 'contact', 'service_model', 'coverage', 'services'] as const;
export type CompanySection = (typeof COMPANY_SECTIONS)[number];

/**
 * Which CompanyInfo fields each section returns (the contract leaves it open; documented in
 * the README). `brand` and `website` are required by CompanyInfo, so every section has them.
 */
export const COMPANY_SECTION_FIELDS = {
  contact: ['brand', 'website', 'legal_name', 'address', 'phone', 'email', 'whatsapp', 'hours'],
  service_model: ['brand', 'website', 'service_model', 'prices', 'tax'],
  coverage: ['brand', 'website', 'coverage', 'cities'],
  services: ['brand', 'website', 'services'],
} as const satisfies Record<Exclude<CompanySection, 'all'>, readonly (keyof z.infer<typeof CompanyInfoSchema>)[]>;

export const QUOTA_POLICIES = ['anonimo', 'identificado'] as const;
export type QuotaPolicy = (typeof QUOTA_POLICIES)[number];

export const QuotaSchema = z.object({
  client_id: z.string(),
  scope: z.string().optional(),
  policy: z.enum(QUOTA_POLICIES),
  limit: z.number().int(),
  window_seconds: z.number().int().optional(),
  used: z.number().int().optional(),
  remaining: z.number().int(),
  reset_seconds: z.number().int(),
});

/**
 * GET {site_url}/agent/identity: the contract names client_id, scope and quota; the other fields
 * are this service's (README, /auth.md).
 */
export const IdentitySchema = z.object({
  client_id: z.string(),
  client_name: z.string().optional().describe('El nombre con que se registró el cliente, si dio uno'),
  scope: z.string().describe('Los alcances del token, separados por espacios'),
  token_expires_at: z.number().int().describe('Caducidad del token, en segundos desde epoch'),
  quota: QuotaSchema.describe('La cuota del cliente, contando esta llamada'),
});

export const ErrorSchema = z.object({
  code: z.string().describe('Identificador estable del error'),
  message: z.string(),
  data: z.object({
    status: z.number().int(),
    hint: z.string().optional(),
  }).optional(),
});

export type SearchResult = z.infer<typeof SearchResultSchema>;
export type SearchResponse = z.infer<typeof SearchResponseSchema>;
export type Page = z.infer<typeof PageSchema>;
export type Section = z.infer<typeof SectionSchema>;
export type CompanyInfo = z.infer<typeof CompanyInfoSchema>;
export type Quota = z.infer<typeof QuotaSchema>;
export type Identity = z.infer<typeof IdentitySchema>;
export type ApiErrorBody = z.infer<typeof ErrorSchema>;
