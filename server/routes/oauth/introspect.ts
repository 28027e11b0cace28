/** POST /oauth/introspect — token introspection (RFC 7662). A client sees only its own tokens. */
import type { Polka } from 'polka';
import type { AppDeps } from '../../app.ts';
import { oauthHandler, otherMethods, readTokenRequest, sendOAuthJson, type OAuthContext } from './respond.ts';

import { INTROSPECT_PATH } from '../../paths.ts';

export function introspectEndpoint(app: Polka, deps: AppDeps, ctx: OAuthContext): void {
  app.post(INTROSPECT_PATH, oauthHandler(deps, async (req, res) => {
    const { token, client } = await readTokenRequest(req, deps, ctx);
    // Unknown, expired, revoked or another client's token: exactly {"active":false} (§2.2).
    sendOAuthJson(res, 200, await ctx.tokens.introspect(token, client.clientId));
  }));
  otherMethods(app, deps, INTROSPECT_PATH, 'POST');
}
