/** The OAuth 2.0 endpoints under {site_url}/oauth/, one file per endpoint. */
import type { Route } from '../../app.ts';
import { createClientRegistry } from '../../auth/clients.ts';
import { createClientIpResolver, ipQuotaKey } from '../../net/client-ip.ts';
import { authorizeEndpoint } from './authorize.ts';
import { introspectEndpoint } from './introspect.ts';
import { registerEndpoint } from './register.ts';
import { revokeEndpoint } from './revoke.ts';
import { tokenEndpoint } from './token.ts';
import type { OAuthContext } from './respond.ts';

export const oauthRoutes: Route = (app, deps) => {
  const resolveIp = createClientIpResolver(deps.config.trustProxy);
  const ctx: OAuthContext = {
    clients: createClientRegistry(deps),
    // The one token service, so a revocation also forgets the token remembered for outages.
    tokens: deps.tokens,
    addressOf: (req) => ipQuotaKey(resolveIp(req)),
  };
  registerEndpoint(app, deps, ctx);
  tokenEndpoint(app, deps, ctx);
  revokeEndpoint(app, deps, ctx);
  introspectEndpoint(app, deps, ctx);
  authorizeEndpoint(app, deps);
};
