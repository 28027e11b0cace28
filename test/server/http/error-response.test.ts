/** The API's JSON error renderer (contract.md, "Error"): the exact bytes of its answers. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { API_CODES, ApiError, methodNotAllowed } from '../../../server/errors.ts';
import { errorBody, sendError } from '../../../server/http/error-response.ts';
import { StoreUnavailableError } from '../../../server/stores/errors.ts';
import { answer, jsonHeaders, rendered } from '../../helpers/rendered.ts';

test('a kept error body owns exactly its bytes, and is the same body each time', () => {
  const err = new ApiError(429, API_CODES.rateLimited, 'Cuota agotada.', 'Reintente dentro de 30 s.');
  const body = errorBody(err);
  assert.ok(body.byteOffset === 0 && body.buffer.byteLength === body.length, `${body.length} bytes in an ArrayBuffer of ${body.buffer.byteLength}`);
  assert.is(errorBody(err), body);
  assert.equal(JSON.parse(body.toString('utf8')), { code: API_CODES.rateLimited, message: 'Cuota agotada.', data: { status: 429, hint: 'Reintente dentro de 30 s.' } });
});

test('an error without a hint has `data.status` alone', () => {
  assert.is(errorBody(new ApiError(404, API_CODES.pageNotFound, 'No.')).toString(), '{"code":"agentes_page_not_found","message":"No.","data":{"status":404}}');
});

test('the headers collected before (the list), then the error\'s own, then the JSON', async () => {
  const log = { info() {}, error() {} };
  const body = '{"code":"rest_method_not_allowed","message":"Método no permitido. Use GET, HEAD.","data":{"status":405,"hint":"Métodos admitidos: GET, HEAD"}}';
  const got = await rendered((res) => sendError(res, methodNotAllowed('GET, HEAD'), log, ['Cache-Control', 'no-store']));
  assert.is(got, answer('405 Method Not Allowed', ['Cache-Control: no-store', 'Allow: GET, HEAD', ...jsonHeaders(body)], body));
});

test('a store that cannot answer is a 503 with Retry-After; anything else is logged and a 500', async () => {
  const logged: unknown[] = [];
  const log = { info() {}, error: (_m: string, cause?: unknown) => { logged.push(cause); } };
  const down = '{"code":"agentes_unavailable","message":"Servicio no disponible temporalmente.","data":{"status":503,"hint":"Reintente dentro de 5 segundos."}}';
  assert.is(await rendered((res) => sendError(res, new StoreUnavailableError('down'), log)),
    answer('503 Service Unavailable', ['Retry-After: 5', ...jsonHeaders(down)], down));
  assert.equal(logged, []);
  const bug = new TypeError('bug');
  const internal = '{"code":"agentes_internal_error","message":"Error interno del servidor.","data":{"status":500,"hint":"Inténtelo de nuevo más tarde."}}';
  assert.is(await rendered((res) => sendError(res, bug, log)), answer('500 Internal Server Error', jsonHeaders(internal), internal));
  assert.equal(logged, [bug]);
});

test.run();
