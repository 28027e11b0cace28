/**
 * What the OAuth tests share: their test server (on SITE_URL, with the test's store and clock),
 * stores for one test (memory or a real Redis), the small HTTP helpers and the exact-error
 * assertion.
 */
import * as assert from 'uvu/assert';
import { parseConfig } from '../../../../server/config.ts';
import { createLogger, type Logger } from '../../../../server/log.ts';
import { openModel, type OpenedModel } from '../../../../server/read-model/holder.ts';
import { createMemoryStore } from '../../../../server/stores/memory.ts';
import { createRedisStore } from '../../../../server/stores/redis.ts';
import type { Store } from '../../../../server/stores/types.ts';
import { basic } from '../../../helpers/http.ts';
import { sharedReadModel } from '../../../helpers/read-model.ts';
import { startTestServer, type TestServer } from '../../../helpers/server.ts';

export const SITE_URL = 'https://agentes.example';

export interface TestClock {
  (): number;
  advance(seconds: number): void;
}

export function testClock(start = Date.now()): TestClock {
  let now = start;
  const clock = (() => now) as TestClock;
  clock.advance = (seconds) => { now += seconds * 1000; };
  return clock;
}

/** A logger that keeps every line, so tests can grep what would have been written. */
export function capturingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const text = (v: unknown) => (v instanceof Error ? `${v.message} ${v.stack}` : JSON.stringify(v) ?? '');
  return {
    lines,
    info: (m, f) => { lines.push(`${m} ${text(f)}`); },
    error: (m, c) => { lines.push(`${m} ${text(c)}`); },
  };
}

/** Makes a fresh, empty store for one test: memory, or a new key prefix on a shared Redis. */
export type StoreFactory = (clock: TestClock) => Promise<Store>;

export const memoryStores: StoreFactory = async (clock) => createMemoryStore({ clock });

let prefixes = 0;
/** Each call connects a new Redis store on a prefix of its own, so tests never see each other's keys. */
export function redisStores(url: string, log: Logger = capturingLogger()): StoreFactory {
  return async () => createRedisStore({ url, keyPrefix: `oauth-test-${process.pid}-${++prefixes}`, log });
}

let model: Promise<OpenedModel> | undefined;

/**
 * The whole server as the OAuth tests run it, one per test: over one read model opened for them
 * all (opening one per server would cost a few hundred ms each, for endpoints that never read it).
 */
export async function startOAuthServer(options: { store: Store; clock: TestClock }): Promise<TestServer<TestClock>> {
  model ??= sharedReadModel().then((f) => openModel(parseConfig({ SITE_URL, READ_MODEL_DIR: f.dir }), createLogger('silent'), { watch: false }));
  return startTestServer({ env: { SITE_URL }, ...options, model: await model });
}

// ---- HTTP helpers -------------------------------------------------------------------------

export interface Registered { client_id: string; client_secret: string; [k: string]: unknown }

export async function register(url: string, metadata: object = { client_name: 'Agente de prueba', contacts: ['dev@example.com'] }): Promise<Registered> {
  const res = await fetch(`${url}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(metadata) });
  assert.is(res.status, 201, `registration failed: ${res.status}`);
  return (await res.json()) as Registered;
}

/** POSTs a form to `path`; `auth` adds a client_secret_basic header. */
export function postForm(url: string, path: string, form: Record<string, string> | string, auth?: { id: string; secret: string }, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(auth ? { authorization: basic(auth.id, auth.secret) } : {}),
      ...headers,
    },
    body: typeof form === 'string' ? form : new URLSearchParams(form).toString(),
  });
}

export async function getToken(url: string, client: Registered, form: Record<string, string> = {}): Promise<string> {
  const res = await postForm(url, '/oauth/token', { grant_type: 'client_credentials', ...form }, { id: client.client_id, secret: client.client_secret });
  assert.is(res.status, 200, `token request failed: ${res.status} ${await res.clone().text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

export const identity = (url: string, token?: string) =>
  fetch(`${url}/agent/identity`, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });

export async function introspect(url: string, client: Registered, token: string): Promise<unknown> {
  const res = await postForm(url, '/oauth/introspect', { token }, { id: client.client_id, secret: client.client_secret });
  assert.is(res.status, 200);
  return res.json();
}

/** RFC 6749 §5.2: error_description is limited to printable ASCII without `"` and `\`. */
export const RFC6749_DESCRIPTION = /^[\x20\x21\x23-\x5B\x5D-\x7E]*$/;

/**
 * Asserts an exact OAuth error response: status, body exactly `{error, error_description}`
 * (description compared exactly when given), JSON, never cached.
 */
export async function expectOAuthError(res: Response, status: number, error: string, description?: string): Promise<{ error: string; error_description: string }> {
  const text = await res.text();
  assert.is(res.status, status, `status (body: ${text})`);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  assert.is(res.headers.get('cache-control'), 'no-store');
  assert.is(res.headers.get('pragma'), 'no-cache');
  const body = JSON.parse(text) as { error: string; error_description: string };
  assert.equal(Object.keys(body).sort(), ['error', 'error_description']);
  assert.is(body.error, error, `error (body: ${text})`);
  assert.match(body.error_description, RFC6749_DESCRIPTION, 'error_description charset (RFC 6749 §5.2)');
  if (description !== undefined) assert.is(body.error_description, description);
  return body;
}
