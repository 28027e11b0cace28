/**
 * GET /agents.md — instructions for AI agents and other automated clients: what the site is and
 * is not, the normal flow, quotas, headers, errors, MCP and where everything else is. Written
 * from the Config and the modules that implement what it describes; no number is typed here.
 */
import type { Config } from '../config.ts';
import { API_CODES } from '../errors.ts';
import { API_VERSION } from '../api-headers.ts';
import { CITY_SLUGS } from '../../formats/schemas/cities.ts';
import { LIMITS, SEARCH_CITY_HELP, SEARCH_QUERY_HELP } from '../schemas/params.ts';
import { COMPANY_SECTION_FIELDS, COMPANY_SECTIONS } from '../../formats/schemas/resources.ts';
import { links } from './links.ts';
import { errorCodesFor } from './openapi.ts';
import { OPERATIONS, operationPath } from '../operations/index.ts';
import { code, hostOf, perWindow } from './text.ts';
import { PROTOCOL_VERSIONS, STATELESS_VERSION } from '../mcp-versions.ts';
import { MCP_BATCH_LIMIT, MCP_BATCH_REPLY_LIMIT, MCP_MESSAGE_FACTOR } from '../mcp/limits.ts';

export type AgentsMdConfig = Pick<Config, 'siteUrl' | 'baseUrl' | 'rateLimit' | 'readPageMaxChars' | 'deprecation'>;

/** Contract, "Versioning": v1 keeps working at least this long after its deprecation is announced. */
export const DEPRECATION_NOTICE_DAYS = 90;

const ERROR_ADVICE: Record<number, string> = {
  400: 'Corrija el parámetro que nombra `data.hint`; repetir la misma petición dará el mismo error. `agentes_page_changed`: la página cambió entre dos partes; léala otra vez desde `offset` 0.',
  401: 'Token no válido, caducado o revocado (nunca se trata como anónimo), o falta el token en `/quota`. Pida un token nuevo o quite la cabecera `Authorization`.',
  403: 'El token no tiene el alcance necesario (`quota:read` para `/quota`). Pida un token con ese alcance.',
  404: 'La operación o la página no existe. Para páginas, use una `url` devuelta por `search_pages`.',
  405: 'Método no permitido: todas las operaciones son GET (o HEAD).',
  429: 'Cuota agotada: espere los segundos de `Retry-After` antes de reintentar.',
  500: 'Error interno: reintente más tarde, con espera creciente.',
  503: 'No se puede comprobar el token en este momento (sin token, el contenido sigue respondiendo): reintente tras `Retry-After`.',
};

export function buildAgentsMd(config: AgentsMdConfig): string {
  const l = links(config);
  const { anonymous, identified, windowSeconds } = config.rateLimit;
  const per = perWindow(windowSeconds);
  const b = config.baseUrl;
  const op = (name: string) => b + operationPath(name);
  const sections = Object.entries(COMPANY_SECTION_FIELDS)
    .map(([s, fields]) => `     - ${code(s)}: ${fields.map(code).join(', ')}`);
  const statuses = [400, 401, 403, 404, 405, 429, 500, 503];
  const codesOf = (status: number) => (status === 405 ? [API_CODES.methodNotAllowed] : errorCodesFor(status));
  const dep = config.deprecation;

  return [
    `# agents.md — ${hostOf(l.site)}`,
    '',
    `> Instrucciones para agentes de IA y clientes automáticos de ${l.site}. API de solo lectura en ${b}, también como herramientas MCP en ${l.mcpResource}. Leer no requiere registro.`,
    '',
    '## Qué es este sitio',
    '',
    `- Recibe solicitudes de reparaciones, reformas y servicios técnicos de hogares, comunidades y negocios en ${CITY_SLUGS.length} ciudades e islas de España.`,
    '- Pasa cada solicitud a un profesional colaborador del oficio y la provincia adecuados, que contacta con el cliente, presupuesta, realiza, factura y garantiza el trabajo.',
    '- Publica páginas de servicios, ciudades y guías de averías. La API permite buscarlas, leerlas en Markdown y consultar los datos de la empresa sin rastrear el HTML.',
    '',
    '## Qué no es',
    '',
    '- No realiza los trabajos con técnicos propios, no los dirige ni los supervisa y no es parte del contrato entre cliente y profesional.',
    '- No reserva, no contrata y no cobra: en este sitio no se paga nada en línea. Las solicitudes las hace la persona por teléfono, WhatsApp o correo (datos en `get_company_info?section=contact`). Un agente no puede enviar una solicitud por la API.',
    '- La API es de solo lectura: todas las operaciones son GET, ninguna crea ni modifica nada, y un token de este servicio no da ningún permiso en el gestor de contenidos.',
    `- Producción es el sandbox: al ser de solo lectura, puede probar contra producción sin riesgo (${l.sandbox}).`,
    '- No hay planes de pago ni periodos de prueba que caduquen.',
    '',
    '## Flujo normal',
    '',
    `1. **Buscar** con \`search_pages\`: \`GET ${op('search_pages')}?query=fuga+de+agua&city=madrid\``,
    `   - \`query\` (obligatorio): ${SEARCH_QUERY_HELP}`,
    `   - \`city\` (opcional): uno de ${CITY_SLUGS.map(code).join(', ')}, o \`todas\`. ${SEARCH_CITY_HELP}`,
    `   - \`limit\` (opcional): ${LIMITS.limitMin}–${LIMITS.limitMax} resultados por página, ${LIMITS.limitDefault} por defecto. \`cursor\` (opcional, máx. ${LIMITS.cursorMax} caracteres): el \`next_cursor\` de la respuesta anterior; \`next_cursor\` es \`null\` cuando no hay más.`,
    `2. **Leer** una página con \`read_page\`, pasando la \`url\` de un resultado: \`GET ${op('read_page')}?url=<url codificada>\``,
    `   - Acepta la URL completa, la ruta del sitio (\`/servicios/fontaneria/\`) o el slug; ${LIMITS.urlMin}–${LIMITS.urlMax} caracteres.`,
    `   - Devuelve el texto en Markdown sin menús ni pie y sus secciones (\`sections\`: \`title\`, \`level\`, \`offset\`).`,
    `   - Una página de más de ${config.readPageMaxChars} caracteres llega en partes cortadas tras un párrafo: si \`truncated\` es \`true\`, pida la siguiente con \`offset\` = \`next_offset\` y \`version\` = el \`version\` de la respuesta, hasta que \`next_offset\` sea \`null\`. Las partes unidas son el Markdown completo (\`total_chars\` caracteres); para ir a una sección, pase su \`offset\` (y \`version\`). Si la página se publica de nuevo entre dos partes, la respuesta es 400 \`agentes_page_changed\`: vuelva a leerla desde \`offset\` 0.`,
    `3. **Datos de la empresa** con \`get_company_info\`: \`GET ${op('get_company_info')}?section=contact\``,
    `   - \`section\`: ${COMPANY_SECTIONS.map(code).join(', ')} (\`all\` por defecto). Campos de cada sección:`,
    ...sections,
    '   - Para contacto, horario, precios orientativos, impuestos y modelo de servicio, use estos datos en lugar de deducirlos de las páginas.',
    '',
    'Ejemplo:',
    '',
    '```sh',
    `curl -s '${op('search_pages')}?query=fontanero&city=madrid&limit=3'`,
    `curl -s '${op('read_page')}?url=%2Fservicios%2Ffontaneria%2F'`,
    '```',
    '',
    '## Búsqueda estática sin la API',
    '',
    `- ${l.pagefind} ofrece la búsqueda simple por palabras del sitio como archivos estáticos de Pagefind, que una CDN puede servir: no pasa por la API ni gasta su cuota, y admite CORS desde cualquier origen. Se importa como módulo: \`const pagefind = await import('${l.pagefind}'); const { results } = await pagefind.search('fontanero', { filters: { city: 'madrid' } });\`; \`await results[0].data()\` da \`url\`, \`meta.title\` y \`excerpt\`.`,
    `- Un sitio grande publica el índice en partes: ${l.pagefindParts} lista las demás (\`{"parts":["part-2/"]}\`, direcciones relativas a ese archivo; vacía si hay una sola). Antes de buscar, añádalas: \`for (const part of parts) await pagefind.mergeIndex(new URL(part, '${l.pagefindParts}').href);\`.`,
    '- Es solo búsqueda por palabras, sin el léxico de la API: no entiende sinónimos, otros idiomas, erratas ni intenciones («se ha ido la luz», «¿quién factura?»). Para las mejores respuestas, use `search_pages`.',
    '',
    '## Cuotas',
    '',
    `- **Sin token** (política \`anonimo\`): ${anonymous} peticiones ${per} por dirección IP.`,
    `- **Con token** (política \`identificado\`): ${identified} peticiones ${per} por \`client_id\`, con los mismos datos.`,
    `- Para subir la cuota, regístrese: es gratis, automático e inmediato, sin aprobación humana. Pasos y ejemplos en ${l.authMd}.`,
    `- Cuenta toda petición que llega a una operación o a ${l.identity}, también las que acaban en error (un 400, un 401 por token no válido, un 304). Las peticiones de comprobación CORS (OPTIONS) no cuentan.`,
    `- \`GET ${op('get_quota')}\` (token con alcance \`quota:read\`) devuelve su cuota: \`policy\`, \`limit\`, \`used\`, \`remaining\`, \`reset_seconds\`.`,
    '',
    '## Cabeceras de cuota y qué hacer con un 429',
    '',
    'Toda respuesta de las cuatro operaciones, errores y 429 incluidos, lleva:',
    '',
    `- \`RateLimit-Policy: "anonimo";q=${anonymous};w=${windowSeconds}\` — política, peticiones por ventana (\`q\`) y segundos de ventana (\`w\`).`,
    `- \`RateLimit: "anonimo";r=${anonymous - 1};t=${windowSeconds}\` — peticiones restantes (\`r\`) y segundos hasta el reinicio (\`t\`, nunca una fecha).`,
    `- \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\`: lo mismo en enteros sueltos.`,
    `- \`API-Version: ${API_VERSION}\`.`,
    '',
    'Con `429 Too Many Requests`, espere los segundos de `Retry-After` (nunca menos que `t`) y no reintente antes; si va a hacer muchas peticiones, repártalas para que `RateLimit-Remaining` no llegue a 0.',
    'Las respuestas 200 de contenido llevan `ETag`: repita con `If-None-Match` y recibirá `304` sin cuerpo si nada ha cambiado.',
    '',
    '## Errores',
    '',
    'Los errores de la API son siempre JSON, nunca HTML:',
    '',
    '```json',
    `{"code": "${API_CODES.invalidParam}", "message": "Parámetro no válido: city. …", "data": {"status": 400, "hint": "city"}}`,
    '```',
    '',
    '| Estado | `code` | Qué hacer |',
    '|---|---|---|',
    ...statuses.map((s) => `| ${s} | ${codesOf(s).map(code).join(', ')} | ${ERROR_ADVICE[s]} |`),
    '',
    `Los 401 y 403 llevan \`WWW-Authenticate: Bearer … resource_metadata="${l.protectedResourceApi}"\`. Los errores de los endpoints OAuth tienen otra forma: \`{"error", "error_description"}\` (RFC 6749 §5.2); véase ${l.authMd}.`,
    '',
    '## MCP',
    '',
    `Las mismas operaciones están disponibles como herramientas MCP en \`POST ${l.mcpResource}\` (transporte Streamable HTTP, sin sesión; revisiones ${PROTOCOL_VERSIONS.map(code).join(', ')}: ${code(STATELESS_VERSION)} sin \`initialize\`, con \`server/discover\` y la revisión en el \`_meta\` de cada petición; las demás con \`initialize\`):`,
    '',
    ...OPERATIONS.map((o) => `- \`${o.name}\`${o.access.kind === 'token' ? ` (requiere token con \`${o.access.scope}\`)` : ''}`),
    '',
    'Se aplican las mismas cuotas, tokens y alcances que en la API REST; el token es opcional salvo para `get_quota`, y un token no válido recibe 401 con `resource_metadata`.',
    `Los demás mensajes (\`initialize\`, \`tools/list\`, \`resources/list\`, \`ping\`, notificaciones…), uno a uno también dentro de un lote, cuentan en una ventana aparte: ${MCP_MESSAGE_FACTOR * anonymous} ${per} por IP sin token, ${MCP_MESSAGE_FACTOR * identified} con token (políticas \`mcp-anonimo\` y \`mcp-identificado\`; agotada, 429 con \`Retry-After\`).`,
    `Un lote JSON-RPC (solo en 2025-03-26) lleva como mucho ${MCP_BATCH_LIMIT} mensajes, cada petición con su propio \`id\` (si no, -32600 sin ejecutar nada); pasados ${MCP_BATCH_REPLY_LIMIT / (1024 * 1024)} MiB de respuestas, las siguientes son un error que pide enviarlas solas. Un argumento que la herramienta no declara es -32602 con su nombre.`,
    `Las páginas son también recursos MCP (\`text/markdown\`, plantilla \`${l.site}/{+path}\`): \`resources/read\` de la URL de una página devuelve su Markdown como \`read_page\` y cuenta igual; una página larga sigue en la URI \`next\` que da \`_meta\` (\`?offset=…&version=…\`), un error si la página ha cambiado.`,
    `Tarjeta del servidor: ${l.mcpServerCard}. Metadatos del recurso protegido: ${l.protectedResourceMcp}.`,
    '',
    '## Descubrimiento',
    '',
    `- OpenAPI 3.1: ${l.openapi}`,
    `- Autenticación paso a paso: ${l.authMd}`,
    `- Catálogo de APIs (RFC 9727): ${l.apiCatalog}`,
    `- Servidor de autorización (RFC 8414): ${l.authorizationServerMetadata}`,
    `- Recurso protegido, API (RFC 9728): ${l.protectedResourceApi}`,
    `- Recurso protegido, sitio: ${l.protectedResourceSite}`,
    `- Recurso protegido, MCP: ${l.protectedResourceMcp}`,
    `- Resumen para modelos de lenguaje: ${l.llmsTxt} (texto completo: ${l.llmsFullTxt})`,
    `- Documentación para desarrolladores: ${l.developers}`,
    '- No existe `/.well-known/openid-configuration`: no hay usuarios ni inicio de sesión (OpenID Connect no aplica).',
    '',
    '## Versionado',
    '',
    `- Versión actual: v1, en la ruta (\`${b}\`) y en la cabecera \`API-Version: ${API_VERSION}\`.`,
    '- Los cambios compatibles (campos y operaciones nuevos) se añaden dentro de v1 sin aviso: ignore lo que no conozca.',
    `- Los cambios incompatibles llegan como v2; v1 sigue funcionando al menos ${DEPRECATION_NOTICE_DAYS} días después de anunciar su obsolescencia, con las cabeceras \`Deprecation\`, \`Sunset\` y \`Link\` (\`rel="deprecation"\`).`,
    dep
      ? `- **v1 está anunciada como obsoleta** desde ${dep.deprecatedAt.toUTCString()}; se retira el ${dep.sunsetAt.toUTCString()}.`
      : '- Ninguna versión está anunciada como obsoleta.',
    `- Política completa: ${l.versioning}`,
    '',
    '## In English',
    '',
    `Read-only API over the published pages of a Spanish home-services request site (it passes requests to partner professionals; no booking, no payment, nothing is written). `
      + `Flow: \`search_pages\` → \`read_page\` with a returned URL; \`get_company_info\` for facts. `
      + `Quota: ${anonymous} requests ${windowSeconds === 60 ? 'per minute' : `per ${windowSeconds} s`} per IP without a token, ${identified} per client_id with a free, automatic OAuth 2.0 client-credentials token (${l.authMd}). `
      + `On 429 wait \`Retry-After\` seconds. Errors are JSON \`{code, message, data: {status, hint}}\`. MCP: \`POST ${l.mcpResource}\`. OpenAPI: ${l.openapi}. Production is the sandbox. `
      + `${l.pagefind} (Pagefind) is the site's plain keyword search as static files, from a CDN, without the API or its quota; it lacks the API's lexicon (synonyms, other languages, typos, intents): for the best answers use \`search_pages\`.`,
    '',
  ].join('\n');
}
