/**
 * The OAuth endpoints' error answer (RFC 6749 §5.2): `{error, error_description}`, never cached,
 * with CORS; the one place that JSON is written. Anything outside the OAuth shape gets the API's
 * (error-response.ts), a 500 included.
 */
import type { ServerResponse } from 'node:http';
import { errorOf, OAuthError } from '../errors.ts';
import type { Logger } from '../log.ts';
import { writeCors } from './cors.ts';
import { sendError } from './error-response.ts';
import { sendJson } from './json.ts';

/**
 * RFC 6749 §5.2: error_description is printable ASCII without `"` and `\`. Descriptions can quote
 * what the client sent (a parameter's name): anything outside that set becomes `?`.
 */
const describable = (text: string): string => text.replace(/[^\x20\x21\x23-\x5B\x5D-\x7E]/g, '?');

/** The body of `err`. */
export const oauthErrorBody = (err: OAuthError): string =>
  JSON.stringify({ error: err.error, error_description: describable(err.description) });

export function sendOAuthError(res: ServerResponse, thrown: unknown, log: Logger): void {
  const err = errorOf(thrown, 'oauth');
  if (!(err instanceof OAuthError)) { sendError(res, thrown, log); return; }
  if (res.headersSent) { res.destroy(); return; }
  writeCors(res);
  sendJson(res, err.status, oauthErrorBody(err), err.headers, ['Cache-Control', 'no-store', 'Pragma', 'no-cache']);
}
