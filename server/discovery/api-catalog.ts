/**
 * GET/HEAD /.well-known/api-catalog — RFC 9727 API catalogue: a linkset (RFC 9264) in
 * `application/linkset+json` with the RFC 9727 profile, one entry per API this site publishes,
 * each anchored at the API's address with its description (`service-desc`), documentation
 * (`service-doc`) and metadata (`service-meta`) links.
 */
import type { Config } from '../config.ts';
import { links } from './links.ts';
import { OPENAPI_MEDIA_TYPE } from './openapi.ts';

export const API_CATALOG_PROFILE = 'https://www.rfc-editor.org/info/rfc9727';
export const API_CATALOG_CONTENT_TYPE = `application/linkset+json; profile="${API_CATALOG_PROFILE}"`;

export type ApiCatalogConfig = Pick<Config, 'siteUrl' | 'baseUrl'>;

interface Target { href: string; type?: string; title?: string }

export function buildApiCatalog(config: ApiCatalogConfig) {
  const l = links(config);
  const linkset: Record<string, string | Target[]>[] = [
    {
      anchor: l.apiResource,
      'service-desc': [{ href: l.openapi, type: OPENAPI_MEDIA_TYPE, title: 'OpenAPI 3.1' }],
      'service-doc': [
        { href: l.developers, type: 'text/html', title: 'Documentación para desarrolladores' },
        { href: l.agentsMd, type: 'text/markdown', title: 'Instrucciones para agentes' },
      ],
      'service-meta': [{ href: l.protectedResourceApi, type: 'application/json', title: 'Metadatos del recurso protegido (RFC 9728)' }],
    },
    {
      anchor: l.mcpResource,
      'service-desc': [{ href: l.mcpServerCard, type: 'application/json', title: 'Tarjeta del servidor MCP' }],
      'service-doc': [{ href: l.agentsMd, type: 'text/markdown', title: 'Instrucciones para agentes' }],
      'service-meta': [{ href: l.protectedResourceMcp, type: 'application/json', title: 'Metadatos del recurso protegido (RFC 9728)' }],
    },
  ];
  return { linkset };
}

/** RFC 9727 §2: the catalogue names itself with the `api-catalog` relation (also on HEAD). */
export const apiCatalogLinkHeader = (config: ApiCatalogConfig) => `<${links(config).apiCatalog}>; rel="api-catalog"`;
