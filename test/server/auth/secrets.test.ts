import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { matchesHash, newAccessToken, newClientId, newClientSecret, sha256 } from '../../../server/auth/secrets.ts';

test('ids, secrets and tokens use only [A-Za-z0-9_-]', () => {
  for (let i = 0; i < 500; i++) {
    for (const v of [newClientId(), newClientSecret(), newAccessToken()]) assert.match(v, /^[A-Za-z0-9_-]+$/);
  }
});

test('secrets and tokens carry 256 bits: 43 base64url characters of fresh randomness', () => {
  const secrets = new Set<string>();
  for (let i = 0; i < 1000; i++) {
    const s = newClientSecret();
    assert.is(s.length, 43);
    assert.is(Buffer.from(s, 'base64url').length, 32);
    secrets.add(s);
  }
  assert.is(secrets.size, 1000);
  assert.is(newAccessToken().length, 43);
  assert.is(Buffer.from(newClientId(), 'base64url').length, 16);
});

test('sha256 is hex SHA-256', () => {
  assert.is(sha256('abc'), createHash('sha256').update('abc').digest('hex'));
});

test('matchesHash accepts the hashed value only', () => {
  const secret = newClientSecret();
  const stored = sha256(secret);
  assert.ok(matchesHash(secret, stored));
  assert.not.ok(matchesHash(secret + 'x', stored));
  assert.not.ok(matchesHash('', stored));
  assert.not.ok(matchesHash(secret, 'abcd'), 'malformed stored hash');
});

test.run();
