/**
 * Registered clients (RFC 7591): metadata validation, creation and authentication. A client is
 * one store key, `client:<client_id>`, holding the secret's hash and its metadata; its TTL is
 * the idle limit (contract.md, Limits), renewed by every token request.
 */
import { OAuthError } from '../errors.ts';
import type { Clock, Store } from '../stores/types.ts';
import { SCOPES, type Scope } from './types.ts';
import { ISSUED_VALUE, matchesHash, newClientId, newClientSecret, sha256 } from './secrets.ts';

/** A client that requests no token for 180 days is recycled. */
export const CLIENT_IDLE_SECONDS = 180 * 24 * 3600;
export const AUTH_METHODS = ['client_secret_basic', 'client_secret_post'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];
export const GRANT_TYPES = ['client_credentials'] as const;
export const DEFAULT_SCOPE: readonly Scope[] = SCOPES;

const MAX_NAME = 200;
const MAX_CONTACTS = 10;
const MAX_EMAIL = 254;
// One address per entry (no display names): local@domain.tld, no spaces, brackets or separators.
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:".]+(?:\.[^\s@<>()[\]\\,;:".]+)+$/;

export interface ClientRecord {
  secret_hash: string;
  client_name?: string;
  contacts: string[];
  /** Space-separated, canonical order. */
  scope: string;
  /** Epoch seconds. */
  issued_at: number;
  /** As registered; both methods are accepted at the token endpoint (see README). */
  auth_method: AuthMethod;
}

export interface ClientMetadata {
  client_name?: string;
  contacts: string[];
  scope: Scope[];
  token_endpoint_auth_method: AuthMethod;
}

/** The RFC 7591 §3.2.1 response: credentials plus every registered field. */
export interface RegistrationResponse {
  client_id: string;
  client_secret: string;
  client_id_issued_at: number;
  client_secret_expires_at: 0;
  client_name?: string;
  contacts: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: AuthMethod;
  scope: string;
}

export const clientKey = (clientId: string) => `client:${clientId}`;

const invalidMetadata = (description: string) => new OAuthError(400, 'invalid_client_metadata', description);

/** Canonical scope string: known scopes, deduplicated, in SCOPES order. */
export const scopeString = (scopes: readonly Scope[]) => SCOPES.filter((s) => scopes.includes(s)).join(' ');

/** Splits a space-delimited scope (RFC 6749 §3.3); null when any entry is unknown. */
export function parseScope(raw: string): Scope[] | null {
  const out: Scope[] = [];
  for (const token of raw.split(' ')) {
    if (token === '') continue;
    if (!(SCOPES as readonly string[]).includes(token)) return null;
    if (!out.includes(token as Scope)) out.push(token as Scope);
  }
  return out;
}

/**
 * Validates registration metadata. Unknown members are ignored (RFC 7591 §2); known ones with
 * a value this server cannot honour are `invalid_client_metadata` (§3.2.2).
 */
export function parseClientMetadata(body: unknown): ClientMetadata {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new OAuthError(400, 'invalid_request', 'The request body must be a JSON object.');
  }
  const m = body as Record<string, unknown>;
  const out: ClientMetadata = { contacts: [], scope: [...DEFAULT_SCOPE], token_endpoint_auth_method: 'client_secret_basic' };

  if (m.client_name !== undefined) {
    if (typeof m.client_name !== 'string' || m.client_name.trim() === '') throw invalidMetadata('client_name must be a non-empty string.');
    if (m.client_name.length > MAX_NAME) throw invalidMetadata(`client_name must be at most ${MAX_NAME} characters.`);
    out.client_name = m.client_name;
  }

  if (m.contacts !== undefined) {
    if (!Array.isArray(m.contacts)) throw invalidMetadata('contacts must be an array of e-mail addresses.');
    if (m.contacts.length > MAX_CONTACTS) throw invalidMetadata(`contacts holds at most ${MAX_CONTACTS} addresses.`);
    for (const c of m.contacts) {
      if (typeof c !== 'string' || c.length > MAX_EMAIL || !EMAIL.test(c)) {
        throw invalidMetadata('Every contacts entry must be an e-mail address (name@example.com).');
      }
    }
    out.contacts = [...new Set(m.contacts as string[])];
  }

  if (m.token_endpoint_auth_method !== undefined) {
    if (!(AUTH_METHODS as readonly unknown[]).includes(m.token_endpoint_auth_method)) {
      throw invalidMetadata('token_endpoint_auth_method must be client_secret_basic or client_secret_post; public clients (none) are not supported.');
    }
    out.token_endpoint_auth_method = m.token_endpoint_auth_method as AuthMethod;
  }

  if (m.grant_types !== undefined) {
    if (!Array.isArray(m.grant_types) || m.grant_types.length === 0 || m.grant_types.some((g) => g !== 'client_credentials')) {
      throw invalidMetadata('grant_types may only hold client_credentials: it is the only grant this server supports.');
    }
  }

  if (m.response_types !== undefined) {
    if (!Array.isArray(m.response_types) || m.response_types.length > 0) {
      throw invalidMetadata('response_types must be []: the client_credentials grant uses no authorization endpoint.');
    }
  }

  if (m.scope !== undefined) {
    const scopes = typeof m.scope === 'string' ? parseScope(m.scope) : null;
    if (scopes === null) throw invalidMetadata(`scope must be a space-separated subset of: ${SCOPES.join(' ')}.`);
    if (scopes.length > 0) out.scope = scopes;
  }

  return out;
}

export interface AuthenticatedClient {
  clientId: string;
  record: ClientRecord;
}

export interface ClientRegistry {
  register(metadata: ClientMetadata): Promise<RegistrationResponse>;
  /** The client whose secret matches, or null. Unknown and wrong-secret take the same path. */
  authenticate(clientId: string, clientSecret: string): Promise<AuthenticatedClient | null>;
  /** Renews the idle TTL; called on every successful token request. */
  renew(clientId: string): Promise<void>;
}

// Hash compared against when the client does not exist, so both failures cost the same.
const DUMMY_HASH = sha256('no such client');

export function createClientRegistry({ store, clock }: { store: Store; clock: Clock }): ClientRegistry {
  return {
    async register(metadata) {
      const issuedAt = Math.floor(clock() / 1000);
      const secret = newClientSecret();
      const record: ClientRecord = {
        secret_hash: sha256(secret),
        ...(metadata.client_name !== undefined ? { client_name: metadata.client_name } : {}),
        contacts: metadata.contacts,
        scope: scopeString(metadata.scope),
        issued_at: issuedAt,
        auth_method: metadata.token_endpoint_auth_method,
      };
      let clientId = newClientId();
      // 128-bit ids do not collide in practice; setIfAbsent makes it impossible to overwrite one.
      while (!(await store.setIfAbsent(clientKey(clientId), JSON.stringify(record), CLIENT_IDLE_SECONDS))) clientId = newClientId();
      return {
        client_id: clientId,
        client_secret: secret,
        client_id_issued_at: issuedAt,
        client_secret_expires_at: 0,
        ...(record.client_name !== undefined ? { client_name: record.client_name } : {}),
        contacts: record.contacts,
        grant_types: [...GRANT_TYPES],
        response_types: [],
        token_endpoint_auth_method: record.auth_method,
        scope: record.scope,
      };
    },

    async authenticate(clientId, clientSecret) {
      const raw = clientId.length <= 64 && ISSUED_VALUE.test(clientId) ? await store.get(clientKey(clientId)) : null;
      const record = raw === null ? null : parseRecord(raw);
      const ok = matchesHash(clientSecret, record?.secret_hash ?? DUMMY_HASH);
      return ok && record ? { clientId, record } : null;
    },

    async renew(clientId) {
      await store.touch(clientKey(clientId), CLIENT_IDLE_SECONDS);
    },
  };
}

function parseRecord(raw: string): ClientRecord | null {
  try {
    const r = JSON.parse(raw) as ClientRecord;
    return typeof r.secret_hash === 'string' && typeof r.scope === 'string' ? r : null;
  } catch {
    return null;
  }
}
