/**
 * The paths of the API, OAuth, MCP and identity endpoints, defined once: the routes mount them,
 * and every document, hint and error text that names one builds it from here (whole URLs and the
 * discovery documents' own paths: discovery/links.ts).
 */

/** The content API (contract: {base_url} ends with v1). */
export const API_BASE = '/wp-json/agentes/v1';
export const MCP_PATH = '/mcp';
export const IDENTITY_PATH = '/agent/identity';
export const AUTH_MD_PATH = '/auth.md';

export const AUTHORIZE_PATH = '/oauth/authorize';
export const REGISTER_PATH = '/oauth/register';
export const TOKEN_PATH = '/oauth/token';
export const REVOKE_PATH = '/oauth/revoke';
export const INTROSPECT_PATH = '/oauth/introspect';

/** RFC 9728 §3.1: the protected-resource metadata of a resource path, by path insertion. */
export const protectedResourcePath = (resourcePath: string): string => `/.well-known/oauth-protected-resource${resourcePath}`;

/** Liveness and readiness probes (routes/health.ts). */
export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';
