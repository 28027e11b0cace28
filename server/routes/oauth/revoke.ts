/** POST /oauth/revoke — token revocation (RFC 7009). A client revokes only its own tokens. */
import type { Polka } from 'polka';
import type { AppDeps } from '../../app.ts';
import { NO_STORE, oauthHandler, otherMethods, readTokenRequest, type OAuthContext } from './respond.ts';

import { REVOKE_PATH } from '../../paths.ts';

export function revokeEndpoint(app: Polka, deps: AppDeps, ctx: OAuthContext): void {
  app.post(REVOKE_PATH, oauthHandler(deps, async (req, res) => {
    const { token, client } = await readTokenRequest(req, deps, ctx);
    await ctx.tokens.revoke(token, client.clientId);
    // §2.2: 200 whether or not there was anything to revoke, so token validity does not leak.
    res.statusCode = 200;
    for (const [name, value] of Object.entries(NO_STORE)) res.setHeader(name, value);
    res.setHeader('Content-Length', 0);
    res.end();
  }));
  otherMethods(app, deps, REVOKE_PATH, 'POST');
}
