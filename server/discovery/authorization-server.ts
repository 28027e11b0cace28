/**
 * GET /.well-known/oauth-authorization-server — RFC 8414 §2 metadata, plus the `agent_auth`
 * block of the auth.md convention (conformance.md §5). Every value comes from the Config and the
 * modules that implement the endpoints, so the document cannot promise what the server refuses.
 */
import type { Config } from '../config.ts';
import { AUTH_METHODS, DEFAULT_SCOPE, GRANT_TYPES } from '../auth/clients.ts';
import { TOKEN_TTL_SECONDS } from '../auth/tokens.ts';
import { SCOPES } from '../auth/types.ts';
import { links } from './links.ts';

export type AuthorizationServerConfig = Pick<Config, 'siteUrl' | 'baseUrl' | 'rateLimit'>;

export function buildAuthorizationServerMetadata(config: AuthorizationServerConfig) {
  const l = links(config);
  const { anonymous, identified, windowSeconds } = config.rateLimit;
  return {
    issuer: l.issuer,
    // Published only because MCP SDK 1.x clients reject metadata without it; it always refuses
    // (JSON error, no redirect), and response_types_supported is empty to say so.
    authorization_endpoint: l.authorize,
    token_endpoint: l.token,
    registration_endpoint: l.register,
    revocation_endpoint: l.revoke,
    introspection_endpoint: l.introspect,
    response_types_supported: [] as string[],
    grant_types_supported: [...GRANT_TYPES],
    scopes_supported: [...SCOPES],
    token_endpoint_auth_methods_supported: [...AUTH_METHODS],
    revocation_endpoint_auth_methods_supported: [...AUTH_METHODS],
    introspection_endpoint_auth_methods_supported: [...AUTH_METHODS],
    service_documentation: l.developers,
    ui_locales_supported: ['es'],
    // RFC 9728 §4: the resources this server issues tokens for.
    protected_resources: [l.apiResource, l.mcpResource, l.site],
    agent_auth: {
      skill: l.authMd,
      register_uri: l.register,
      revocation_uri: l.revoke,
      identity_types_supported: ['anonymous'],
      anonymous: { credential_types_supported: ['access_token'] },
      // Project additions: what a token request without `scope` gets, and how long it lives.
      default_scope: DEFAULT_SCOPE.join(' '),
      token_lifetime_seconds: TOKEN_TTL_SECONDS,
      quotas: {
        anonymous: { requests: anonymous, window_seconds: windowSeconds, per: 'ip' },
        identified: { requests: identified, window_seconds: windowSeconds, per: 'client_id' },
      },
    },
  };
}
