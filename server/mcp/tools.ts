/**
 * The four MCP tools: the REST operations under the same names as the OpenAPI operationIds, with
 * the same parameters, bounds, defaults and results, from the same zod schemas
 * (server/schemas/params.ts for arguments, server/schemas/resources.ts for results) and the same
 * operation code (server/routes/api/*). Their JSON Schemas are built once, here.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Config } from '../config.ts';
import { tidy } from '../discovery/json-schema.ts';
import type { Credential } from '../auth/bearer.ts';
import type { QuotaState } from '../quota/headers.ts';
import { companyInfoResult } from '../routes/api/get-company-info.ts';
import { contentIdentifies, type ApiShared } from '../routes/api/operation.ts';
import { QUOTA_SCOPE, quotaIdentifies, quotaResource } from '../routes/api/quota.ts';
import { findPage } from '../routes/api/read-page.ts';
import { searchPagesResult } from '../routes/api/search-pages.ts';
import { GetCompanyInfoParams, GetQuotaParams, ReadPageParams, SearchPagesArguments } from '../schemas/params.ts';
import { CompanyInfoSchema, PageSchema, QuotaSchema, SearchResponseSchema } from '../schemas/resources.ts';
import { jsonResult, representationResult, toolError } from './results.ts';
import { AUTH_MD_PATH, REGISTER_PATH, TOKEN_PATH } from '../paths.ts';

/** What a tool call is handed once its quota step has passed. */
export interface ToolContext {
  /** No token, or a valid one (an invalid token never reaches a tool: the request got a 401). */
  credential: Extract<Credential, { kind: 'none' | 'token' }>;
  /** The window this call was counted in. */
  quota: QuotaState;
}

export interface McpTool<S extends z.ZodObject = z.ZodObject> {
  /** What tools/list publishes. */
  definition: Tool;
  /** The arguments as JSON: validated with the shared parameter errors (routes/api/params.ts). */
  arguments: S;
  /** Whether a valid token puts the call on its client's quota (`identificado`), as in REST. */
  identifies(credential: Credential): boolean;
  run(args: z.infer<S>, ctx: ToolContext): CallToolResult | Promise<CallToolResult>;
}

/** Nothing is written anywhere: every tool only reads the published pages or the caller's quota. */
const ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/**
 * zod → JSON Schema 2020-12, tidied as /openapi.json is (no ±2^53 noise; response objects do not
 * forbid fields added within v1) except that a nullable value stays `anyOf` (portable to hosts
 * with single-`type` schema dialects). Arguments in input mode: defaults shown, `limit` an integer.
 */
const jsonSchema = (s: z.ZodObject, io: 'input' | 'output') =>
  tidy(z.toJSONSchema(s, { target: 'draft-2020-12', io }), { typeArrays: false });
const inputSchema = (s: z.ZodObject) => jsonSchema(s, 'input') as Tool['inputSchema'];
const outputSchema = (s: z.ZodObject) => jsonSchema(s, 'output') as Tool['outputSchema'];

function define<S extends z.ZodObject>(
  spec: { name: string; title: string; description: string; arguments: S; output: z.ZodObject },
  identifies: McpTool<S>['identifies'],
  run: McpTool<S>['run'],
): McpTool<S> {
  return {
    definition: {
      name: spec.name,
      title: spec.title,
      description: spec.description,
      inputSchema: inputSchema(spec.arguments),
      outputSchema: outputSchema(spec.output),
      annotations: { title: spec.title, ...ANNOTATIONS },
    },
    arguments: spec.arguments,
    identifies,
    run,
  };
}

export function createTools(shared: ApiShared): McpTool[] {
  const { siteUrl } = shared.deps.config;
  const tools = [
    define({
      name: 'search_pages',
      title: 'Buscar páginas del sitio',
      description: searchDescription,
      arguments: SearchPagesArguments,
      output: SearchResponseSchema,
    }, contentIdentifies, async (args) => jsonResult(await searchPagesResult(shared, args))),

    define({
      name: 'read_page',
      title: 'Leer una página en Markdown',
      description: readDescription,
      arguments: ReadPageParams,
      output: PageSchema,
    }, contentIdentifies, ({ url }) => representationResult(findPage(shared.deps.model.current(), shared.resolvePage, url))),

    define({
      name: 'get_company_info',
      title: 'Datos de la empresa',
      description: companyDescription,
      arguments: GetCompanyInfoParams,
      output: CompanyInfoSchema,
    }, contentIdentifies, ({ section }) => representationResult(companyInfoResult(shared, section))),

    define({
      name: 'get_quota',
      title: 'Consultar la cuota',
      description: quotaDescription(siteUrl),
      arguments: GetQuotaParams,
      output: QuotaSchema,
    }, quotaIdentifies, (_args, { credential, quota }) => {
      const howTo = `Pida uno gratis: POST ${siteUrl}${REGISTER_PATH} y POST ${siteUrl}${TOKEN_PATH} (grant_type=client_credentials, scope="content:read ${QUOTA_SCOPE}"), y conecte con Authorization: Bearer <token>; véase ${siteUrl}${AUTH_MD_PATH}.`;
      if (credential.kind !== 'token') {
        return toolError(`get_quota necesita un token Bearer con el alcance ${QUOTA_SCOPE}, y esta conexión no envía ninguno. ${howTo}`);
      }
      if (!credential.token.scope.includes(QUOTA_SCOPE)) {
        return toolError(`El token de esta conexión no tiene el alcance ${QUOTA_SCOPE} (tiene: ${credential.token.scope.join(' ') || 'ninguno'}). Pida un token con scope=${QUOTA_SCOPE} en POST ${siteUrl}${TOKEN_PATH}.`);
      }
      return jsonResult(quotaResource(credential.token, quota));
    }),
  ];
  return tools as unknown as McpTool[];
}

const searchDescription = [
  'Busca en las páginas publicadas del sitio (servicios del hogar, ciudades y guías de problemas) y devuelve las URL más relevantes con un extracto.',
  'Úsela primero, con lo que pide la persona tal como lo dice: un servicio, un problema ("fuga de agua", "no cierra la puerta"), una pregunta sobre el servicio o un servicio y una ciudad;',
  'si el usuario nombra una de las 21 ciudades, pásela en `city`: primero salen las páginas de esa ciudad y después las que valen para todas (guías, páginas generales).',
  'Si el sitio no ofrece lo que se busca, devuelve 0 resultados: dígaselo a la persona en lugar de ofrecer otra cosa.',
  'Después lea la `url` del resultado que interese con read_page. Si `next_cursor` no es null, repita la búsqueda con `cursor` para la página siguiente.',
].join(' ');

const readDescription = [
  'Devuelve el texto completo de una página publicada del sitio en Markdown, sin menús ni pie.',
  'Úsela con una `url` devuelta por search_pages (también admite la ruta del sitio, /servicios/fontaneria/, o el slug, fontaneria).',
  '`truncated: true` indica que el texto se ha cortado.',
].join(' ');

const companyDescription = [
  'Datos de la empresa: marca, razón social, NIF, dirección, teléfono, correo y horario; cómo funciona el servicio (quién hace, presupuesta, factura y garantiza el trabajo; no se contrata ni paga nada en línea);',
  'impuestos, precios orientativos, y los servicios y ciudades con su URL.',
  'Úsela para preguntas de contacto, precios, IVA, garantía o modelo de servicio; `section` limita la respuesta a una parte.',
].join(' ');

const quotaDescription = (siteUrl: Config['siteUrl']) => [
  'Devuelve la cuota de su client_id: política, límite por ventana, llamadas usadas y restantes, y segundos hasta el reinicio (esta llamada cuenta).',
  `Requiere conectarse con un token Bearer con el alcance quota:read (gratis: POST ${siteUrl}${REGISTER_PATH} y POST ${siteUrl}${TOKEN_PATH}); sin él devuelve un error.`,
].join(' ');
