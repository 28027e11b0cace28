import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CLIENT_IDLE_SECONDS, clientKey, createClientRegistry, parseClientMetadata, parseScope } from '../../../server/auth/clients.ts';
import { OAuthError } from '../../../server/errors.ts';
import { createMemoryStore } from '../../../server/stores/memory.ts';

function rejects(body: unknown, error: string) {
  try {
    parseClientMetadata(body);
  } catch (err) {
    assert.instance(err, OAuthError);
    assert.is((err as OAuthError).error, error, JSON.stringify(body));
    return;
  }
  assert.unreachable(`accepted ${JSON.stringify(body)}`);
}

test('parseClientMetadata: defaults, echo of known fields, unknown ones dropped', () => {
  assert.equal(parseClientMetadata({}), { contacts: [], scope: ['content:read', 'quota:read'], token_endpoint_auth_method: 'client_secret_basic' });
  assert.equal(parseClientMetadata({ client_name: 'A', contacts: ['a@b.es', 'a@b.es'], scope: 'quota:read', token_endpoint_auth_method: 'client_secret_post', extra: 1 }), {
    client_name: 'A', contacts: ['a@b.es'], scope: ['quota:read'], token_endpoint_auth_method: 'client_secret_post',
  });
});

test('parseClientMetadata: refusals', () => {
  for (const body of [null, [], 'x', 3]) rejects(body, 'invalid_request');
  for (const body of [
    { client_name: '' }, { client_name: '   ' }, { client_name: 'x'.repeat(201) }, { client_name: ['x'] },
    { contacts: 'a@b.es' }, { contacts: ['a@b'] }, { contacts: ['a b@c.es'] }, { contacts: ['<a@b.es>'] }, { contacts: [`${'a'.repeat(250)}@b.es`] },
    { contacts: Array.from({ length: 11 }, (_, i) => `u${i}@b.es`) },
    { token_endpoint_auth_method: 'none' }, { token_endpoint_auth_method: 'client_secret_jwt' },
    { grant_types: [] }, { grant_types: ['implicit'] }, { grant_types: 'client_credentials' },
    { response_types: ['token'] }, { response_types: 'code' },
    { scope: 'content:read admin' }, { scope: ['content:read'] },
  ]) rejects(body, 'invalid_client_metadata');
});

test('parseScope: known scopes, deduplicated; null for any unknown one', () => {
  assert.equal(parseScope('quota:read  content:read quota:read'), ['quota:read', 'content:read']);
  assert.equal(parseScope(''), []);
  assert.is(parseScope('content:read openid'), null);
});

test('registry: register, authenticate, idle expiry renewed by renew()', async () => {
  let now = Date.now();
  const store = createMemoryStore({ clock: () => now });
  const clients = createClientRegistry({ store, clock: () => now });
  const reg = await clients.register(parseClientMetadata({ client_name: 'A' }));
  assert.is(reg.client_id_issued_at, Math.floor(now / 1000));
  assert.ok(await clients.authenticate(reg.client_id, reg.client_secret));
  assert.is(await clients.authenticate(reg.client_id, reg.client_secret.toLowerCase()), null);
  assert.is(await clients.authenticate('unknown', reg.client_secret), null);
  assert.is(await clients.authenticate('bad key:{x}', reg.client_secret), null);
  now += (CLIENT_IDLE_SECONDS - 10) * 1000;
  await clients.renew(reg.client_id);
  now += (CLIENT_IDLE_SECONDS - 10) * 1000;
  assert.ok(await clients.authenticate(reg.client_id, reg.client_secret), 'renewed');
  now += CLIENT_IDLE_SECONDS * 1000;
  assert.is(await clients.authenticate(reg.client_id, reg.client_secret), null, 'recycled when idle');
  assert.is(await store.get(clientKey(reg.client_id)), null);
});

test.run();
