/**
 * GET /openapi.json — the OpenAPI 3.1 contract of the content API (conformance.md §10), built from
 * the live Config and the operations' definitions (server/operations): their paths, texts,
 * parameters, bodies and access; error codes from errors.ts, scopes from auth/types.ts. Nothing
 * in it is kept in step by hand.
 */
import type { Config } from '../config.ts';
import { SCOPES, type Scope } from '../auth/types.ts';
import { DEFAULT_SCOPE } from '../auth/clients.ts';
import { TOKEN_TTL_SECONDS } from '../auth/tokens.ts';
import { API_CODES } from '../errors.ts';
import { API_VERSION } from '../api-headers.ts';
import { OPERATIONS } from '../operations/index.ts';
import type { Operation } from '../operations/operation.ts';
import { ErrorSchema } from '../../formats/schemas/resources.ts';
import { componentSchemas, inputProperties, type JsonSchema } from './json-schema.ts';
import { links } from './links.ts';

export const OPENAPI_VERSION = '3.1.0';
export const CONTRACT_VERSION = '1.0.0';
/** RFC 9727 / IANA media type of an OpenAPI 3.1 description. */
export const OPENAPI_MEDIA_TYPE = 'application/vnd.oai.openapi+json;version=3.1';

export type OpenApiConfig = Pick<Config, 'siteUrl' | 'baseUrl' | 'rateLimit' | 'deprecation'>;
export type OpenApiDocument = JsonSchema & {
  openapi: string;
  servers: { url: string; description?: string }[];
  paths: Record<string, Record<string, JsonSchema>>;
  components: JsonSchema & { schemas: Record<string, JsonSchema> };
};

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'content:read': 'Leer el contenido con la cuota elevada; los mismos datos que sin token.',
  'quota:read': 'Leer la cuota propia del cliente en /quota.',
};

/** Which stable error codes each status carries (values from server/errors.ts). */
const CODES_BY_STATUS: Record<number, string[]> = {
  400: [API_CODES.missingParam, API_CODES.invalidParam, API_CODES.pageChanged],
  401: [API_CODES.notLoggedIn, API_CODES.invalidToken],
  403: [API_CODES.insufficientScope],
  404: [API_CODES.noRoute, API_CODES.pageNotFound],
  429: [API_CODES.rateLimited],
  500: [API_CODES.internal],
  503: [API_CODES.unavailable],
};
export const errorCodesFor = (status: number): readonly string[] => CODES_BY_STATUS[status] ?? [];

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });
const codes = (status: number) => errorCodesFor(status).map((c) => `\`${c}\``).join(', ');

/** `operations`: what the server serves (all of operations/index.ts unless it was given others). */
export function buildOpenApi(config: OpenApiConfig, operations: readonly Operation[] = OPERATIONS): OpenApiDocument {
  const l = links(config);
  const { anonymous, identified, windowSeconds } = config.rateLimit;
  const deprecated = config.deprecation !== null;

  const headers: Record<string, JsonSchema> = {
    RateLimit: {
      description: 'Estado de la cuota (draft-ietf-httpapi-ratelimit-headers, RFC 9651): nombre de la política entre comillas, `r` peticiones restantes y `t` segundos hasta que se reinicia el contador.',
      required: true,
      schema: { type: 'string', pattern: '^"(anonimo|identificado)";r=[0-9]+;t=[0-9]+$' },
      example: `"anonimo";r=${anonymous - 1};t=${windowSeconds}`,
    },
    'RateLimit-Policy': {
      description: 'Política aplicada: nombre entre comillas, `q` peticiones por ventana y `w` duración de la ventana en segundos.',
      required: true,
      schema: { type: 'string', pattern: '^"(anonimo|identificado)";q=[0-9]+;w=[0-9]+$' },
      example: `"anonimo";q=${anonymous};w=${windowSeconds}`,
    },
    'RateLimit-Limit': { description: 'Peticiones admitidas por ventana.', required: true, schema: { type: 'integer', minimum: 0 }, example: anonymous },
    'RateLimit-Remaining': { description: 'Peticiones que quedan en la ventana actual (nunca negativo).', required: true, schema: { type: 'integer', minimum: 0 }, example: anonymous - 1 },
    'RateLimit-Reset': { description: 'Segundos hasta que se reinicia el contador.', required: true, schema: { type: 'integer', minimum: 0 }, example: windowSeconds },
    'API-Version': { description: 'Versión mayor de la API.', required: true, schema: { type: 'string', enum: [API_VERSION] } },
    'Retry-After': { description: 'Segundos que hay que esperar antes de reintentar.', required: true, schema: { type: 'integer', minimum: 0 } },
    'WWW-Authenticate': {
      description: `Desafío Bearer (RFC 6750) con \`resource_metadata\` (RFC 9728): ${l.protectedResourceApi}`,
      required: true,
      schema: { type: 'string', pattern: '^Bearer .*resource_metadata="[^"]+"' },
    },
    ETag: { description: 'Validador fuerte de la representación; envíelo en `If-None-Match` para recibir 304.', required: true, schema: { type: 'string', pattern: '^"[^"]*"$' } },
    Deprecation: {
      description: `Solo cuando la versión está anunciada como obsoleta (RFC 9745): \`@<segundos desde epoch>\`. Política: ${l.versioning}`,
      schema: { type: 'string', pattern: '^@-?[0-9]+$' },
    },
    Sunset: { description: 'Solo cuando la versión está anunciada como obsoleta (RFC 8594): fecha HTTP de retirada.', schema: { type: 'string' } },
    Link: { description: 'Solo cuando la versión está anunciada como obsoleta: enlace con `rel="deprecation"` a la política de versiones.', schema: { type: 'string' } },
  };

  const quotaHeaders = {
    RateLimit: ref('headers', 'RateLimit'),
    'RateLimit-Policy': ref('headers', 'RateLimit-Policy'),
    'RateLimit-Limit': ref('headers', 'RateLimit-Limit'),
    'RateLimit-Remaining': ref('headers', 'RateLimit-Remaining'),
    'RateLimit-Reset': ref('headers', 'RateLimit-Reset'),
  };
  const versionHeaders = {
    'API-Version': ref('headers', 'API-Version'),
    Deprecation: ref('headers', 'Deprecation'),
    Sunset: ref('headers', 'Sunset'),
    Link: ref('headers', 'Link'),
  };
  const errorContent = { 'application/json': { schema: ref('schemas', 'Error') } };
  const errorResponse = (description: string, status: number, extra: Record<string, unknown> = {}) => ({
    description: `${description} Códigos: ${codes(status)}.`,
    headers: { ...quotaHeaders, ...versionHeaders, ...extra },
    content: errorContent,
  });

  const responses: Record<string, JsonSchema> = {
    NotModified: {
      description: 'No modificado: el `ETag` enviado en `If-None-Match` sigue siendo válido (RFC 9110 §15.4.5). Sin cuerpo.',
      headers: { ...quotaHeaders, ...versionHeaders, ETag: ref('headers', 'ETag') },
    },
    BadRequest: errorResponse('Falta un parámetro obligatorio o no es válido; `data.hint` nombra el parámetro.', 400),
    Unauthorized: errorResponse(
      'Token Bearer no válido, caducado o revocado (en cualquier operación; nunca se trata como anónimo), o falta el token en `/quota`.',
      401,
      { 'WWW-Authenticate': ref('headers', 'WWW-Authenticate') },
    ),
    Forbidden: errorResponse('El token no tiene el alcance `quota:read`.', 403, { 'WWW-Authenticate': ref('headers', 'WWW-Authenticate') }),
    NotFound: errorResponse('La operación o la página no existe.', 404),
    TooManyRequests: errorResponse(
      `Cuota agotada (${anonymous} peticiones cada ${windowSeconds} s por IP sin token; ${identified} por client_id con token). Espere los segundos de \`Retry-After\`.`,
      429,
      { 'Retry-After': ref('headers', 'Retry-After') },
    ),
    InternalError: errorResponse('Error interno.', 500),
    ServiceUnavailable: {
      description: `No se puede comprobar el token en este momento (sin token, el contenido sigue respondiendo); reintente tras \`Retry-After\`. Códigos: ${codes(503)}.`,
      headers: { 'API-Version': ref('headers', 'API-Version'), 'Retry-After': ref('headers', 'Retry-After') },
      content: errorContent,
    },
  };

  const ok = (schema: string, description: string, etag: boolean) => ({
    description,
    headers: { ...quotaHeaders, ...versionHeaders, ...(etag ? { ETag: ref('headers', 'ETag') } : {}) },
    content: { 'application/json': { schema: ref('schemas', schema) } },
  });

  /** The errors an operation can answer with, by its access and whether its 200 is cacheable. */
  const errorsOf = (op: Operation) => op.access.kind === 'open'
    ? {
        ...(op.cacheable ? { '304': ref('responses', 'NotModified') } : {}),
        '400': ref('responses', 'BadRequest'),
        '401': ref('responses', 'Unauthorized'),
        '404': ref('responses', 'NotFound'),
        '429': ref('responses', 'TooManyRequests'),
        '500': ref('responses', 'InternalError'),
        '503': ref('responses', 'ServiceUnavailable'),
      }
    : {
        '401': ref('responses', 'Unauthorized'),
        '403': ref('responses', 'Forbidden'),
        '429': ref('responses', 'TooManyRequests'),
        '500': ref('responses', 'InternalError'),
        '503': ref('responses', 'ServiceUnavailable'),
      };
  const securityOf = (op: Operation) => (op.access.kind === 'open'
    ? [{}, { oauth2: [op.access.raisedBy] }]
    : [{ oauth2: [op.access.scope] }]);

  const paths = Object.fromEntries(operations.map((op) => ['/' + op.path, {
    get: {
      operationId: op.name,
      summary: op.rest.summary,
      description: op.rest.description,
      tags: [op.tag],
      ...(deprecated ? { deprecated: true } : {}),
      parameters: inputProperties(op.input).map((p) => ({
        name: p.name,
        in: 'query',
        required: p.required,
        ...(p.description ? { description: p.description } : {}),
        schema: p.schema,
      })),
      security: securityOf(op),
      responses: { '200': ok(op.output.name, op.output.description, op.cacheable), ...errorsOf(op) },
    },
  }]));

  // Each operation's body and the parts it is made of, then the error body: each named once.
  const schemas = componentSchemas({
    ...Object.fromEntries(operations.flatMap((op) => [[op.output.name, op.output.schema], ...Object.entries(op.output.parts ?? {})])),
    Error: ErrorSchema,
  });
  const allCodes = Object.values(API_CODES).map((c) => `\`${c}\``).join(', ');
  schemas.Error = {
    ...schemas.Error,
    description: `Cuerpo de todo error de la API, siempre JSON. Valores de \`code\`: ${allCodes}. Pueden añadirse códigos nuevos dentro de v1.`,
  };

  const description = [
    'API pública de solo lectura sobre las páginas publicadas de un sitio que recibe solicitudes de reparaciones, reformas y servicios técnicos del hogar',
    'y las pasa a profesionales colaboradores. Ninguna operación reserva, contrata, paga, crea ni modifica nada: producción es también el entorno de pruebas',
    `(${l.sandbox}).`,
    '',
    `Sin credenciales: ${anonymous} peticiones cada ${windowSeconds} s por IP. Con un token OAuth 2.0 (client credentials, registro gratuito y automático en`,
    `${l.register}): ${identified} peticiones cada ${windowSeconds} s por client_id. Guía: ${l.authMd}. Instrucciones para agentes: ${l.agentsMd}.`,
    '',
    `Versionado: v1 en la ruta y en la cabecera \`API-Version\`; los cambios compatibles se añaden dentro de v1 (ignore los campos que no conozca); política en ${l.versioning}.`,
    ...(config.deprecation
      ? ['', `**v1 está anunciada como obsoleta desde ${config.deprecation.deprecatedAt.toISOString()} y se retira el ${config.deprecation.sunsetAt.toISOString()}.**`]
      : []),
  ].join('\n');

  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'API de contenido para agentes (solo lectura)',
      version: CONTRACT_VERSION,
      summary: 'Buscar y leer en Markdown las páginas publicadas y consultar los datos de la empresa.',
      description,
      contact: { name: 'Documentación para desarrolladores', url: l.developers },
      license: { name: 'Uso según el aviso legal del sitio', url: `${l.site}/aviso-legal/` },
    },
    servers: [{ url: config.baseUrl, description: 'Producción; también sirve de sandbox (solo lectura).' }],
    tags: [
      { name: 'contenido', description: 'Búsqueda, lectura de páginas y datos de la empresa. Token opcional.' },
      { name: 'cuota', description: 'Cuota del cliente identificado. Exige token.' },
    ],
    externalDocs: { description: 'Documentación para desarrolladores y política de versiones', url: l.developers },
    paths,
    components: {
      schemas,
      responses,
      headers,
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          description: `OAuth 2.0 client credentials (RFC 6749 §4.4). Registro dinámico en ${l.register} (RFC 7591); metadatos en ${l.authorizationServerMetadata}. `
            + `Un token pedido sin \`scope\` recibe los alcances registrados del cliente (por defecto \`${DEFAULT_SCOPE.join(' ')}\`); caduca a los ${TOKEN_TTL_SECONDS} s.`,
          flows: {
            clientCredentials: {
              tokenUrl: l.token,
              scopes: Object.fromEntries(SCOPES.map((s) => [s, SCOPE_DESCRIPTIONS[s]])),
            },
          },
        },
      },
    },
  };
}
