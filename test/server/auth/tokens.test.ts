import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createTokenService, tokenKey, TOKEN_TTL_SECONDS } from '../../../server/auth/tokens.ts';
import { createMemoryStore } from '../../../server/stores/memory.ts';
import { parseConfig } from '../../../server/config.ts';

const config = parseConfig({ SITE_URL: 'https://agentes.example' });

function setup() {
  let now = Date.UTC(2025, 0, 1);
  const clock = () => now;
  const store = createMemoryStore({ clock });
  return { store, tokens: createTokenService({ store, config, clock }), advance: (s: number) => { now += s * 1000; }, seconds: () => Math.floor(now / 1000) };
}

test('issue → verify returns the token info; expiry after exactly 3600 s', async () => {
  const { tokens, advance, seconds } = setup();
  const iat = seconds();
  const { access_token, info } = await tokens.issue('client-a', ['quota:read', 'content:read']);
  assert.equal(info, { client_id: 'client-a', scope: ['content:read', 'quota:read'], iat, exp: iat + TOKEN_TTL_SECONDS });
  assert.equal(await tokens.verify(access_token), info);
  advance(TOKEN_TTL_SECONDS - 1);
  assert.ok(await tokens.verify(access_token));
  advance(1);
  assert.is(await tokens.verify(access_token), null);
});

test('the stored exp is enforced even when the backend still holds the key', async () => {
  const { store, tokens, seconds } = setup();
  const { access_token } = await tokens.issue('c', ['content:read']);
  await store.set(tokenKey(access_token), JSON.stringify({ client_id: 'c', scope: 'content:read', iat: seconds() - 4000, exp: seconds() - 400 }), 3600);
  assert.is(await tokens.verify(access_token), null);
});

test('verify: unknown, empty, oversized or corrupt entries → null', async () => {
  const { store, tokens } = setup();
  assert.is(await tokens.verify(''), null);
  assert.is(await tokens.verify('x'.repeat(10_000)), null);
  assert.is(await tokens.verify('A'.repeat(43)), null);
  await store.set(tokenKey('corrupt'), '{not json', 60);
  assert.is(await tokens.verify('corrupt'), null);
  await store.set(tokenKey('bad-scope'), JSON.stringify({ client_id: 'c', scope: 'admin', iat: 0, exp: 9e9 }), 60);
  assert.is(await tokens.verify('bad-scope'), null);
});

test("revoke and introspect only act on the caller's own tokens", async () => {
  const { tokens, seconds } = setup();
  const { access_token } = await tokens.issue('owner', ['content:read']);
  assert.equal(await tokens.introspect(access_token, 'other'), { active: false });
  await tokens.revoke(access_token, 'other');
  assert.equal(await tokens.introspect(access_token, 'owner'), {
    active: true, scope: 'content:read', client_id: 'owner', token_type: 'Bearer',
    exp: seconds() + 3600, iat: seconds(), iss: 'https://agentes.example', aud: 'https://agentes.example/wp-json/agentes/v1',
  });
  await tokens.revoke(access_token, 'owner');
  assert.equal(await tokens.introspect(access_token, 'owner'), { active: false });
  assert.is(await tokens.verify(access_token), null);
});

test.run();
