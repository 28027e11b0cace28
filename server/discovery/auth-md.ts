/**
 * GET /auth.md — how an agent registers and authenticates (the auth.md convention: an H1 naming
 * auth.md, discovery first, then a numbered walkthrough). Every value comes from the Config and
 * the OAuth modules. The ```sh blocks are meant to be run in order in one shell: later blocks use
 * the CLIENT_ID, CLIENT_SECRET and TOKEN variables set by earlier ones (with `jq`), and the test
 * suite runs them exactly as printed against a live server.
 */
import type { Config } from '../config.ts';
import { AUTH_METHODS, CLIENT_IDLE_SECONDS, DEFAULT_SCOPE } from '../auth/clients.ts';
import { TOKEN_TTL_SECONDS } from '../auth/tokens.ts';
import { SCOPES } from '../auth/types.ts';
import { LIMITS as OAUTH_LIMITS } from '../auth/oauth-limits.ts';
import { acceptedResources } from '../routes/oauth/token.ts';
import { links } from './links.ts';
import { SCOPE_DESCRIPTIONS } from './openapi.ts';
import { operationPath } from '../operations/index.ts';
import { code, duration, hostOf, perWindow } from './text.ts';

export type AuthMdConfig = Pick<Config, 'siteUrl' | 'baseUrl' | 'rateLimit'>;

const per = (max: number, windowSeconds: number) =>
  `${max} ${windowSeconds === 3600 ? 'por hora' : perWindow(windowSeconds)}`;

export function buildAuthMd(config: AuthMdConfig): string {
  const l = links(config);
  const { anonymous, identified, windowSeconds } = config.rateLimit;
  const b = config.baseUrl;
  const defaultScope = DEFAULT_SCOPE.join(' ');
  const { register, token, manage } = OAUTH_LIMITS;
  const sh = (...lines: string[]) => ['```sh', ...lines, '```'];

  return [
    `# auth.md — ${hostOf(l.site)}`,
    '',
    `> Cómo se registra y se autentica un agente en ${l.site}. Registrarse es **opcional, gratis, automático e inmediato** (sin aprobación humana):`,
    `> solo eleva la cuota de ${anonymous} a ${identified} peticiones ${perWindow(windowSeconds)} sobre los mismos datos públicos. Leer no requiere credenciales.`,
    '',
    '- Servidor de autorización (emisor): ' + l.issuer,
    `- Recursos protegidos: la API de contenido (${l.apiResource}) y el servidor MCP (${l.mcpResource}).`,
    '- Tipo de identidad: `anonymous`. No hay cuentas de usuario ni aserciones de identidad: un `client_id` pertenece a quien tenga su `client_secret`, y nada se reclama ni se vincula. Si pierde el secreto, regístrese de nuevo.',
    `- Flujo: registro (${l.register}) → token (${l.token}) → \`Authorization: Bearer <token>\` → revocación (${l.revoke}).`,
    '',
    'Los ejemplos usan `curl` y `jq`, y se ejecutan en orden en la misma shell: cada bloque usa las variables que fijan los anteriores.',
    '',
    '## 0. Descubrir',
    '',
    `Una respuesta 401 de la API lleva \`WWW-Authenticate: Bearer resource_metadata="${l.protectedResourceApi}"\`. Ese documento (RFC 9728) nombra el servidor de autorización en \`authorization_servers\`, y sus metadatos (RFC 8414) están en ${l.authorizationServerMetadata}, con el bloque \`agent_auth\`:`,
    '',
    ...sh(
      `curl -s ${l.protectedResourceApi}`,
      `curl -s ${l.authorizationServerMetadata}`,
    ),
    '',
    '## 1. Registrarse',
    '',
    `\`POST ${l.register}\` con un cuerpo JSON (registro dinámico, RFC 7591). Todos los campos son opcionales:`,
    '',
    '- `client_name`: nombre de su agente.',
    '- `contacts`: lista de direcciones de correo electrónico para avisos sobre el cliente.',
    `- \`token_endpoint_auth_method\`: ${AUTH_METHODS.map(code).join(' (por defecto) o ')}; ambos métodos se aceptan siempre en el endpoint de tokens.`,
    `- \`scope\`: alcances separados por espacios, entre ${SCOPES.map(code).join(' y ')}; por defecto, \`${defaultScope}\`.`,
    '',
    ...sh(
      `REGISTRO=$(curl -s -X POST ${l.register} -H 'Content-Type: application/json' -d '{"client_name":"mi-agente","contacts":["yo@example.com"]}')`,
      'echo "$REGISTRO"',
      'CLIENT_ID=$(echo "$REGISTRO" | jq -r .client_id)',
      'CLIENT_SECRET=$(echo "$REGISTRO" | jq -r .client_secret)',
    ),
    '',
    'Respuesta `201 Created`: `client_id`, `client_secret`, `client_id_issued_at`, `client_secret_expires_at` (`0`: no caduca) y los metadatos registrados (`client_name`, `contacts`, `grant_types`, `response_types`, `token_endpoint_auth_method`, `scope`).',
    `**Guarde el \`client_secret\`: solo se muestra esta vez** (el servidor guarda únicamente su hash). Un cliente que no pide ningún token en ${duration(CLIENT_IDLE_SECONDS)} se recicla.`,
    '',
    '## 2. Pedir un token',
    '',
    `\`POST ${l.token}\` con \`grant_type=client_credentials\` en un formulario (\`application/x-www-form-urlencoded\`; RFC 6749 §4.4). El cliente se autentica con HTTP Basic (\`client_secret_basic\`, recomendado):`,
    '',
    ...sh(
      `RESPUESTA=$(curl -s -u "$CLIENT_ID:$CLIENT_SECRET" -d grant_type=client_credentials ${l.token})`,
      'echo "$RESPUESTA"',
      'TOKEN=$(echo "$RESPUESTA" | jq -r .access_token)',
    ),
    '',
    'Respuesta:',
    '',
    '```json',
    `{"access_token": "…", "token_type": "Bearer", "expires_in": ${TOKEN_TTL_SECONDS}, "scope": "${defaultScope}"}`,
    '```',
    '',
    `- **Alcance por defecto:** una petición sin \`scope\` recibe todos los alcances registrados del cliente (\`${defaultScope}\` si no registró otros). Con \`scope\` se pide un subconjunto; un alcance desconocido o no registrado da \`invalid_scope\`.`,
    `- El token es opaco, de tipo Bearer, y caduca a los ${TOKEN_TTL_SECONDS} segundos (${duration(TOKEN_TTL_SECONDS)}). No hay \`refresh_token\`: pida otro cuando caduque.`,
    `- \`resource\` (opcional, RFC 8707): ${[...acceptedResources(config)].map(code).join(', ')}. Cualquier otro valor da \`invalid_target\`.`,
    '- Las credenciales nunca van en la URL. Alternativa sin Basic (`client_secret_post`), aquí pidiendo solo `content:read`; no envíe ambos métodos a la vez:',
    '',
    ...sh(
      `curl -s -d grant_type=client_credentials -d "client_id=$CLIENT_ID" --data-urlencode "client_secret=$CLIENT_SECRET" -d scope=content:read ${l.token}`,
    ),
    '',
    '- **Desde un navegador:** los endpoints OAuth admiten peticiones de cualquier origen (CORS, `Access-Control-Allow-Origin: *`, sin cookies; `OPTIONS` responde la comprobación previa), como la API y los metadatos, para los clientes (p. ej. MCP) que se ejecutan en una página. Un `client_secret` que llega a una página lo lee quien la cargue: solo da cuota, pero no lo incluya en el código de un sitio público; registre el cliente desde esa página o pida los tokens desde su servidor.',
    '',
    '## 3. Usar el token',
    '',
    'Envíelo en la cabecera `Authorization: Bearer <token>` (no se admite en la URL). Las respuestas muestran la cuota elevada:',
    '',
    ...sh(
      `curl -si -H "Authorization: Bearer $TOKEN" '${b}${operationPath('get_company_info')}?section=contact'`,
    ),
    '',
    '```http',
    'HTTP/1.1 200 OK',
    `RateLimit-Policy: "identificado";q=${identified};w=${windowSeconds}`,
    `RateLimit: "identificado";r=${identified - 1};t=${windowSeconds}`,
    `RateLimit-Limit: ${identified}`,
    '```',
    '',
    '- Con token, las operaciones de contenido devuelven los mismos datos que sin él; solo cambia la cuota.',
    '- Un token no válido, caducado o revocado da **401** en cualquier operación: nunca se trata como anónimo. Pida uno nuevo o repita sin `Authorization`.',
    `- Servidor MCP: el mismo token vale para \`POST ${l.mcpResource}\`, en las herramientas y en los recursos (las páginas): \`tools/call\` y \`resources/read\` cuentan en la misma ventana que la API, y las listas no cuentan.`,
    '',
    '## 4. Consultar la cuota y la identidad',
    '',
    `\`GET ${b}${operationPath('get_quota')}\` exige el alcance \`quota:read\` (sin token: 401; sin ese alcance: 403). \`GET ${l.identity}\` acepta un token de cualquier alcance y devuelve \`client_id\`, \`client_name\` (si lo registró), \`scope\`, \`token_expires_at\` (segundos desde epoch) y \`quota\`; cada llamada cuenta en la cuota del cliente, como una de la API (cabeceras \`RateLimit\`; 429 con \`Retry-After\` al agotarla).`,
    '',
    ...sh(
      `curl -s -H "Authorization: Bearer $TOKEN" ${b}${operationPath('get_quota')}`,
      `curl -s -H "Authorization: Bearer $TOKEN" ${l.identity}`,
    ),
    '',
    '## 5. Introspección',
    '',
    `\`POST ${l.introspect}\` (RFC 7662), con la misma autenticación de cliente. Un token propio y vigente da \`{"active": true, "scope", "client_id", "token_type", "exp", "iat", "iss", "aud"}\`; cualquier otro (desconocido, caducado, revocado o de otro cliente), exactamente \`{"active": false}\`.`,
    '',
    ...sh(
      `curl -s -u "$CLIENT_ID:$CLIENT_SECRET" -d "token=$TOKEN" ${l.introspect}`,
    ),
    '',
    '## 6. Revocar',
    '',
    `\`POST ${l.revoke}\` (RFC 7009). Responde \`200\` sin cuerpo tanto si había algo que revocar como si no; un cliente solo puede revocar sus propios tokens. Después, el token da 401:`,
    '',
    ...sh(
      `curl -s -o /dev/null -w '%{http_code}\\n' -u "$CLIENT_ID:$CLIENT_SECRET" -d "token=$TOKEN" ${l.revoke}`,
      `curl -s -o /dev/null -w '%{http_code}\\n' -H "Authorization: Bearer $TOKEN" ${b}${operationPath('get_quota')}`,
    ),
    '',
    '## Alcances',
    '',
    '| Alcance | Permite |',
    '|---|---|',
    ...SCOPES.map((s) => `| \`${s}\` | ${SCOPE_DESCRIPTIONS[s]} |`),
    '',
    'Ningún alcance permite escribir: no existe ninguna operación de escritura, y un token de este servicio no da permisos en el gestor de contenidos.',
    '',
    '## Límites',
    '',
    '| Límite | Valor | Se aplica a |',
    '|---|---|---|',
    `| Cuota anónima | ${anonymous} peticiones ${perWindow(windowSeconds)}, por IP | API y MCP sin token |`,
    `| Cuota identificada | ${identified} peticiones ${perWindow(windowSeconds)}, por \`client_id\` | API y MCP con token |`,
    `| Registro | ${per(register.max, register.windowSeconds)}, por IP | \`${l.register}\` |`,
    `| Endpoint de tokens | ${per(token.max, token.windowSeconds)}, por IP | \`${l.token}\` |`,
    `| Revocación e introspección | ${per(manage.max, manage.windowSeconds)}, por IP (compartido) | \`${l.revoke}\`, \`${l.introspect}\` |`,
    `| Vida del token | ${TOKEN_TTL_SECONDS} segundos | tokens de \`${l.token}\` |`,
    `| Cliente inactivo | se recicla tras ${duration(CLIENT_IDLE_SECONDS)} sin pedir token | clientes registrados |`,
    '',
    'Pasado un límite de los endpoints OAuth: `429` con `Retry-After` y `{"error": "rate_limited", …}`. En la API: `429` con `Retry-After` y las cabeceras `RateLimit` (véase ' + l.agentsMd + ').',
    '',
    '## Errores',
    '',
    'Los endpoints OAuth responden errores JSON `{"error": "…", "error_description": "…"}` (RFC 6749 §5.2), con `Cache-Control: no-store`:',
    '',
    '| `error` | Estado | Causa |',
    '|---|---|---|',
    '| `invalid_request` | 400 | Falta o se repite un parámetro, tipo de contenido incorrecto, credenciales en la URL o dos métodos de autenticación a la vez |',
    '| `invalid_client` | 401 | Cliente desconocido o secreto incorrecto (con `WWW-Authenticate: Basic`) |',
    '| `invalid_client_metadata` | 400 | Registro con metadatos no admitidos (p. ej. `contacts` que no son correos, `token_endpoint_auth_method: "none"`) |',
    '| `unsupported_grant_type` | 400 | `grant_type` distinto de `client_credentials` |',
    '| `invalid_scope` | 400 | Alcance desconocido o no registrado para el cliente |',
    '| `invalid_target` | 400 | `resource` que no es un recurso de este sitio |',
    `| \`unsupported_response_type\` | 400 | \`${l.authorize}\`: no hay flujo interactivo; se publica solo por compatibilidad y siempre rechaza |`,
    '| `rate_limited` | 429 | Límite de registro, de tokens o de gestión superado; espere `Retry-After` |',
    '| `temporarily_unavailable` | 503 | Almacén no disponible; reintente tras `Retry-After` |',
    '',
    `Los errores de la API de contenido tienen otra forma (\`{"code", "message", "data": {"status", "hint"}}\`); véase ${l.agentsMd}.`,
    '',
    '## In English',
    '',
    `Registration is optional, free and automatic; it only raises the quota from ${anonymous} to ${identified} requests ${windowSeconds === 60 ? 'per minute' : `per ${windowSeconds} s`}. `
      + `\`POST ${l.register}\` (JSON, RFC 7591) → \`client_id\` + \`client_secret\` (shown once) → \`POST ${l.token}\` with \`grant_type=client_credentials\` `
      + `(client_secret_basic or client_secret_post) → Bearer token valid ${TOKEN_TTL_SECONDS} s; with no \`scope\` it gets the client's registered scopes (default \`${defaultScope}\`). `
      + `Revoke at \`${l.revoke}\` (RFC 7009), introspect at \`${l.introspect}\` (RFC 7662). Metadata: ${l.authorizationServerMetadata}. `
      + 'Every OAuth endpoint is CORS-open (`*`, no credentials) for clients that run in a browser; a client_secret shipped in a public page is readable by anyone.',
    '',
  ].join('\n');
}
