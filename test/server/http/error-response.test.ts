import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { API_CODES, ApiError } from '../../../server/errors.ts';
import { errorBody } from '../../../server/http/error-response.ts';

test('a kept error body owns exactly its bytes, and is the same body each time', () => {
  const err = new ApiError(429, API_CODES.rateLimited, 'Cuota agotada.', 'Reintente dentro de 30 s.');
  const body = errorBody(err);
  assert.ok(body.byteOffset === 0 && body.buffer.byteLength === body.length, `${body.length} bytes in an ArrayBuffer of ${body.buffer.byteLength}`);
  assert.is(errorBody(err), body);
  assert.equal(JSON.parse(body.toString('utf8')), { code: API_CODES.rateLimited, message: 'Cuota agotada.', data: { status: 429, hint: 'Reintente dentro de 30 s.' } });
});

test.run();
