/**
 * Random identifiers, secrets and tokens, and how they are kept. Every value is base64url
 * (`[A-Za-z0-9_-]`), so a Basic header decodes to the same value whether or not the client
 * form-encodes it (conformance.md, interop traps). Only SHA-256 hashes are ever stored.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 128 bits: unguessable enough for a public identifier. */
export const CLIENT_ID_BYTES = 16;
/** 256 bits of entropy (conformance.md §1). */
export const CLIENT_SECRET_BYTES = 32;
export const ACCESS_TOKEN_BYTES = 32;

/** `bytes` random bytes as unpadded base64url. */
export function randomString(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

export const newClientId = () => randomString(CLIENT_ID_BYTES);
export const newClientSecret = () => randomString(CLIENT_SECRET_BYTES);
export const newAccessToken = () => randomString(ACCESS_TOKEN_BYTES);

/** Hex SHA-256. A plain hash is enough: the inputs carry ≥ 128 bits of entropy, so there is nothing to brute-force. */
export function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/**
 * Constant-time check of `candidate` against a stored hex SHA-256. Both sides are hashed to
 * 32 bytes, so neither the length nor the content of the secret leaks through timing.
 */
export function matchesHash(candidate: string, storedHashHex: string): boolean {
  const stored = Buffer.from(storedHashHex, 'hex');
  const given = createHash('sha256').update(candidate, 'utf8').digest();
  if (stored.length !== given.length) {
    timingSafeEqual(given, given);
    return false;
  }
  return timingSafeEqual(given, stored);
}

/** The alphabet every issued value uses. */
export const ISSUED_VALUE = /^[A-Za-z0-9_-]+$/;
