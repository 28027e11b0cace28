/**
 * RFC 9728 protected-resource metadata, one document per resource (conformance.md §6):
 *
 *   /.well-known/oauth-protected-resource                      → resource {site_url}
 *   /.well-known/oauth-protected-resource/wp-json/agentes/v1   → resource {site_url}/wp-json/agentes/v1
 *   /.well-known/oauth-protected-resource/mcp                  → resource {site_url}/mcp
 *
 * The metadata URL is the resource identifier with the well-known segment inserted after the
 * host (§3.1), and `resource` equals that identifier exactly (§3.3: clients check it).
 */
import type { Config } from '../config.ts';
import { SCOPES } from '../auth/types.ts';
import { DISCOVERY_PATHS, links } from './links.ts';

export type ProtectedResourceConfig = Pick<Config, 'siteUrl' | 'baseUrl'>;

export interface ProtectedResourceDocument {
  /** Path this document is served at. */
  path: string;
  body: {
    resource: string;
    authorization_servers: string[];
    scopes_supported: string[];
    bearer_methods_supported: string[];
    resource_name: string;
    resource_documentation: string;
    [extra: string]: unknown;
  };
}

export function buildProtectedResourceMetadata(config: ProtectedResourceConfig): ProtectedResourceDocument[] {
  const l = links(config);
  const common = {
    authorization_servers: [l.issuer],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
  };
  return [
    {
      path: DISCOVERY_PATHS.protectedResourceSite,
      body: {
        resource: l.site,
        ...common,
        resource_name: 'Sitio de solicitudes de servicios del hogar: API de contenido y MCP de solo lectura',
        resource_documentation: l.developers,
      },
    },
    {
      path: DISCOVERY_PATHS.protectedResourceApi,
      body: {
        resource: l.apiResource,
        ...common,
        resource_name: 'API de contenido de solo lectura (v1)',
        resource_documentation: l.developers,
      },
    },
    {
      path: DISCOVERY_PATHS.protectedResourceMcp,
      body: {
        resource: l.mcpResource,
        ...common,
        resource_name: 'Servidor MCP de solo lectura',
        resource_documentation: l.agentsMd,
      },
    },
  ];
}
