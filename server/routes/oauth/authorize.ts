/**
 * GET/POST /oauth/authorize — published only because MCP SDK 1.x clients reject metadata
 * without an authorization endpoint (conformance.md, interop traps). There is no interactive
 * grant, so it always refuses, in JSON, and never redirects: a redirect_uri was never registered
 * to send the user to (RFC 6749 §4.1.2.1).
 */
import type { Polka } from 'polka';
import type { AppDeps } from '../../app.ts';
import { OAuthError } from '../../errors.ts';
import { sendOAuthError } from '../../http/oauth-error-response.ts';
import { otherMethods } from './respond.ts';

import { AUTHORIZE_PATH, REGISTER_PATH, TOKEN_PATH } from '../../paths.ts';

export function authorizeEndpoint(app: Polka, deps: AppDeps): void {
  const refuse = (_req: unknown, res: import('node:http').ServerResponse) => sendOAuthError(res, new OAuthError(
    400,
    'unsupported_response_type',
    `This server has no authorization endpoint flow: register at ${REGISTER_PATH} and use grant_type=client_credentials at ${TOKEN_PATH}.`,
  ), deps.log);
  app.get(AUTHORIZE_PATH, refuse);
  app.post(AUTHORIZE_PATH, refuse);
  otherMethods(app, deps, AUTHORIZE_PATH, 'GET, POST');
}
