/** POST /oauth/register — dynamic client registration (RFC 7591 §3). */
import type { Polka } from 'polka';
import type { AppDeps } from '../../app.ts';
import { parseClientMetadata } from '../../auth/clients.ts';
import { readJson } from '../../http/body.ts';
import { enforceLimit, oauthHandler, otherMethods, sendOAuthJson, type OAuthContext } from './respond.ts';
import { LIMITS } from '../../auth/oauth-limits.ts';

import { REGISTER_PATH } from '../../paths.ts';

export function registerEndpoint(app: Polka, deps: AppDeps, ctx: OAuthContext): void {
  app.post(REGISTER_PATH, oauthHandler(deps, async (req, res) => {
    const metadata = parseClientMetadata(await readJson(req));
    // Counted once the request is valid, so a client fixing a typo is not locked out: the limit
    // is on registrations, the state they create.
    await enforceLimit(deps.store, LIMITS.register, ctx.addressOf(req));
    sendOAuthJson(res, 201, await ctx.clients.register(metadata));
  }));
  otherMethods(app, deps, REGISTER_PATH, 'POST');
}
