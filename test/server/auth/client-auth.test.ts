import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IncomingMessage } from 'node:http';
import { parseBasic, readClientCredentials } from '../../../server/auth/client-auth.ts';
import { OAuthError } from '../../../server/errors.ts';
import { parseForm } from '../../../server/http/body.ts';

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

test('parseBasic: RFC 6749 §2.3.1 — base64, split at the first colon, form-decode each half', () => {
  assert.equal(parseBasic(`Basic ${b64('abc:def')}`), { clientId: 'abc', clientSecret: 'def' });
  assert.equal(parseBasic(`Basic ${b64('a+b:c%2Bd+e')}`), { clientId: 'a b', clientSecret: 'c+d e' });
  assert.equal(parseBasic(`Basic ${b64('%61%2D%5F:s%3As')}`), { clientId: 'a-_', clientSecret: 's:s' });
  assert.equal(parseBasic(`Basic ${b64('id:se:cret')}`), { clientId: 'id', clientSecret: 'se:cret' });
  assert.equal(parseBasic(`Basic ${b64('id:')}`), { clientId: 'id', clientSecret: '' });
  assert.equal(parseBasic(`Basic ${b64('%C3%B1:%E2%82%AC')}`), { clientId: 'ñ', clientSecret: '€' });
  assert.equal(parseBasic(`basic   ${b64('x:y')}`), { clientId: 'x', clientSecret: 'y' }, 'scheme is case-insensitive');
  assert.equal(parseBasic(`Basic ${b64('ab:c').replace(/=+$/, '')}`), { clientId: 'ab', clientSecret: 'c' }, 'unpadded base64');
});

test('parseBasic: malformed credentials → null', () => {
  for (const header of [
    'Basic', 'Basic ', 'Bearer abc', `Basic ${b64('nocolon')}`, `Basic ${b64(':secret')}`, 'Basic a$b=', 'Basic =abc',
    `Basic ${b64('%ZZ:x')}`, `Basic ${b64('x:%E0%A4%A')}`, `Basic ${b64(Buffer.from([0xc3, 0x28, 0x3a, 0x61]))}`, 'Basic a', `Basic ${b64('a:b')} extra`,
  ]) assert.is(parseBasic(header), null, header);
});

const req = (authorization?: string) => ({ headers: authorization === undefined ? {} : { authorization } }) as IncomingMessage;
const form = (s: string) => parseForm(Buffer.from(s));

function throwsOAuth(fn: () => unknown, status: number, error: string): OAuthError {
  try {
    fn();
  } catch (err) {
    assert.instance(err, OAuthError);
    assert.is((err as OAuthError).status, status);
    assert.is((err as OAuthError).error, error);
    return err as OAuthError;
  }
  assert.unreachable('expected an OAuthError');
  throw new Error('unreachable');
}

test('readClientCredentials: Basic or post, never both, never none', () => {
  assert.equal(readClientCredentials(req(`Basic ${b64('id:s')}`), form('')), { clientId: 'id', clientSecret: 's', method: 'client_secret_basic' });
  assert.equal(readClientCredentials(req(), form('client_id=id&client_secret=s')), { clientId: 'id', clientSecret: 's', method: 'client_secret_post' });
  assert.equal(readClientCredentials(req(`Basic ${b64('id:s')}`), form('client_id=id')).method, 'client_secret_basic');
  throwsOAuth(() => readClientCredentials(req(`Basic ${b64('id:s')}`), form('client_id=id&client_secret=s')), 400, 'invalid_request');
  throwsOAuth(() => readClientCredentials(req(`Basic ${b64('id:s')}`), form('client_secret=s')), 400, 'invalid_request');
  throwsOAuth(() => readClientCredentials(req(`Basic ${b64('id:s')}`), form('client_id=other')), 400, 'invalid_request');
  const none = throwsOAuth(() => readClientCredentials(req(), form('client_id=id')), 401, 'invalid_client');
  assert.is(none.headers['WWW-Authenticate'], 'Basic realm="agentes"');
  throwsOAuth(() => readClientCredentials(req(), form('')), 401, 'invalid_client');
  throwsOAuth(() => readClientCredentials(req('Bearer abc'), form('')), 401, 'invalid_client');
  throwsOAuth(() => readClientCredentials(req('Basic !!'), form('')), 401, 'invalid_client');
});

test.run();
