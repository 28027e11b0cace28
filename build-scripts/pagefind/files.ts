/**
 * Pagefind 1.5's bundle files as its indexer writes them: every index, filter, meta and fragment
 * file is gzip of the signature `pagefind_dcd` and the payload (CBOR, or JSON for fragments), and
 * is named by the SHA-1 of its payload, written the way Pagefind writes it (each byte in hex
 * without zero padding), cut to the shortest prefix no other file of its kind already has.
 *
 * Synchronous: a bundle of 10,000 pages has ~10,000 such files, each a few KB, read and written
 * one after the other by the merge. Through fs.promises and zlib's thread pool each file costs
 * two or three round trips to the pool, each a wait for a busy core, with the CPUs half idle;
 * synchronously, none.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import zlib from 'node:zlib';

const SIGNATURE = Buffer.from('pagefind_dcd');

/** The payload of a Pagefind file's bytes; `name` is for the error. */
export function decodePayload(bytes: Uint8Array, name: string): Buffer {
  const data = zlib.gunzipSync(bytes);
  if (!data.subarray(0, SIGNATURE.length).equals(SIGNATURE)) throw new Error(`${name}: not a Pagefind file (no pagefind_dcd signature)`);
  return data.subarray(SIGNATURE.length);
}

export function readPayload(file: string): Buffer {
  return decodePayload(fs.readFileSync(file), file);
}

export function writePayload(file: string, payload: Uint8Array): void {
  fs.writeFileSync(file, zlib.gzipSync(Buffer.concat([SIGNATURE, payload])));
}

/** Pagefind's `full_hash`: SHA-1, each byte formatted with `{:x?}` (so 0x05 is "5", not "05"). */
export function fullHash(payload: Uint8Array): string {
  let out = '';
  for (const byte of createHash('sha1').update(payload).digest()) out += byte.toString(16);
  return out;
}

/**
 * The name of a file among `taken` (which it joins): `<language>_` and the hash's first
 * `prefix` characters, one more for as long as another file already holds that name.
 */
export function shortName(language: string, hash: string, prefix: number, taken: Set<string>): string {
  const full = `${language}_${hash}`;
  let length = language.length + 1 + prefix;
  let name = full.slice(0, length);
  while (taken.has(name) && length < full.length) name = full.slice(0, ++length);
  if (taken.has(name)) throw new Error(`two Pagefind files with the same hash ${full}`);
  taken.add(name);
  return name;
}
