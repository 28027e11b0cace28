/**
 * Every public address the discovery documents name, derived from the Config in one place so
 * that a document never names a URL the server does not answer at. Paths come from the modules
 * that serve them where those modules export them.
 */
import type { Config } from '../config.ts';
import { resourceMetadataUrl } from '../auth/bearer.ts';
import {
  API_BASE, AUTH_MD_PATH, AUTHORIZE_PATH, IDENTITY_PATH, INTROSPECT_PATH, MCP_PATH, protectedResourcePath, REGISTER_PATH,
  REVOKE_PATH, TOKEN_PATH,
} from '../paths.ts';
import { BUNDLE_PARTS, BUNDLE_SCRIPT } from '../../formats/pagefind-bundle.ts';

export type LinkConfig = Pick<Config, 'siteUrl' | 'baseUrl'>;

/** Paths served by the discovery routes (server/routes/discovery.ts). */
export const DISCOVERY_PATHS = {
  openapi: '/openapi.json',
  authorizationServer: '/.well-known/oauth-authorization-server',
  protectedResourceSite: '/.well-known/oauth-protected-resource',
  protectedResourceApi: protectedResourcePath(API_BASE),
  protectedResourceMcp: protectedResourcePath(MCP_PATH),
  openidConfiguration: '/.well-known/openid-configuration',
  apiCatalog: '/.well-known/api-catalog',
  agentsMd: '/agents.md',
  authMd: AUTH_MD_PATH,
  llmsTxt: '/llms.txt',
  llmsFullTxt: '/llms-full.txt',
  /** The MCP server card: the contract's address, and `<streamable-http-url>/server-card`. */
  mcpServerCard: '/.well-known/mcp/server-card.json',
  mcpServerCardSuffix: '/mcp/server-card',
} as const;

export interface Links {
  site: string;
  /** RFC 8414 issuer: the site URL, no trailing slash. */
  issuer: string;
  /** Resource identifiers (RFC 9728 §1.2; RFC 8707). */
  apiResource: string;
  mcpResource: string;
  authorize: string;
  token: string;
  register: string;
  revoke: string;
  introspect: string;
  identity: string;
  openapi: string;
  authorizationServerMetadata: string;
  protectedResourceSite: string;
  protectedResourceApi: string;
  protectedResourceMcp: string;
  apiCatalog: string;
  agentsMd: string;
  authMd: string;
  llmsTxt: string;
  llmsFullTxt: string;
  developers: string;
  versioning: string;
  sandbox: string;
  mcpServerCard: string;
  /** Pagefind's JavaScript API over the site's static search bundle. */
  pagefind: string;
  /** The list of the bundle's other parts, which a client merges in. */
  pagefindParts: string;
}

export function links(config: LinkConfig): Links {
  const s = config.siteUrl;
  const p = DISCOVERY_PATHS;
  return {
    site: s,
    issuer: s,
    apiResource: config.baseUrl,
    mcpResource: s + MCP_PATH,
    authorize: s + AUTHORIZE_PATH,
    token: s + TOKEN_PATH,
    register: s + REGISTER_PATH,
    revoke: s + REVOKE_PATH,
    introspect: s + INTROSPECT_PATH,
    identity: s + IDENTITY_PATH,
    openapi: s + p.openapi,
    authorizationServerMetadata: s + p.authorizationServer,
    protectedResourceSite: s + p.protectedResourceSite,
    // The address the API's 401 challenges carry: one definition for both.
    protectedResourceApi: resourceMetadataUrl(s),
    protectedResourceMcp: s + p.protectedResourceMcp,
    apiCatalog: s + p.apiCatalog,
    agentsMd: s + p.agentsMd,
    authMd: s + p.authMd,
    llmsTxt: s + p.llmsTxt,
    llmsFullTxt: s + p.llmsFullTxt,
    developers: `${s}/desarrolladores/`,
    versioning: `${s}/desarrolladores/#versionado`,
    sandbox: `${s}/api/sandbox`,
    mcpServerCard: s + p.mcpServerCard,
    pagefind: s + BUNDLE_SCRIPT,
    pagefindParts: s + BUNDLE_PARTS,
  };
}
