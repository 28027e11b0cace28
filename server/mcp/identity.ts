/**
 * Who the MCP server says it is: `serverInfo` and `instructions` of `initialize`, and the server
 * card (conformance.md §9), all from the live Config so they name this deployment's addresses
 * and quota. Built once per process.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Implementation } from '@modelcontextprotocol/server';
import { ROOT, type Config } from '../config.ts';
import { links } from '../discovery/links.ts';
import { perWindow } from '../discovery/text.ts';
import { CITY_SLUGS } from '../../formats/schemas/cities.ts';
import { PROTOCOL_VERSIONS } from '../mcp-versions.ts';
import { MCP_MESSAGE_FACTOR } from './limits.ts';

export type IdentityConfig = Pick<Config, 'siteUrl' | 'baseUrl' | 'rateLimit'>;

/** The project's version (package.json): `serverInfo.version` and the card's `version`. */
export const SERVER_VERSION: string = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

export const SERVER_TITLE = 'Servicios del hogar en España (solo lectura)';
/** ≤ 100 characters (server card schema). */
export const SERVER_DESCRIPTION = 'Busca y lee en Markdown las páginas de un sitio de servicios del hogar en España. Solo lectura.';


/** Reverse-DNS `namespace/name` from the site's host (`es.avisohogar/agentes`), the same in serverInfo and the card. */
export const serverName = (config: IdentityConfig): string => `${reverseDnsNamespace(config.siteUrl)}/agentes`;

export function serverInfo(config: IdentityConfig): Implementation {
  return { name: serverName(config), title: SERVER_TITLE, version: SERVER_VERSION, description: SERVER_DESCRIPTION, websiteUrl: links(config).developers };
}

/**
 * What a host puts before the model: the site in two sentences, that nothing is booked or paid,
 * the normal flow, and the quota with how to raise it.
 */
export function instructions(config: IdentityConfig): string {
  const l = links(config);
  const { anonymous, identified, windowSeconds } = config.rateLimit;
  const per = perWindow(windowSeconds);
  return [
    `${l.site} recibe solicitudes de reparaciones, reformas y servicios técnicos de hogares, comunidades y negocios en ${CITY_SLUGS.length} ciudades e islas de España, y pasa cada una a un profesional colaborador del oficio y la provincia, que presupuesta, realiza, factura y garantiza el trabajo.`,
    'Estas herramientas leen sus páginas publicadas (servicios, ciudades y guías de averías) y los datos de la empresa, en español.',
    '',
    'Solo lectura: ninguna herramienta reserva, contrata, paga ni envía nada, y en el sitio no se paga nada en línea; la persona hace su solicitud por teléfono, WhatsApp o correo (get_company_info, section=contact).',
    '',
    'Uso: search_pages con lo que pide la persona (un servicio, un problema con sus palabras o una pregunta sobre el servicio, y su ciudad en `city`; 0 resultados si el sitio no lo ofrece), después read_page con la `url` de un resultado (una página larga llega en partes: siga con `offset` = `next_offset` y el `version` recibido); get_company_info para contacto, precios, impuestos y modelo de servicio. Las páginas son también recursos (text/markdown) por su URL.',
    '',
    `Cuota: ${anonymous} llamadas a herramientas ${per} por IP sin token; ${identified} ${per} con un token gratuito y automático (client_credentials: POST ${l.register} y POST ${l.token}; véase ${l.authMd}). Solo cuentan en ella las llamadas a herramientas (tools/call) y las lecturas de recursos (resources/read); los demás mensajes (initialize, tools/list, resources/list…) tienen una ventana aparte de ${MCP_MESSAGE_FACTOR * anonymous} ${per} por IP. Con la cuota agotada, la herramienta devuelve un error que dice cuántos segundos esperar.`,
  ].join('\n');
}

/** `avisohogar.es` → `es.avisohogar`; `www.` dropped; an IP address or `localhost` kept as written. */
export function reverseDnsNamespace(siteUrl: string): string {
  const host = new URL(siteUrl).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (/^[0-9.]+$/.test(host) || host.includes(':') || !host.includes('.')) return host.replace(/:/g, '-');
  return host.replace(/^www\./, '').split('.').reverse().join('.');
}

export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
/** The card's media type (MCP server-card extension, docs/discovery.md). */
export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json';

/**
 * The MCP server card (the server-card extension's draft schema, v1, as conformance.md §9 lists its
 * fields; served at `<mcp url>/server-card` as the draft reserves, and at the contract's address): identity,
 * the one remote and the protocol revisions it speaks. Tools are listed by the protocol, not here.
 */
export function buildServerCard(config: IdentityConfig) {
  const l = links(config);
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: serverName(config),
    version: SERVER_VERSION,
    description: SERVER_DESCRIPTION,
    title: SERVER_TITLE,
    websiteUrl: l.developers,
    remotes: [{ type: 'streamable-http', url: l.mcpResource, supportedProtocolVersions: PROTOCOL_VERSIONS }],
  };
}
