/**
 * The OAuth conformance suite (conformance.md §1–§4 and the interop traps), one test per line,
 * named after its section. Run against the memory store (memory.test.ts) and a real Redis
 * (redis.test.ts); every test gets a fresh store and server.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { clientKey } from '../../../../server/auth/clients.ts';
import { sha256 } from '../../../../server/auth/secrets.ts';
import { tokenKey } from '../../../../server/auth/tokens.ts';
import { identifiedSubject } from '../../../../server/quota/ratelimit.ts';
import { basic } from '../../../helpers/http.ts';
import type { TestServer } from '../../../helpers/server.ts';
import {
  expectOAuthError, getToken, identity, introspect, postForm, register, SITE_URL,
  startOAuthServer, testClock, type Registered, type StoreFactory, type TestClock,
} from './harness.ts';

const RESOURCE_METADATA = `${SITE_URL}/.well-known/oauth-protected-resource/wp-json/agentes/v1`;
const ISSUED = /^[A-Za-z0-9_-]+$/;

export interface SuiteOptions {
  /** The backend expires keys on the injected clock (memory) rather than on real time (Redis). */
  clockDrivesTtl: boolean;
}

export function oauthSuite(name: string, makeStore: StoreFactory, options: SuiteOptions): void {
  const test = suite(`oauth (${name} store)`);

  async function withServer(fn: (s: TestServer<TestClock>) => Promise<void>): Promise<void> {
    const clock = testClock();
    const store = await makeStore(clock);
    const s = await startOAuthServer({ store, clock });
    try {
      await fn(s);
    } finally {
      await s.close();
      await store.close();
    }
  }

  const token = (s: TestServer, c: Registered, form: Record<string, string> | string, auth = true) =>
    postForm(s.origin, '/oauth/token', form, auth ? { id: c.client_id, secret: c.client_secret } : undefined);

  // ---- §1 Registration -------------------------------------------------------------------

  test('§1 registration: 201, no-store, every registered field echoed', () => withServer(async (s) => {
    const res = await fetch(`${s.origin}/oauth/register`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Mi agente', contacts: ['ana@example.com'] }),
    });
    assert.is(res.status, 201);
    assert.is(res.headers.get('cache-control'), 'no-store');
    assert.is(res.headers.get('pragma'), 'no-cache');
    const body = await res.json() as Registered;
    assert.equal(Object.keys(body).sort(), [
      'client_id', 'client_id_issued_at', 'client_name', 'client_secret', 'client_secret_expires_at',
      'contacts', 'grant_types', 'response_types', 'scope', 'token_endpoint_auth_method',
    ]);
    assert.equal({ ...body, client_id: 'x', client_secret: 'y' }, {
      client_id: 'x', client_secret: 'y',
      client_id_issued_at: Math.floor(s.clock() / 1000),
      client_secret_expires_at: 0,
      client_name: 'Mi agente',
      contacts: ['ana@example.com'],
      grant_types: ['client_credentials'],
      response_types: [],
      token_endpoint_auth_method: 'client_secret_basic',
      scope: 'content:read quota:read',
    });
    assert.match(body.client_id, ISSUED);
    assert.match(body.client_secret, ISSUED);
    // ≥ 256 bits: 43 base64url characters carry 258.
    assert.ok(body.client_secret.length >= 43);
  }));

  test('§1 registration: the secret is stored only as its hash', () => withServer(async (s) => {
    const c = await register(s.origin);
    const stored = await s.store.get(clientKey(c.client_id));
    assert.ok(stored);
    assert.not.ok(stored.includes(c.client_secret));
    assert.is(JSON.parse(stored).secret_hash, sha256(c.client_secret));
  }));

  test('§1 registration: unknown metadata is ignored, not rejected', () => withServer(async (s) => {
    const c = await register(s.origin, { client_name: 'x', software_id: 'abc', redirect_uris: ['https://a.example/cb'], 'client_name#en': 'y', logo_uri: 42 });
    for (const key of ['software_id', 'redirect_uris', 'client_name#en', 'logo_uri']) assert.not.ok(key in c, key);
    assert.is(c.client_name, 'x');
  }));

  test('§1 registration: nothing required; an empty object registers', () => withServer(async (s) => {
    const c = await register(s.origin, {});
    assert.equal(c.contacts, []);
    assert.not.ok('client_name' in c);
  }));

  test('§1 registration: client_secret_post and a narrower scope are registered and echoed', () => withServer(async (s) => {
    const c = await register(s.origin, { token_endpoint_auth_method: 'client_secret_post', scope: 'quota:read', grant_types: ['client_credentials'], response_types: [] });
    assert.is(c.token_endpoint_auth_method, 'client_secret_post');
    assert.is(c.scope, 'quota:read');
  }));

  test('§1 registration: token_endpoint_auth_method "none" → 400 invalid_client_metadata', () => withServer(async (s) => {
    const res = await fetch(`${s.origin}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token_endpoint_auth_method: 'none' }) });
    await expectOAuthError(res, 400, 'invalid_client_metadata', 'token_endpoint_auth_method must be client_secret_basic or client_secret_post; public clients (none) are not supported.');
  }));

  for (const [label, metadata] of [
    ['unknown auth method', { token_endpoint_auth_method: 'private_key_jwt' }],
    ['unknown grant', { grant_types: ['authorization_code'] }],
    ['client_credentials plus another grant', { grant_types: ['client_credentials', 'refresh_token'] }],
    ['response types', { response_types: ['code'] }],
    ['unknown scope', { scope: 'content:write' }],
    ['non-string client_name', { client_name: 7 }],
  ] as const) {
    test(`§1 registration: ${label} → 400 invalid_client_metadata`, () => withServer(async (s) => {
      const res = await fetch(`${s.origin}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(metadata) });
      await expectOAuthError(res, 400, 'invalid_client_metadata');
    }));
  }

  test('§1 registration: contacts that are not e-mail addresses → 400 invalid_client_metadata', () => withServer(async (s) => {
    for (const contacts of [['not an email'], ['Ana <ana@example.com>'], ['ana@localhost'], [42], 'ana@example.com']) {
      const res = await fetch(`${s.origin}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ contacts }) });
      await expectOAuthError(res, 400, 'invalid_client_metadata');
    }
  }));

  test('§1 registration: wrong content type, malformed JSON, empty or non-object body → 400 invalid_request', () => withServer(async (s) => {
    const cases: [string | undefined, string, string][] = [
      ['application/x-www-form-urlencoded', 'client_name=x', 'Content-Type must be application/json.'],
      [undefined, '{}', 'Content-Type must be application/json.'],
      ['application/json', '{"client_name":', 'The request body is not valid JSON.'],
      ['application/json', '', 'The request body is empty; send a JSON object.'],
      ['application/json', '["client_name"]', 'The request body must be a JSON object.'],
      ['application/json; charset=iso-8859-1', '{}', 'The request body must be UTF-8.'],
    ];
    for (const [type, body, description] of cases) {
      const res = await fetch(`${s.origin}/oauth/register`, { method: 'POST', headers: type ? { 'content-type': type } : {}, body });
      await expectOAuthError(res, 400, 'invalid_request', description);
    }
    const latin1 = await fetch(`${s.origin}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.from('{"client_name":"Pe\xf1a"}', 'latin1') });
    await expectOAuthError(latin1, 400, 'invalid_request', 'The request body is not valid UTF-8.');
  }));

  test('§1 registration limit: the 6th registration in an hour from one IP → 429 rate_limited with Retry-After', () => withServer(async (s) => {
    for (let i = 0; i < 5; i++) await register(s.origin);
    const res = await fetch(`${s.origin}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const retryAfter = Number(res.headers.get('retry-after'));
    await expectOAuthError(res, 429, 'rate_limited');
    assert.ok(Number.isInteger(retryAfter) && retryAfter > 3500 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
  }));

  test('§1 registration limit: invalid requests do not use it up', () => withServer(async (s) => {
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${s.origin}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"contacts":["x"]}' });
      assert.is(res.status, 400);
    }
    await register(s.origin);
  }));

  test('§1 registration: other methods → 405 JSON with Allow: POST, OPTIONS', () => withServer(async (s) => {
    const res = await fetch(`${s.origin}/oauth/register`);
    assert.is(res.headers.get('allow'), 'POST, OPTIONS');
    await expectOAuthError(res, 405, 'invalid_request', 'Method not allowed; use POST.');
  }));

  // ---- §2 Token --------------------------------------------------------------------------

  test('§2 token: client_secret_basic → 200 Bearer, 3600 s, scope always, no refresh token, no-store', () => withServer(async (s) => {
    const c = await register(s.origin);
    const res = await token(s, c, { grant_type: 'client_credentials' });
    assert.is(res.status, 200);
    assert.is(res.headers.get('cache-control'), 'no-store');
    assert.is(res.headers.get('pragma'), 'no-cache');
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const body = await res.json() as Record<string, unknown>;
    assert.equal(Object.keys(body).sort(), ['access_token', 'expires_in', 'scope', 'token_type']);
    assert.is(body.token_type, 'Bearer');
    assert.is(body.expires_in, 3600);
    assert.is(body.scope, 'content:read quota:read');
    assert.match(body.access_token as string, ISSUED);
    assert.ok((body.access_token as string).length >= 43);
  }));

  test('§2 token: client_secret_post works too', () => withServer(async (s) => {
    const c = await register(s.origin);
    const res = await token(s, c, { grant_type: 'client_credentials', client_id: c.client_id, client_secret: c.client_secret }, false);
    assert.is(res.status, 200);
  }));

  test('§2 token: stored only as its hash, with a TTL of its lifetime', () => withServer(async (s) => {
    const c = await register(s.origin);
    const t = await getToken(s.origin, c);
    const stored = await s.store.get(tokenKey(t));
    assert.ok(stored);
    assert.not.ok(stored.includes(t));
    const now = Math.floor(s.clock() / 1000);
    assert.equal(JSON.parse(stored), { client_id: c.client_id, scope: 'content:read quota:read', iat: now, exp: now + 3600 });
  }));

  test('§2 form-encoded Basic credentials: %XX and raw halves decode to the same client (RFC 6749 §2.3.1)', () => withServer(async (s) => {
    const c = await register(s.origin);
    const everyChar = (v: string) => [...v].map((ch) => '%' + ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')).join('');
    const formEncoded = (v: string) => v.replace(/-/g, '%2D').replace(/_/g, '%5F');
    for (const header of [
      basic(everyChar(c.client_id), everyChar(c.client_secret)),
      basic(formEncoded(c.client_id), formEncoded(c.client_secret)),
      basic(c.client_id, c.client_secret),
      `bAsIc ${Buffer.from(`${c.client_id}:${c.client_secret}`).toString('base64')}`,
    ]) {
      const res = await postForm(s.origin, '/oauth/token', { grant_type: 'client_credentials' }, undefined, { authorization: header });
      assert.is(res.status, 200, header);
    }
  }));

  test('§2 form-encoded Basic credentials: "+" is a space, so an encoded secret is not its raw form', () => withServer(async (s) => {
    const c = await register(s.origin);
    // A '+' appended to the secret decodes to a trailing space: a different secret.
    const res = await postForm(s.origin, '/oauth/token', { grant_type: 'client_credentials' }, undefined, { authorization: basic(c.client_id, c.client_secret + '+') });
    await expectOAuthError(res, 401, 'invalid_client');
  }));

  test('§2 both client authentication methods at once → 400 invalid_request', () => withServer(async (s) => {
    const c = await register(s.origin);
    const res = await token(s, c, { grant_type: 'client_credentials', client_id: c.client_id, client_secret: c.client_secret });
    await expectOAuthError(res, 400, 'invalid_request', 'Use one client authentication method: Basic header or client_secret in the body, not both.');
  }));

  test('§2 Basic with a matching client_id in the body is accepted; a different one is invalid_request', () => withServer(async (s) => {
    const c = await register(s.origin);
    assert.is((await token(s, c, { grant_type: 'client_credentials', client_id: c.client_id })).status, 200);
    const res = await token(s, c, { grant_type: 'client_credentials', client_id: 'someone-else' });
    await expectOAuthError(res, 400, 'invalid_request');
  }));

  test('§2 malformed Basic → 401 invalid_client with WWW-Authenticate: Basic', () => withServer(async (s) => {
    for (const header of ['Basic', 'Basic !!!', 'Basic ' + Buffer.from('no-colon').toString('base64'), 'Basic ' + Buffer.from('%ZZ:x').toString('base64'), 'Basic ' + Buffer.from([0xff, 0x3a, 0x61]).toString('base64'), 'Basic ' + Buffer.from(':secret').toString('base64')]) {
      const res = await postForm(s.origin, '/oauth/token', { grant_type: 'client_credentials' }, undefined, { authorization: header });
      assert.is(res.headers.get('www-authenticate'), 'Basic realm="agentes"', header);
      await expectOAuthError(res, 401, 'invalid_client');
    }
  }));

  test('§2 wrong secret or unknown client → 401 invalid_client (Basic and post alike)', () => withServer(async (s) => {
    const c = await register(s.origin);
    const wrong = { ...c, client_secret: c.client_secret.slice(0, -1) + (c.client_secret.endsWith('A') ? 'B' : 'A') };
    const viaBasic = await token(s, wrong, { grant_type: 'client_credentials' });
    assert.is(viaBasic.headers.get('www-authenticate'), 'Basic realm="agentes"');
    await expectOAuthError(viaBasic, 401, 'invalid_client', 'Client authentication failed: unknown client_id or wrong client_secret.');
    const viaPost = await token(s, c, { grant_type: 'client_credentials', client_id: c.client_id, client_secret: 'nope' }, false);
    await expectOAuthError(viaPost, 401, 'invalid_client', 'Client authentication failed: unknown client_id or wrong client_secret.');
    const unknown = await token(s, { ...c, client_id: 'unknown-client' }, { grant_type: 'client_credentials' });
    await expectOAuthError(unknown, 401, 'invalid_client', 'Client authentication failed: unknown client_id or wrong client_secret.');
  }));

  test('§2 token_endpoint_auth_method none (client_id without a secret) → 401 invalid_client', () => withServer(async (s) => {
    const c = await register(s.origin);
    const res = await token(s, c, { grant_type: 'client_credentials', client_id: c.client_id }, false);
    await expectOAuthError(res, 401, 'invalid_client', 'Client authentication is required: public clients (token_endpoint_auth_method none) are not supported; send client_secret.');
  }));

  test('§2 no client authentication at all → 401 invalid_client', () => withServer(async (s) => {
    const res = await postForm(s.origin, '/oauth/token', { grant_type: 'client_credentials' });
    await expectOAuthError(res, 401, 'invalid_client');
  }));

  test('§2 grant_type missing → 400 invalid_request', () => withServer(async (s) => {
    const c = await register(s.origin);
    const res = await token(s, c, { scope: 'content:read' });
    await expectOAuthError(res, 400, 'invalid_request', 'Missing required parameter: grant_type (use client_credentials).');
  }));

  test('§2 grant_type unsupported → 400 unsupported_grant_type', () => withServer(async (s) => {
    const c = await register(s.origin);
    for (const grant of ['authorization_code', 'password', 'refresh_token', 'CLIENT_CREDENTIALS']) {
      const res = await token(s, c, { grant_type: grant });
      await expectOAuthError(res, 400, 'unsupported_grant_type', 'Only grant_type=client_credentials is supported.');
    }
  }));

  test('§2 no scope requested → content:read quota:read; a subset is granted as asked', () => withServer(async (s) => {
    const c = await register(s.origin);
    for (const [asked, granted] of [[undefined, 'content:read quota:read'], ['quota:read', 'quota:read'], ['quota:read content:read', 'content:read quota:read'], ['content:read  content:read', 'content:read']] as const) {
      const res = await token(s, c, { grant_type: 'client_credentials', ...(asked ? { scope: asked } : {}) });
      assert.is((await res.json() as { scope: string }).scope, granted, String(asked));
    }
  }));

  test('§2 unknown scope → 400 invalid_scope', () => withServer(async (s) => {
    const c = await register(s.origin);
    for (const scope of ['content:write', 'content:read admin', 'openid', ' ']) {
      const res = await token(s, c, { grant_type: 'client_credentials', scope });
      await expectOAuthError(res, 400, 'invalid_scope', 'Unknown scope. Valid scopes: content:read quota:read.');
    }
  }));

  test('§2 scope beyond what the client registered → 400 invalid_scope', () => withServer(async (s) => {
    const c = await register(s.origin, { scope: 'content:read' });
    const res = await token(s, c, { grant_type: 'client_credentials', scope: 'quota:read' });
    await expectOAuthError(res, 400, 'invalid_scope', 'This client is registered for: content:read.');
    assert.is((await (await token(s, c, { grant_type: 'client_credentials' })).json() as { scope: string }).scope, 'content:read');
  }));

  test('§2 repeated parameter → 400 invalid_request', () => withServer(async (s) => {
    const c = await register(s.origin);
    for (const body of ['grant_type=client_credentials&grant_type=client_credentials', 'grant_type=client_credentials&scope=content:read&scope=quota:read']) {
      const res = await token(s, c, body);
      const name = body.includes('scope=') ? 'scope' : 'grant_type';
      await expectOAuthError(res, 400, 'invalid_request', `Parameter ${name} must not be repeated.`);
    }
    // A name the client chose is quoted within RFC 6749's charset: no quote, backslash, newline or ñ.
    const odd = 'a%22b%5Cc%0Ad%C3%B1';
    await expectOAuthError(await token(s, c, `grant_type=client_credentials&${odd}=1&${odd}=2`), 400, 'invalid_request', 'Parameter a?b?c?d? must not be repeated.');
  }));

  test('§2 wrong content type → 400 invalid_request', () => withServer(async (s) => {
    const c = await register(s.origin);
    for (const type of ['application/json', 'text/plain', 'multipart/form-data; boundary=x', '']) {
      const res = await fetch(`${s.origin}/oauth/token`, { method: 'POST', headers: { 'content-type': type, authorization: basic(c.client_id, c.client_secret) }, body: '{"grant_type":"client_credentials"}' });
      await expectOAuthError(res, 400, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded.');
    }
    const charset = await postForm(s.origin, '/oauth/token', { grant_type: 'client_credentials' }, { id: c.client_id, secret: c.client_secret }, { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' });
    assert.is(charset.status, 200);
  }));

  test('§2 huge body → 413 invalid_request, never a 500', () => withServer(async (s) => {
    const c = await register(s.origin);
    const res = await token(s, c, `grant_type=client_credentials&pad=${'a'.repeat(1024 * 1024)}`);
    await expectOAuthError(res, 413, 'invalid_request', 'The request body is larger than 16384 bytes.');
    // Chunked, no Content-Length: the limit holds while streaming.
    const stream = new ReadableStream({ start(ctl) { for (let i = 0; i < 40; i++) ctl.enqueue(new TextEncoder().encode('a'.repeat(1024))); ctl.close(); } });
    const chunked = await fetch(`${s.origin}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: stream, duplex: 'half' } as RequestInit);
    await expectOAuthError(chunked, 413, 'invalid_request');
  }));

  test('§2 invalid UTF-8, bad %-escapes and compressed bodies → 400 invalid_request', () => withServer(async (s) => {
    const c = await register(s.origin);
    const auth = { authorization: basic(c.client_id, c.client_secret), 'content-type': 'application/x-www-form-urlencoded' };
    const bodies: [BodyInit, string][] = [
      [Buffer.from([0x67, 0x72, 0x61, 0x6e, 0x74, 0x5f, 0x74, 0x79, 0x70, 0x65, 0x3d, 0xff]), 'The request body is not valid UTF-8.'],
      ['grant_type=client_credentials&scope=%E0%A4%A', 'Parameter scope is not correctly form-encoded (bad %-escape or UTF-8).'],
      ['grant_type=client_credentials&scope=%FF', 'Parameter scope is not correctly form-encoded (bad %-escape or UTF-8).'],
    ];
    for (const [body, description] of bodies) {
      await expectOAuthError(await fetch(`${s.origin}/oauth/token`, { method: 'POST', headers: auth, body }), 400, 'invalid_request', description);
    }
    const gz = await fetch(`${s.origin}/oauth/token`, { method: 'POST', headers: { ...auth, 'content-encoding': 'gzip' }, body: 'x' });
    await expectOAuthError(gz, 400, 'invalid_request', 'Content-Encoding is not supported; send the body uncompressed.');
  }));

  test('§2 credentials in the URL → 400 invalid_request', () => withServer(async (s) => {
    const c = await register(s.origin);
    const res = await fetch(`${s.origin}/oauth/token?client_id=${c.client_id}&client_secret=${c.client_secret}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
    await expectOAuthError(res, 400, 'invalid_request', 'client_id must be sent in the request body or Authorization header, never in the URL.');
  }));

  test('§2 resource (RFC 8707): the API, the MCP endpoint or the site → 200; anything else → invalid_target', () => withServer(async (s) => {
    const c = await register(s.origin);
    for (const resource of [`${SITE_URL}/wp-json/agentes/v1`, `${SITE_URL}/mcp`, SITE_URL, `${SITE_URL}/`]) {
      assert.is((await token(s, c, { grant_type: 'client_credentials', resource })).status, 200, resource);
    }
    const both = await token(s, c, `grant_type=client_credentials&resource=${encodeURIComponent(SITE_URL + '/mcp')}&resource=${encodeURIComponent(SITE_URL + '/wp-json/agentes/v1')}`);
    assert.is(both.status, 200, 'several resource parameters (RFC 8707 §2)');
    for (const resource of ['https://evil.example/mcp', `${SITE_URL}/wp-json/agentes/v2`, 'not a uri']) {
      const res = await token(s, c, { grant_type: 'client_credentials', resource });
      await expectOAuthError(res, 400, 'invalid_target', `Unknown resource. Tokens are issued for ${SITE_URL}/wp-json/agentes/v1 or ${SITE_URL}/mcp.`);
    }
  }));

  test('§2 token: other methods → 405 JSON with Allow: POST, OPTIONS', () => withServer(async (s) => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await fetch(`${s.origin}/oauth/token`, { method });
      assert.is(res.headers.get('allow'), 'POST, OPTIONS');
      await expectOAuthError(res, 405, 'invalid_request', 'Method not allowed; use POST.');
    }
  }));

  test('§2 token limit: the 31st token request in a minute from one IP → 429 rate_limited with Retry-After', () => withServer(async (s) => {
    const c = await register(s.origin);
    for (let i = 0; i < 30; i++) assert.is((await token(s, c, { grant_type: 'client_credentials' })).status, 200, `request ${i + 1}`);
    const res = await token(s, c, { grant_type: 'client_credentials' });
    const retryAfter = Number(res.headers.get('retry-after'));
    await expectOAuthError(res, 429, 'rate_limited');
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
  }));

  test('§2 token after expiry (3600 s, clock injected) is invalid everywhere', () => withServer(async (s) => {
    const c = await register(s.origin);
    const t = await getToken(s.origin, c);
    s.clock.advance(3599);
    assert.is((await identity(s.origin, t)).status, 200);
    assert.is(((await introspect(s.origin, c, t)) as { active: boolean }).active, true);
    s.clock.advance(1);
    assert.is((await identity(s.origin, t)).status, 401);
    assert.equal(await introspect(s.origin, c, t), { active: false });
  }));

  // ---- §3 Bearer use (/agent/identity) -------------------------------------------------------

  test('§3 /agent/identity without a token → 401 Bearer resource_metadata', () => withServer(async (s) => {
    const res = await identity(s.origin);
    assert.is(res.status, 401);
    assert.is(res.headers.get('www-authenticate'), `Bearer resource_metadata="${RESOURCE_METADATA}"`);
    const body = await res.json() as { code: string; data: { status: number } };
    assert.is(body.code, 'rest_not_logged_in');
    assert.is(body.data.status, 401);
  }));

  test('§3 /agent/identity with a bad token → 401 invalid_token, never anonymous', () => withServer(async (s) => {
    for (const header of ['Bearer not-a-token', 'Bearer ' + 'A'.repeat(43), 'Basic abc', 'Bearer a b']) {
      const res = await fetch(`${s.origin}/agent/identity`, { headers: { authorization: header } });
      assert.is(res.status, 401, header);
      const challenge = res.headers.get('www-authenticate') ?? '';
      assert.match(challenge, /^Bearer error="invalid_token", /);
      assert.ok(challenge.endsWith(`resource_metadata="${RESOURCE_METADATA}"`), challenge);
      assert.is((await res.json() as { code: string }).code, 'agentes_invalid_token');
    }
  }));

  test('§3 /agent/identity: client_id, scope, expiry and the quota, each call counted on the client\'s window', () => withServer(async (s) => {
    const c = await register(s.origin, { client_name: 'Agente Ñ' });
    const t = await getToken(s.origin, c, { scope: 'content:read' });
    const key = identifiedSubject(c.client_id).key;
    await s.store.hit(key, 60);
    await s.store.hit(key, 60);
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${s.origin}/agent/identity`, { headers: { authorization: `bearer ${t}` } });
      assert.is(res.status, 200);
      assert.is(res.headers.get('cache-control'), 'no-store');
      const body = await res.json() as { quota: { reset_seconds: number } };
      assert.ok(body.quota.reset_seconds >= 1 && body.quota.reset_seconds <= 60);
      assert.equal(body, {
        client_id: c.client_id,
        client_name: 'Agente Ñ',
        scope: 'content:read',
        token_expires_at: Math.floor(s.clock() / 1000) + 3600,
        quota: {
          client_id: c.client_id, scope: 'content:read', policy: 'identificado', limit: 600, window_seconds: 60,
          used: 3 + i, remaining: 597 - i, reset_seconds: body.quota.reset_seconds,
        },
      });
      assert.is(res.headers.get('ratelimit-remaining'), String(597 - i));
    }
    assert.is((await s.store.peek(key, 60)).count, 4, 'each identity call counted a hit');
  }));

  test('§3 /agent/identity: other methods → 405 with Allow', () => withServer(async (s) => {
    const res = await fetch(`${s.origin}/agent/identity`, { method: 'POST' });
    assert.is(res.status, 405);
    assert.is(res.headers.get('allow'), 'GET, HEAD, OPTIONS');
  }));

  // ---- §4 Revocation and introspection -----------------------------------------------------

  test('§4 introspection of an own active token → exact RFC 7662 body', () => withServer(async (s) => {
    const c = await register(s.origin);
    const t = await getToken(s.origin, c, { scope: 'quota:read' });
    const res = await postForm(s.origin, '/oauth/introspect', { token: t, token_type_hint: 'access_token' }, { id: c.client_id, secret: c.client_secret });
    assert.is(res.status, 200);
    assert.is(res.headers.get('cache-control'), 'no-store');
    const now = Math.floor(s.clock() / 1000);
    assert.equal(await res.json(), {
      active: true, scope: 'quota:read', client_id: c.client_id, token_type: 'Bearer',
      exp: now + 3600, iat: now, iss: SITE_URL, aud: `${SITE_URL}/wp-json/agentes/v1`,
    });
  }));

  test('§4 introspection: unknown, garbage or unknown-hint tokens → exactly {"active":false}', () => withServer(async (s) => {
    const c = await register(s.origin);
    for (const form of <Record<string, string>[]>[{ token: 'A'.repeat(43) }, { token: 'x' }, { token: 'é ünïcode' }, { token: 'z'.repeat(5000) }, { token: 'A'.repeat(43), token_type_hint: 'refresh_token' }, { token: 'A', token_type_hint: 'bogus' }]) {
      const res = await postForm(s.origin, '/oauth/introspect', form, { id: c.client_id, secret: c.client_secret });
      assert.is(res.status, 200);
      assert.is(await res.text(), '{"active":false}');
    }
  }));

  test("§4 another client's token: introspection says inactive, revocation is a no-op and the token stays valid", () => withServer(async (s) => {
    const owner = await register(s.origin);
    const other = await register(s.origin);
    const t = await getToken(s.origin, owner);
    const seen = await postForm(s.origin, '/oauth/introspect', { token: t }, { id: other.client_id, secret: other.client_secret });
    assert.is(await seen.text(), '{"active":false}');
    const revoked = await postForm(s.origin, '/oauth/revoke', { token: t }, { id: other.client_id, secret: other.client_secret });
    assert.is(revoked.status, 200);
    assert.is(await revoked.text(), '');
    assert.is((await identity(s.origin, t)).status, 200, 'still valid');
    assert.is(((await introspect(s.origin, owner, t)) as { active: boolean }).active, true);
  }));

  test('§4 revocation: 200 empty, then the token is dead (identity 401, introspection inactive)', () => withServer(async (s) => {
    const c = await register(s.origin);
    const t = await getToken(s.origin, c);
    const res = await postForm(s.origin, '/oauth/revoke', { token: t, token_type_hint: 'access_token' }, { id: c.client_id, secret: c.client_secret });
    assert.is(res.status, 200);
    assert.is(await res.text(), '');
    assert.is(res.headers.get('cache-control'), 'no-store');
    assert.is((await identity(s.origin, t)).status, 401);
    assert.equal(await introspect(s.origin, c, t), { active: false });
    assert.is(await s.store.get(tokenKey(t)), null, 'revocation deletes the key');
  }));

  test('§4 revocation: unknown, expired, already revoked or garbage tokens → 200 empty', () => withServer(async (s) => {
    const c = await register(s.origin);
    const t = await getToken(s.origin, c);
    const expired = await getToken(s.origin, c);
    s.clock.advance(3600);
    const fresh = await getToken(s.origin, c);
    for (const token of ['A'.repeat(43), 'garbage with spaces', expired, t, fresh, fresh]) {
      const res = await postForm(s.origin, '/oauth/revoke', { token, token_type_hint: 'whatever' }, { id: c.client_id, secret: c.client_secret });
      assert.is(res.status, 200);
      assert.is(await res.text(), '');
    }
  }));

  test('§4 revocation and introspection: token missing → 400 invalid_request; bad client → 401 invalid_client', () => withServer(async (s) => {
    const c = await register(s.origin);
    for (const path of ['/oauth/revoke', '/oauth/introspect']) {
      await expectOAuthError(await postForm(s.origin, path, {}, { id: c.client_id, secret: c.client_secret }), 400, 'invalid_request', 'Missing required parameter: token.');
      const bad = await postForm(s.origin, path, { token: 'x' }, { id: c.client_id, secret: 'wrong' });
      assert.is(bad.headers.get('www-authenticate'), 'Basic realm="agentes"');
      await expectOAuthError(bad, 401, 'invalid_client');
      await expectOAuthError(await postForm(s.origin, path, { token: 'x' }), 401, 'invalid_client');
      await expectOAuthError(await postForm(s.origin, path, { token: 'x', client_id: c.client_id }), 401, 'invalid_client');
      assert.is((await postForm(s.origin, path, { token: 'x', client_id: c.client_id, client_secret: c.client_secret })).status, 200, 'client_secret_post');
      await expectOAuthError(await postForm(s.origin, path, 'token=a&token=b', { id: c.client_id, secret: c.client_secret }), 400, 'invalid_request', 'Parameter token must not be repeated.');
      await expectOAuthError(await fetch(`${s.origin}${path}?token=x`, { method: 'POST', headers: { authorization: basic(c.client_id, c.client_secret), 'content-type': 'application/x-www-form-urlencoded' }, body: '' }), 400, 'invalid_request');
      const get = await fetch(`${s.origin}${path}`);
      assert.is(get.headers.get('allow'), 'POST, OPTIONS');
      await expectOAuthError(get, 405, 'invalid_request');
    }
  }));

  // ---- Browsers ------------------------------------------------------------------------------

  test('CORS: OPTIONS on every /oauth endpoint is a preflight; every answer, error or not, is readable cross-origin', () => withServer(async (s) => {
    const endpoints = { '/oauth/register': 'POST, OPTIONS', '/oauth/token': 'POST, OPTIONS', '/oauth/revoke': 'POST, OPTIONS', '/oauth/introspect': 'POST, OPTIONS', '/oauth/authorize': 'GET, POST, OPTIONS' };
    for (const [path, methods] of Object.entries(endpoints)) {
      const pre = await fetch(`${s.origin}${path}`, {
        method: 'OPTIONS',
        headers: { origin: 'https://agente.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
      });
      assert.is(pre.status, 204, path);
      assert.is(await pre.text(), '');
      assert.is(pre.headers.get('access-control-allow-origin'), '*', path);
      assert.is(pre.headers.get('access-control-allow-credentials'), null, 'never credentials mode');
      assert.is(pre.headers.get('access-control-allow-methods'), methods, path);
      assert.is(pre.headers.get('allow'), methods, path);
      const allowed = (pre.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/,\s*/);
      assert.ok(allowed.includes('authorization') && allowed.includes('content-type'), `${path}: ${allowed}`);
      assert.ok(Number(pre.headers.get('access-control-max-age')) >= 600, path);
    }
    const origin = { origin: 'https://agente.example' };
    const created = await fetch(`${s.origin}/oauth/register`, { method: 'POST', headers: { ...origin, 'content-type': 'application/json' }, body: '{}' });
    assert.is(created.status, 201);
    const c = await created.json() as Registered;
    const answers = [
      created,
      await postForm(s.origin, '/oauth/token', { grant_type: 'client_credentials' }, { id: c.client_id, secret: c.client_secret }, origin),
      await postForm(s.origin, '/oauth/token', { grant_type: 'client_credentials' }, { id: c.client_id, secret: 'wrong' }, origin),
      await postForm(s.origin, '/oauth/revoke', { token: 'x' }, { id: c.client_id, secret: c.client_secret }, origin),
      await postForm(s.origin, '/oauth/introspect', { token: 'x' }, { id: c.client_id, secret: c.client_secret }, origin),
      await fetch(`${s.origin}/oauth/authorize`, { headers: origin }),
      await fetch(`${s.origin}/oauth/token`, { method: 'PUT', headers: origin }),
    ];
    assert.equal(answers.map((r) => r.status), [201, 200, 401, 200, 200, 400, 405]);
    for (const res of answers) {
      assert.is(res.headers.get('access-control-allow-origin'), '*', `${res.status}`);
      assert.match(String(res.headers.get('access-control-expose-headers')), /Retry-After/, `${res.status}`);
    }
  }));

  // ---- Interop traps ---------------------------------------------------------------------

  test('interop trap: /oauth/authorize always refuses in JSON and never redirects', () => withServer(async (s) => {
    const get = await fetch(`${s.origin}/oauth/authorize?response_type=code&client_id=x&redirect_uri=${encodeURIComponent('https://evil.example/cb')}&state=s`, { redirect: 'manual' });
    assert.is(get.headers.get('location'), null);
    await expectOAuthError(get, 400, 'unsupported_response_type');
    const post = await fetch(`${s.origin}/oauth/authorize`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'response_type=code' });
    await expectOAuthError(post, 400, 'unsupported_response_type');
    const del = await fetch(`${s.origin}/oauth/authorize`, { method: 'DELETE' });
    assert.is(del.headers.get('allow'), 'GET, POST, OPTIONS');
    await expectOAuthError(del, 405, 'invalid_request');
  }));

  test('interop trap: ids and secrets use only [A-Za-z0-9_-], so raw and form-encoded Basic agree', () => withServer(async (s) => {
    for (let i = 0; i < 5; i++) {
      const c = await register(s.origin);
      assert.match(c.client_id, ISSUED);
      assert.match(c.client_secret, ISSUED);
      assert.is(encodeURIComponent(c.client_id), c.client_id);
    }
  }));

  test('idle clients: recycled 180 days after their last token request, renewed by each one', () => withServer(async (s) => {
    const c = await register(s.origin);
    const day = 24 * 3600;
    s.clock.advance(179 * day);
    await getToken(s.origin, c);
    s.clock.advance(179 * day);
    await getToken(s.origin, c);
    // Redis TTLs run on real time: redis.test.ts checks the TTL Redis holds instead.
    if (!options.clockDrivesTtl) return;
    s.clock.advance(180 * day + 1);
    await expectOAuthError(await token(s, c, { grant_type: 'client_credentials' }), 401, 'invalid_client');
  }));

  test.run();
}
