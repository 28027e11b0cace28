/**
 * Request bodies of the OAuth endpoints: size-limited reading, then strict parsing of
 * `application/x-www-form-urlencoded` (RFC 6749 §3.2: no parameter twice) or JSON (RFC 7591).
 * Every failure is an OAuthError, so bad input never becomes a 500.
 */
import type { IncomingMessage } from 'node:http';
import { OAuthError } from '../errors.ts';
import { lingerOnClose } from './lingering-close.ts';

/** OAuth requests are a few hundred bytes; 16 KB leaves room for generous registration metadata. */
export const OAUTH_BODY_LIMIT = 16 * 1024;

export const FORM = 'application/x-www-form-urlencoded';
export const JSON_TYPE = 'application/json';

/** Parameter name → values in order of appearance. Empty values are dropped (RFC 6749 §3.1). */
export type Form = ReadonlyMap<string, readonly string[]>;

const invalidRequest = (description: string) => new OAuthError(400, 'invalid_request', description);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Media type of the request (lower-case, no parameters), after checking any charset is UTF-8. */
function mediaType(req: IncomingMessage): string {
  const header = req.headers['content-type'];
  if (!header) return '';
  const [type = '', ...params] = header.split(';');
  for (const p of params) {
    const eq = p.indexOf('=');
    if (eq === -1 || p.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    const charset = p.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1').toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8') throw invalidRequest('The request body must be UTF-8.');
  }
  return type.trim().toLowerCase();
}

function expectType(req: IncomingMessage, expected: string): void {
  if (mediaType(req) !== expected) throw invalidRequest(`Content-Type must be ${expected}.`);
  const encoding = req.headers['content-encoding'];
  if (encoding && encoding.toLowerCase() !== 'identity') throw invalidRequest('Content-Encoding is not supported; send the body uncompressed.');
}

/**
 * The connection is closed after the 413, so a client still uploading is not read to the end; the
 * close lingers, or the client's unread 413 would be lost to a reset.
 */
function tooLarge(req: IncomingMessage, limit: number): OAuthError {
  lingerOnClose(req.socket);
  return new OAuthError(413, 'invalid_request', `The request body is larger than ${limit} bytes.`, { Connection: 'close' });
}

/** Reads the whole body, refusing more than `limit` bytes (by Content-Length up front, or as it streams). */
export function readBody(req: IncomingMessage, limit = OAUTH_BODY_LIMIT): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.reject(tooLarge(req, limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    const onData = (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) { failed = true; chunks.length = 0; reject(tooLarge(req, limit)); return; }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => { if (!failed) resolve(Buffer.concat(chunks, size)); });
    req.once('error', () => { if (!failed) { failed = true; reject(invalidRequest('The request body could not be read.')); } });
    req.once('aborted', () => { if (!failed) { failed = true; reject(invalidRequest('The request body was cut short.')); } });
  });
}

function decodeUtf8(body: Buffer): string {
  try {
    return utf8.decode(body);
  } catch {
    throw invalidRequest('The request body is not valid UTF-8.');
  }
}

function formDecode(value: string, name: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    throw invalidRequest(`Parameter ${name} is not correctly form-encoded (bad %-escape or UTF-8).`);
  }
}

/**
 * Parses a form body. A parameter present more than once is `invalid_request` (RFC 6749 §3.2)
 * unless listed in `repeatable` (RFC 8707 allows several `resource`).
 */
export function parseForm(body: Buffer, repeatable: readonly string[] = []): Form {
  const text = decodeUtf8(body);
  const form = new Map<string, string[]>();
  if (text === '') return form;
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = formDecode(eq === -1 ? pair : pair.slice(0, eq), 'name');
    const value = eq === -1 ? '' : formDecode(pair.slice(eq + 1), name);
    if (value === '') continue;
    const values = form.get(name);
    if (!values) { form.set(name, [value]); continue; }
    if (!repeatable.includes(name)) throw invalidRequest(`Parameter ${name} must not be repeated.`);
    values.push(value);
  }
  return form;
}

/** The single value of `name`, or undefined. */
export const param = (form: Form, name: string): string | undefined => form.get(name)?.[0];

export async function readForm(req: IncomingMessage, options: { repeatable?: readonly string[]; limit?: number } = {}): Promise<Form> {
  expectType(req, FORM);
  return parseForm(await readBody(req, options.limit), options.repeatable);
}

export async function readJson(req: IncomingMessage, options: { limit?: number } = {}): Promise<unknown> {
  expectType(req, JSON_TYPE);
  const text = decodeUtf8(await readBody(req, options.limit));
  if (text.trim() === '') throw invalidRequest('The request body is empty; send a JSON object.');
  try {
    return JSON.parse(text);
  } catch {
    throw invalidRequest('The request body is not valid JSON.');
  }
}
