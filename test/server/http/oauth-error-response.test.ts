/** The OAuth renderer (RFC 6749 §5.2): the exact bytes of its answers. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { methodNotAllowed, OAuthError, oauthMethodNotAllowed } from '../../../server/errors.ts';
import { oauthErrorBody, sendOAuthError } from '../../../server/http/oauth-error-response.ts';
import { StoreUnavailableError } from '../../../server/stores/errors.ts';
import { answer, jsonHeaders, rendered } from '../../helpers/rendered.ts';

const log = { info() {}, error() {} };
const CORS = [
  'Access-Control-Allow-Origin: *',
  'Access-Control-Expose-Headers: RateLimit, RateLimit-Policy, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, API-Version, ETag, WWW-Authenticate, Deprecation, Sunset, Link',
];
const NO_STORE = ['Cache-Control: no-store', 'Pragma: no-cache'];

test('the body: error, then error_description with what RFC 6749 does not allow in it replaced', () => {
  assert.is(oauthErrorBody(new OAuthError(400, 'invalid_request', 'Parameter "año" \\ bad.')),
    '{"error":"invalid_request","error_description":"Parameter ?a?o? ? bad."}');
});

test('an OAuth error: CORS, never cached, its own headers, then the JSON', async () => {
  const body = '{"error":"invalid_request","error_description":"Method not allowed; use POST."}';
  const got = await rendered((res) => sendOAuthError(res, oauthMethodNotAllowed('POST', 'POST, OPTIONS'), log));
  assert.is(got, answer('405 Method Not Allowed', [...CORS, ...NO_STORE, 'Allow: POST, OPTIONS', ...jsonHeaders(body)], body));
});

test('a store that cannot answer: temporarily_unavailable, retry in a second', async () => {
  const body = '{"error":"temporarily_unavailable","error_description":"The service is temporarily unavailable; retry shortly."}';
  const got = await rendered((res) => sendOAuthError(res, new StoreUnavailableError('down'), log));
  assert.is(got, answer('503 Service Unavailable', [...CORS, ...NO_STORE, 'Retry-After: 1', ...jsonHeaders(body)], body));
});

test('an error outside the OAuth shape gets the API\'s', async () => {
  const body = '{"code":"rest_method_not_allowed","message":"Método no permitido. Use GET.","data":{"status":405,"hint":"Métodos admitidos: GET"}}';
  const got = await rendered((res) => sendOAuthError(res, methodNotAllowed('GET'), log));
  assert.is(got, answer('405 Method Not Allowed', ['Allow: GET', ...jsonHeaders(body)], body));
});

test.run();
