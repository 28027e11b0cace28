/**
 * Client authentication at the token, revocation and introspection endpoints (RFC 6749 §2.3.1):
 * `client_secret_basic` or `client_secret_post`, never both, never none.
 */
import type { IncomingMessage } from 'node:http';
import { OAuthError } from '../errors.ts';
import { param, type Form } from '../http/body.ts';
import type { AuthenticatedClient, AuthMethod, ClientRegistry } from './clients.ts';

export const BASIC_REALM = 'agentes';

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  method: AuthMethod;
}

/**
 * 401 `invalid_client`. RFC 9110 §15.5.2 requires a challenge on every 401, and RFC 6749 §5.2
 * requires it to be Basic when the client used Basic, so it is always sent.
 */
export const invalidClient = (description: string) =>
  new OAuthError(401, 'invalid_client', description, { 'WWW-Authenticate': `Basic realm="${BASIC_REALM}"` });

const utf8 = new TextDecoder('utf-8', { fatal: true });
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** `application/x-www-form-urlencoded` decoding of one half (`+` is a space); null when malformed. */
function formDecode(value: string): string | null {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/**
 * Decodes `Basic <base64(form(id):form(secret))>`: base64 → split at the first `:` → form-decode
 * each half. Raw (unencoded) ids and secrets decode to themselves, since issued values only use
 * `[A-Za-z0-9_-]`.
 */
export function parseBasic(header: string): { clientId: string; clientSecret: string } | null {
  const match = /^basic +(\S+) *$/i.exec(header);
  if (!match || !BASE64.test(match[1]!) || match[1]!.length % 4 === 1) return null;
  let decoded: string;
  try {
    decoded = utf8.decode(Buffer.from(match[1]!, 'base64'));
  } catch {
    return null;
  }
  const colon = decoded.indexOf(':');
  if (colon === -1) return null;
  const clientId = formDecode(decoded.slice(0, colon));
  const clientSecret = formDecode(decoded.slice(colon + 1));
  if (!clientId || clientSecret === null) return null;
  return { clientId, clientSecret };
}

/** The credentials the request carries, or an OAuthError explaining why they are unusable. */
export function readClientCredentials(req: IncomingMessage, form: Form): ClientCredentials {
  const header = req.headers.authorization;
  const postId = param(form, 'client_id');
  const postSecret = param(form, 'client_secret');

  if (header !== undefined) {
    if (!/^basic(?: |$)/i.test(header)) throw invalidClient('Unsupported Authorization scheme; use Basic (client_secret_basic) or client_secret_post.');
    if (postSecret !== undefined) throw new OAuthError(400, 'invalid_request', 'Use one client authentication method: Basic header or client_secret in the body, not both.');
    const basic = parseBasic(header);
    if (!basic) throw invalidClient('Malformed Basic credentials: expected base64(client_id:client_secret).');
    // A client_id in the body next to Basic is harmless when it names the same client (RFC 6749 §2.3.1).
    if (postId !== undefined && postId !== basic.clientId) throw new OAuthError(400, 'invalid_request', 'client_id in the body does not match the Basic credentials.');
    return { ...basic, method: 'client_secret_basic' };
  }
  if (postId !== undefined && postSecret !== undefined) return { clientId: postId, clientSecret: postSecret, method: 'client_secret_post' };
  if (postId !== undefined) throw invalidClient('Client authentication is required: public clients (token_endpoint_auth_method none) are not supported; send client_secret.');
  throw invalidClient('Client authentication is required: use HTTP Basic (client_secret_basic) or client_id and client_secret in the body (client_secret_post).');
}

/** Authenticates the request's client or throws 401 `invalid_client`. */
export async function authenticateClient(req: IncomingMessage, form: Form, clients: ClientRegistry): Promise<AuthenticatedClient> {
  const creds = readClientCredentials(req, form);
  const client = await clients.authenticate(creds.clientId, creds.clientSecret);
  if (!client) throw invalidClient('Client authentication failed: unknown client_id or wrong client_secret.');
  return client;
}
