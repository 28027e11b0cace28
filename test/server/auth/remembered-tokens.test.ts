/**
 * The token memory of the token service (auth/remembered-tokens.ts), with the store made to fail
 * as an outage does: a token verified recently is recalled, for at most REMEMBER_MS and never past
 * its expiry; one never verified, found invalid or revoked here is not. (The real-Redis outage is
 * test/reliability/redis-outage.test.ts.)
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createTokenMemory, REMEMBER_MS } from '../../../server/auth/remembered-tokens.ts';
import { createTokenService } from '../../../server/auth/tokens.ts';
import { parseConfig } from '../../../server/config.ts';
import { StoreUnavailableError } from '../../../server/stores/errors.ts';
import { createMemoryStore } from '../../../server/stores/memory.ts';
import type { Store } from '../../../server/stores/types.ts';

const config = parseConfig({ SITE_URL: 'https://agentes.example' });

function setup() {
  let now = Date.UTC(2025, 0, 1);
  let down = false;
  const clock = () => now;
  const backing = createMemoryStore({ clock });
  const store: Store = { ...backing, get: (key) => (down ? Promise.reject(new StoreUnavailableError('down')) : backing.get(key)) };
  const tokens = createTokenService({ store, config, clock, memory: createTokenMemory(clock) });
  return { tokens, advance: (ms: number) => { now += ms; }, setDown: (d: boolean) => { down = d; } };
}

test('recalled through an outage once verified; never a token not verified here', async () => {
  const { tokens, setDown } = setup();
  const seen = await tokens.issue('client-a', ['content:read']);
  const unseen = await tokens.issue('client-b', ['content:read']);
  assert.ok(await tokens.verify(seen.access_token));
  setDown(true);
  assert.equal(await tokens.verify(seen.access_token), seen.info);
  await tokens.verify(unseen.access_token).then(() => assert.unreachable('unseen'), (err) => assert.instance(err, StoreUnavailableError));
});

test('for at most REMEMBER_MS after the last verification', async () => {
  const { tokens, setDown, advance } = setup();
  const { access_token } = await tokens.issue('client-a', ['content:read']);
  await tokens.verify(access_token);
  setDown(true);
  advance(REMEMBER_MS - 1);
  assert.ok(await tokens.verify(access_token));
  advance(1);
  await tokens.verify(access_token).then(() => assert.unreachable('too old'), (err) => assert.instance(err, StoreUnavailableError));
});

test('revoked through this service: forgotten, so an outage right after does not bring it back', async () => {
  const { tokens, setDown } = setup();
  const { access_token } = await tokens.issue('client-a', ['content:read']);
  await tokens.verify(access_token);
  await tokens.revoke(access_token, 'client-a');
  setDown(true);
  await tokens.verify(access_token).then(() => assert.unreachable('revoked'), (err) => assert.instance(err, StoreUnavailableError));
});

test.run();
