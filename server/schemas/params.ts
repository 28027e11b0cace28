/**
 * Parameters of the content operations (contract.md, "Endpoints") as JSON: the MCP arguments as
 * they are, REST query strings once the REST adapter has turned decimal digits into integers
 * (nothing else is coerced: no `"5"`, `true` or `"1e1"` from MCP becomes a number). The same
 * objects give /openapi.json its parameters and the MCP tools their input schemas.
 */
import { z } from 'zod';
import { CityFilterSchema } from '../../formats/schemas/cities.ts';
import { COMPANY_SECTIONS } from '../../formats/schemas/resources.ts';
import { PAGE_VERSION_LENGTH } from '../../formats/read-model/page-hash.ts';

export const LIMITS = {
  queryMin: 2,
  queryMax: 200,
  limitMin: 1,
  limitMax: 25,
  limitDefault: 8,
  cursorMax: 12,
  urlMin: 1,
  urlMax: 300,
  offsetMax: 999_999,
  versionLength: PAGE_VERSION_LENGTH,
} as const;

/**
 * What search_pages does with `query` and `city`: one text each, used by OpenAPI, agents.md, the
 * MCP tool's schema and description (the README says the same in English).
 */
export const SEARCH_QUERY_HELP = 'Lo que busca la persona, como lo diría (2–200 caracteres), en español o en inglés: un servicio ("fontanero"), '
  + 'un problema con sus palabras ("la lavadora hace ruido al centrifugar", "se ha ido la luz"), una pregunta sobre el servicio '
  + '("¿es gratis pedir presupuesto?", "¿quién factura?") o un servicio y una ciudad ("cerrajero en la coruña"). Entiende sinónimos, '
  + 'faltas, abreviaturas y nombres locales de las ciudades. Si el sitio no ofrece lo que se busca, devuelve 0 resultados.';
export const SEARCH_CITY_HELP = 'Slug de la ciudad de la persona, o `todas` (por defecto). Con una ciudad, primero las páginas de esa ciudad '
  + 'y después las que valen para todas (guías, páginas generales), nunca las de otras ciudades; una ciudad nombrada en `query` se trata igual.';

export const SearchPagesParams = z.object({
  query: z.string().min(LIMITS.queryMin).max(LIMITS.queryMax)
    .describe(SEARCH_QUERY_HELP),
  city: CityFilterSchema.default('todas')
    .describe(SEARCH_CITY_HELP),
  limit: z.number().int().min(LIMITS.limitMin).max(LIMITS.limitMax).default(LIMITS.limitDefault)
    .describe('Resultados por página (1–25)'),
  cursor: z.string().min(1).max(LIMITS.cursorMax).optional()
    .describe('El `next_cursor` de la respuesta anterior, para la página siguiente'),
});

export const ReadPageParams = z.object({
  url: z.string().min(LIMITS.urlMin).max(LIMITS.urlMax)
    .describe('URL completa de una página de este sitio, ruta del sitio (/servicios/fontaneria/) o slug (fontaneria)'),
  offset: z.number().int().min(0).max(LIMITS.offsetMax).default(0)
    .describe('Dónde empezar a leer: 0 (el principio), el `next_offset` de la respuesta anterior o el `offset` de una de sus `sections`'),
  version: z.string().regex(new RegExp(`^[0-9a-f]{${LIMITS.versionLength}}$`), 'Debe ser el `version` de una respuesta de read_page.').optional()
    .describe('El `version` de la respuesta anterior, con `offset` mayor que 0: si la página ha cambiado desde entonces, 400 '
      + '`agentes_page_changed` en lugar de un texto que no empalma con lo ya leído'),
});

export const GetCompanyInfoParams = z.object({
  section: z.enum(COMPANY_SECTIONS).default('all')
    .describe('Parte a devolver: all, contact (contacto y horario), service_model (modelo de servicio, precios e impuestos), coverage (ciudades con URL), services (servicios con URL)'),
});

export const GetQuotaParams = z.object({});

/** /agent/identity takes no parameters; its query string is not read. */
export const AgentIdentityParams = z.object({});

export type SearchPagesInput = z.infer<typeof SearchPagesParams>;
export type ReadPageInput = z.infer<typeof ReadPageParams>;
export type GetCompanyInfoInput = z.infer<typeof GetCompanyInfoParams>;
