/** POST /oauth/token — the client-credentials grant (RFC 6749 §4.4), with RFC 8707 `resource`. */
import type { Polka } from 'polka';
import type { AppDeps } from '../../app.ts';
import type { Config } from '../../config.ts';
import { OAuthError } from '../../errors.ts';
import { authenticateClient } from '../../auth/client-auth.ts';
import { parseScope, scopeString } from '../../auth/clients.ts';
import { TOKEN_TTL_SECONDS } from '../../auth/tokens.ts';
import type { Scope } from '../../auth/types.ts';
import { param, readForm } from '../../http/body.ts';
import { enforceLimit, oauthHandler, otherMethods, refuseCredentialsInQuery, sendOAuthJson, type OAuthContext } from './respond.ts';
import { LIMITS } from '../../auth/oauth-limits.ts';

import { TOKEN_PATH } from '../../paths.ts';

/**
 * Resource indicators a token may be requested for: the content API, the MCP endpoint and the
 * site itself (the three protected-resource metadata documents). A trailing slash is tolerated
 * because URL serializers add one to a bare origin. Every token is valid for all of them.
 */
export function acceptedResources(config: Pick<Config, 'siteUrl' | 'baseUrl'>): ReadonlySet<string> {
  return new Set([config.baseUrl, `${config.siteUrl}/mcp`, config.siteUrl]);
}

export function tokenEndpoint(app: Polka, deps: AppDeps, ctx: OAuthContext): void {
  const resources = acceptedResources(deps.config);

  app.post(TOKEN_PATH, oauthHandler(deps, async (req, res) => {
    await enforceLimit(deps.store, LIMITS.token, ctx.addressOf(req));
    refuseCredentialsInQuery(req);
    const form = await readForm(req, { repeatable: ['resource'] });

    const grantType = param(form, 'grant_type');
    if (grantType === undefined) throw new OAuthError(400, 'invalid_request', 'Missing required parameter: grant_type (use client_credentials).');
    if (grantType !== 'client_credentials') throw new OAuthError(400, 'unsupported_grant_type', 'Only grant_type=client_credentials is supported.');

    const client = await authenticateClient(req, form, ctx.clients);

    const allowed = parseScope(client.record.scope) ?? [];
    const requestedRaw = param(form, 'scope');
    let scope: Scope[] = allowed;
    if (requestedRaw !== undefined) {
      const requested = parseScope(requestedRaw);
      if (requested === null || requested.length === 0) throw new OAuthError(400, 'invalid_scope', `Unknown scope. Valid scopes: ${scopeString(allowed)}.`);
      if (requested.some((s) => !allowed.includes(s))) throw new OAuthError(400, 'invalid_scope', `This client is registered for: ${scopeString(allowed)}.`);
      scope = requested;
    }

    for (const resource of form.get('resource') ?? []) {
      if (!resources.has(resource.replace(/\/$/, ''))) {
        throw new OAuthError(400, 'invalid_target', `Unknown resource. Tokens are issued for ${deps.config.baseUrl} or ${deps.config.siteUrl}/mcp.`);
      }
    }

    await ctx.clients.renew(client.clientId);
    const issued = await ctx.tokens.issue(client.clientId, scope);
    sendOAuthJson(res, 200, {
      access_token: issued.access_token,
      token_type: 'Bearer',
      expires_in: TOKEN_TTL_SECONDS,
      scope: scopeString(issued.info.scope),
    });
  }));
  otherMethods(app, deps, TOKEN_PATH, 'POST');
}
