/**
 * Generators of hostile requests for the property tests: every API operation's parameters, the
 * headers that change behaviour (Authorization, Accept, Accept-Encoding, If-None-Match,
 * X-Forwarded-For, huge and repeated ones), methods, and the bodies of the OAuth and MCP
 * endpoints (wrong content types, invalid UTF-8, deep JSON, bodies up to 1 MB), plus byte-level
 * malformed requests that only a raw socket can send.
 */
import fc from 'fast-check';

export const API = '/wp-json/agentes/v1';
export const OPERATIONS = ['search_pages', 'read_page', 'get_company_info', 'quota'] as const;

/** A request as the tests send it. `raw` requests go byte for byte over a fresh socket. */
export interface HostileRequest {
  method: string;
  /** Path and query, exactly as sent. */
  target: string;
  headers: Array<[string, string]>;
  body?: Buffer;
  /** Bytes for a raw socket instead of a structured request (malformed on purpose). */
  raw?: Buffer;
}

export interface Tokens {
  /** content:read quota:read */
  full: string;
  /** quota:read only */
  quotaOnly: string;
  revoked: string;
  clientId: string;
  clientSecret: string;
}

// ——— text ————————————————————————————————————————————————————————————————————————————————

const NASTY = [
  '', ' ', '  ', '%', '%%', '%zz', '%00', '%C3%28', '%FF', '%E2%82', '%C0%AF', '%2e%2e%2f', '\u0000', '\t', '\r\n',
  '../../etc/passwd', '..%2f..%2fetc', '<script>alert(1)</script>', "' OR 1=1 --", '${jndi:ldap://x/a}', '{{7*7}}',
  'ñandú', 'fontanería', 'FONTANERÍA', 'fonta\u0301neria', '🐛🐛', '\uD800', '\uDFFF', '\uFEFF', '\u202E', 'a'.repeat(200),
  'a'.repeat(201), 'a'.repeat(300), 'a'.repeat(301), 'x'.repeat(5000), 'null', 'undefined', '[]', '{}', '-1', '0',
  '1e1', '1e309', 'NaN', 'Infinity', '0x10', ' 5', '5 ', '+5', '05', '٣', '２', 'true', '__proto__', 'constructor',
  'prototype', 'todas', 'madrid', 'MADRID', 'a-coruna', 'fontaneria', 'inicio', '/', '//', '/servicios/fontaneria/',
  '/servicios/fontaneria', 'servicios/fontaneria/', '/servicios/fontaneria/index.html', '/servicios/fontaneria/?x=1#y',
  'http://agentes.test/servicios/fontaneria/', 'HTTP://AGENTES.TEST/servicios/fontaneria/', 'https://agentes.test/',
  'http://evil.example/servicios/fontaneria/', 'javascript:alert(1)', '//evil.example/', '\\\\evil', 'file:///etc/passwd',
  'data:text/html,<b>x</b>', 'fontanero madrid', 'de', 'a', 'ab', 'la el de', 'cerrajero vigo urgente barato',
];
export const nasty = fc.constantFrom(...NASTY);

export const text = fc.oneof(
  { weight: 4, arbitrary: nasty },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 320 }) },
);

/** encodeURIComponent, except that lone surrogates (which it refuses) go out as their WTF-8 bytes. */
export function percentEncode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...value].map((c) => {
      const code = c.charCodeAt(0);
      if (c.length === 1 && code >= 0xd800 && code <= 0xdfff) {
        return `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
      }
      return encodeURIComponent(c);
    }).join('');
  }
}

/** A query-string value: encoded properly, or dropped in raw (half-encoded, bad escapes). */
const encoded = (value: string, rawly: boolean) => (rawly ? value.replace(/[#&\s]/g, (c) => encodeURIComponent(c)) : percentEncode(value));

// ——— API operations ——————————————————————————————————————————————————————————————————————

const CITY = ['todas', 'madrid', 'vigo', 'a-coruna', 'las-palmas', 'paris', 'Madrid', ''];
const paramsOf: Record<(typeof OPERATIONS)[number], fc.Arbitrary<Array<[string, string]>>> = {
  search_pages: fc.tuple(
    fc.option(text, { nil: undefined }),
    fc.option(fc.oneof(fc.constantFrom(...CITY), text), { nil: undefined }),
    fc.option(fc.oneof(fc.integer({ min: -5, max: 30 }).map(String), text), { nil: undefined }),
    fc.option(fc.oneof(fc.base64String({ maxLength: 16 }), text), { nil: undefined }),
  ).map(([query, city, limit, cursor]) => {
    const out: Array<[string, string]> = [];
    if (query !== undefined) out.push(['query', query]);
    if (city !== undefined) out.push(['city', city]);
    if (limit !== undefined) out.push(['limit', limit]);
    if (cursor !== undefined) out.push(['cursor', cursor]);
    return out;
  }),
  read_page: fc.option(text, { nil: undefined }).map((url) => (url === undefined ? [] : [['url', url] as [string, string]])),
  get_company_info: fc.option(fc.oneof(fc.constantFrom('all', 'contact', 'service_model', 'coverage', 'services', 'ALL', 'pages'), text), { nil: undefined })
    .map((s) => (s === undefined ? [] : [['section', s] as [string, string]])),
  quota: fc.constant([]),
};

/** Extra parameters: unknown ones, repeated known ones, empty names. */
const extraParams = fc.array(fc.tuple(fc.constantFrom('query', 'url', 'section', 'city', 'limit', 'cursor', 'x', '', 'access_token', '__proto__', '%zz'), text), { maxLength: 3 });

const apiTarget = fc.tuple(
  fc.constantFrom(...OPERATIONS),
  fc.boolean(),
  extraParams,
  fc.boolean(),
  fc.constantFrom('', '/', '//', '/x', '.json', '%2F'),
  fc.nat(20),
).chain(([op, trailing, extra, rawly, suffix, odd]) => paramsOf[op].map((params) => {
  const all = [...params, ...extra];
  const query = all.length ? '?' + all.map(([k, v]) => `${encoded(k, rawly)}=${encoded(v, rawly)}`).join('&') : '';
  // Mostly the real operation path; now and then a near miss.
  const path = odd === 0 ? `${API}/${op}${suffix}` : odd === 1 ? `${API}${suffix}` : `${API}/${op}${trailing ? '/' : ''}`;
  return path + query;
}));

// ——— headers —————————————————————————————————————————————————————————————————————————————

export function authorization(tokens: Tokens): fc.Arbitrary<string | string[] | undefined> {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 3, arbitrary: fc.constantFrom(
      `Bearer ${tokens.full}`, `bearer ${tokens.full}`, `BEARER   ${tokens.full}  `, `Bearer ${tokens.quotaOnly}`, `Bearer ${tokens.revoked}`,
      '', 'Bearer', 'Bearer ', 'Bearer  ', `Bearer ${tokens.full}x`, `Bearer ${tokens.full}=`, `Bearer ${'a'.repeat(600)}`, `Bearer ${tokens.full.slice(1)}`,
      `Basic ${b64(`${tokens.clientId}:${tokens.clientSecret}`)}`, 'Basic', 'Basic !!!', `Basic ${b64('no-colon')}`, `Basic ${b64(':')}`,
      `Basic ${Buffer.from([0xff, 0x3a, 0xfe]).toString('base64')}`, 'Digest username="x"', 'Negotiate abc', `Bearer ${tokens.full}, Bearer ${tokens.full}`,
      `Bearer ${tokens.full} extra`, 'Bearer ñandú', 'Bearer a\u00ffb', `Token ${tokens.full}`, 'null', 'undefined',
    ) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 80 }).map((s) => `Bearer ${s}`) },
    { weight: 1, arbitrary: text },
    { weight: 1, arbitrary: fc.constant([`Bearer ${tokens.full}`, `Bearer ${tokens.revoked}`] as string[]) },
  );
}

const accept = fc.constantFrom(undefined, '*/*', 'application/json', 'text/html', 'text/html,application/xhtml+xml,*/*;q=0.8', 'text/markdown',
  'application/json;q=0', '*/*;q=0', 'text/event-stream', 'application/json, text/event-stream', 'image/png', ';;;', 'x'.repeat(3000), 'ñ/ñ');
const acceptEncoding = fc.constantFrom(undefined, 'gzip', 'br', 'deflate', 'identity', '*', 'gzip, br', 'br;q=0, gzip;q=0', 'identity;q=0', '*;q=0', 'gzip;q=nope', 'x'.repeat(2000));
const ifNoneMatch = fc.constantFrom(undefined, '*', '"abc"', 'W/"abc"', '"', '"a", W/"b", *', 'x'.repeat(4000), ',,,,');

/** Client address through the trusted proxy: unique per request mostly (so per-IP limits do not hide other errors), garbage now and then. */
export function forwardedFor(counter: () => number): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant(null).map(() => { const n = counter(); return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`; }) },
    { weight: 1, arbitrary: fc.oneof(fc.ipV6(), fc.ipV4Extended(), fc.constantFrom('unknown', '1.2.3.4, garbage', ', ,', '[::1]:80', '999.1.1.1', '2001:db8::1%eth0', 'x'.repeat(1000))) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

/** Headers beyond the ones that change behaviour: huge, repeated, odd. */
const noise = fc.oneof(
  { weight: 6, arbitrary: fc.constant([] as Array<[string, string]>) },
  { weight: 1, arbitrary: fc.nat({ max: 8000 }).map((n) => [['X-Big', 'b'.repeat(n)]] as Array<[string, string]>) },
  { weight: 1, arbitrary: fc.integer({ min: 2, max: 300 }).map((n) => Array.from({ length: n }, (_, i) => ['X-Rep', `v${i}`] as [string, string])) },
  { weight: 1, arbitrary: fc.constantFrom<Array<[string, string]>>(
    [['Content-Length', '0']], [['Transfer-Encoding', 'chunked']], [['Expect', '100-continue']], [['Connection', 'upgrade'], ['Upgrade', 'websocket']],
    [['Origin', 'https://evil.example']], [['Range', 'bytes=0-10']], [['If-Modified-Since', 'yesterday']], [['Cookie', 'a=b'.repeat(500)]],
    [['Content-Type', 'application/json']], [['X-Forwarded-Proto', 'javascript']], [['Host', 'evil.example']],
  ) },
);

function headerList(parts: Record<string, string | string[] | undefined>, extra: Array<[string, string]>): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(parts)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) out.push([name, v]);
  }
  return [...out, ...extra];
}

// ——— requests ————————————————————————————————————————————————————————————————————————————

export function apiRequest(tokens: Tokens, counter: () => number): fc.Arbitrary<HostileRequest> {
  return fc.record({
    method: fc.constantFrom('GET', 'GET', 'GET', 'GET', 'HEAD'),
    target: apiTarget,
    auth: authorization(tokens),
    accept, acceptEncoding, ifNoneMatch,
    xff: forwardedFor(counter),
    extra: noise,
  }).map(({ method, target, auth, accept: a, acceptEncoding: ae, ifNoneMatch: inm, xff, extra }) => ({
    method,
    target,
    headers: headerList({ Authorization: auth, Accept: a, 'Accept-Encoding': ae, 'If-None-Match': inm, 'X-Forwarded-For': xff }, extra),
  }));
}

export const MACHINE_PATHS = [
  ...OPERATIONS.map((op) => `${API}/${op}`), API, `${API}/`, `${API}/nope`, '/oauth/register', '/oauth/token', '/oauth/revoke', '/oauth/introspect',
  '/oauth/authorize', '/oauth/nope', '/agent/identity', '/mcp', '/mcp/', '/wp-json/', '/wp-json/agentes/v2/read_page',
];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND', 'SEARCH', 'PURGE', 'QUERY', 'LINK', 'get', 'FOO', 'G-E-T', 'BREW'];

export function methodRequest(tokens: Tokens, counter: () => number): fc.Arbitrary<HostileRequest> {
  return fc.record({
    method: fc.constantFrom(...METHODS),
    path: fc.constantFrom(...MACHINE_PATHS),
    query: fc.option(fc.constantFrom('?url=fontaneria', '?query=fontanero', '?x=%zz', '?grant_type=client_credentials'), { nil: '' }),
    auth: authorization(tokens),
    xff: forwardedFor(counter),
    body: fc.option(fc.constantFrom('', '{}', 'grant_type=client_credentials', '\u0000'), { nil: undefined }),
    contentType: fc.constantFrom(undefined, 'application/json', 'application/x-www-form-urlencoded', 'text/plain'),
  }).map(({ method, path, query, auth, xff, body, contentType }) => ({
    method,
    target: path + query,
    headers: headerList({ Authorization: auth, 'X-Forwarded-For': xff, 'Content-Type': contentType, Accept: 'application/json, text/event-stream' }, []),
    ...(body === undefined ? {} : { body: Buffer.from(body) }),
  }));
}

// ——— bodies ——————————————————————————————————————————————————————————————————————————————

const deepJson = fc.tuple(fc.integer({ min: 1, max: 20_000 }), fc.constantFrom('array', 'object', 'unclosed')).map(([depth, kind]) =>
  kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth)
    : kind === 'object' ? '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)
      : '['.repeat(depth));

const invalidUtf8 = fc.oneof(
  fc.constantFrom(Buffer.from([0xc3, 0x28]), Buffer.from([0xff]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xf4, 0x90, 0x80, 0x80]),
    Buffer.from('{"client_name":"\xff\xfe"}', 'latin1'), Buffer.from('grant_type=client_credentials&scope=\xff', 'latin1')),
  fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
);

/** Sizes around the body limits (16 KB OAuth, 64 KB MCP) and up to 1 MB. */
const bigBody = fc.constantFrom(16 * 1024, 16 * 1024 + 1, 64 * 1024 + 1, 200_000, 1024 * 1024).map((n) => Buffer.alloc(n, 0x61));

const CONTENT_TYPES = [undefined, 'application/json', 'application/json; charset=utf-8', 'application/json; charset=UTF-8', 'application/json; charset=latin1',
  'application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=UTF-8', 'APPLICATION/X-WWW-FORM-URLENCODED', 'application/x-www-form-urlencoded; charset="iso-8859-1"',
  'text/plain', 'multipart/form-data; boundary=x', 'application/json;;;', ';', 'application/jsonx', 'text/html', '*/*', 'x'.repeat(1000)];
const contentType = fc.constantFrom(...CONTENT_TYPES);

const emails = fc.oneof(fc.emailAddress(), nasty, fc.constantFrom('a@b.c', 'no-at-sign', 'a@b', '"x"@y.z', 'x@y.z, w@v.u'));
const registration = fc.record({
  client_name: fc.oneof(text, fc.jsonValue({ maxDepth: 2 })),
  contacts: fc.oneof(fc.array(emails, { maxLength: 12 }), fc.jsonValue({ maxDepth: 2 })),
  token_endpoint_auth_method: fc.constantFrom('client_secret_basic', 'client_secret_post', 'none', 'private_key_jwt', '', 42),
  grant_types: fc.oneof(fc.constant(['client_credentials']), fc.array(fc.constantFrom('client_credentials', 'authorization_code', 'implicit', ''), { maxLength: 3 }), fc.jsonValue({ maxDepth: 1 })),
  response_types: fc.oneof(fc.constant([]), fc.constant(['code']), fc.jsonValue({ maxDepth: 1 })),
  scope: fc.oneof(fc.constantFrom('content:read', 'quota:read', 'content:read quota:read', 'admin', '', 'content:read  content:read'), text),
  redirect_uris: fc.array(fc.webUrl(), { maxLength: 2 }),
  jwks: fc.jsonValue({ maxDepth: 3 }),
}, { requiredKeys: [] });

function formBody(fields: fc.Arbitrary<Array<[string, string]>>): fc.Arbitrary<Buffer> {
  return fc.tuple(fields, fc.boolean()).map(([pairs, rawly]) => Buffer.from(pairs.map(([k, v]) => `${encoded(k, rawly)}=${encoded(v, rawly)}`).join('&')));
}

const grantType = fc.constantFrom('client_credentials', 'client_credentials', 'password', 'authorization_code', 'refresh_token', '', 'CLIENT_CREDENTIALS');

export function oauthRequest(tokens: Tokens, counter: () => number): fc.Arbitrary<HostileRequest> {
  const credentials = fc.constantFrom<Array<[string, string]>>(
    [], [['client_id', tokens.clientId], ['client_secret', tokens.clientSecret]], [['client_id', tokens.clientId]],
    [['client_id', tokens.clientId], ['client_secret', 'wrong']], [['client_id', 'x'.repeat(100)], ['client_secret', 'y']],
    [['client_id', tokens.clientId], ['client_secret', tokens.clientSecret], ['client_secret', tokens.clientSecret]],
  );
  const tokenFields = fc.tuple(
    fc.array(fc.tuple(fc.constantFrom('grant_type'), grantType), { maxLength: 2 }),
    fc.option(fc.tuple(fc.constant('scope'), fc.oneof(fc.constantFrom('content:read', 'quota:read', 'content:read quota:read', 'admin', ''), text)), { nil: undefined }),
    fc.array(fc.tuple(fc.constant('resource'), fc.oneof(fc.constantFrom('http://agentes.test/wp-json/agentes/v1', 'http://agentes.test/mcp', 'http://agentes.test/', 'http://evil.example/'), text)), { maxLength: 2 }),
    credentials,
    fc.array(fc.tuple(text, text), { maxLength: 2 }),
  ).map(([g, s, r, c, junk]) => [...g, ...(s ? [s] : []), ...r, ...c, ...junk]);
  const manageFields = fc.tuple(
    fc.oneof(fc.constantFrom<Array<[string, string]>>([], [['token', tokens.full]], [['token', tokens.revoked]], [['token', tokens.quotaOnly]], [['token', tokens.full], ['token', tokens.full]])),
    fc.option(fc.tuple(fc.constant('token_type_hint'), fc.constantFrom('access_token', 'refresh_token', 'nope')), { nil: undefined }),
    fc.oneof(fc.array(fc.tuple(fc.constant('token'), text), { maxLength: 1 }), fc.constant([] as Array<[string, string]>)),
    credentials,
  ).map(([t, hint, junk, c]) => [...t, ...(hint ? [hint] : []), ...junk, ...c]);

  const body = (endpoint: string): fc.Arbitrary<Buffer | undefined> => fc.oneof(
    { weight: 6, arbitrary: endpoint === '/oauth/register'
      ? fc.oneof(registration.map((r) => Buffer.from(JSON.stringify(r))), fc.jsonValue({ maxDepth: 3 }).map((v) => Buffer.from(JSON.stringify(v) ?? '')))
      : formBody(endpoint === '/oauth/token' ? tokenFields : manageFields) },
    { weight: 1, arbitrary: deepJson.map((s) => Buffer.from(s)) },
    { weight: 1, arbitrary: invalidUtf8 },
    { weight: 1, arbitrary: fc.constantFrom(undefined, Buffer.alloc(0), Buffer.from('   '), Buffer.from('null'), Buffer.from('"x"'), Buffer.from('&&&=&=')) },
    { weight: 1, arbitrary: fc.nat(99).chain((n) => (n < 3 ? bigBody : fc.constant(Buffer.from('a=b')))) },
  );

  return fc.constantFrom('/oauth/register', '/oauth/token', '/oauth/token', '/oauth/revoke', '/oauth/introspect').chain((endpoint) => fc.record({
    method: fc.constantFrom('POST', 'POST', 'POST', 'POST', 'GET', 'PUT'),
    body: body(endpoint),
    contentType: fc.oneof(
      { weight: 3, arbitrary: fc.constant(endpoint === '/oauth/register' ? 'application/json' : 'application/x-www-form-urlencoded') },
      { weight: 2, arbitrary: contentType },
    ),
    encoding: fc.constantFrom(undefined, undefined, undefined, 'gzip', 'identity', 'br'),
    auth: fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: authorization(tokens) }),
    query: fc.constantFrom('', '', '', '?client_secret=x', '?token=abc', '?x=%zz'),
    xff: forwardedFor(counter),
    extra: noise,
  }).map(({ method, body: b, contentType: ct, encoding, auth, query, xff, extra }) => ({
    method,
    target: endpoint + query,
    headers: headerList({ 'Content-Type': ct, 'Content-Encoding': encoding, Authorization: auth, 'X-Forwarded-For': xff, Accept: 'application/json' }, extra),
    ...(b === undefined ? {} : { body: b }),
  })));
}

/** GET /agent/identity and the refusing /oauth/authorize, with hostile queries and credentials. */
export function getEndpointRequest(tokens: Tokens, counter: () => number): fc.Arbitrary<HostileRequest> {
  return fc.record({
    path: fc.constantFrom('/agent/identity', '/oauth/authorize'),
    query: fc.array(fc.tuple(fc.constantFrom('response_type', 'client_id', 'redirect_uri', 'state', 'scope', 'x'), text), { maxLength: 4 }),
    auth: authorization(tokens),
    xff: forwardedFor(counter),
    method: fc.constantFrom('GET', 'HEAD', 'OPTIONS'),
  }).map(({ path, query, auth, xff, method }) => ({
    method,
    target: path + (query.length ? '?' + query.map(([k, v]) => `${k}=${percentEncode(v)}`).join('&') : ''),
    headers: headerList({ Authorization: auth, 'X-Forwarded-For': xff }, []),
  }));
}

// ——— MCP —————————————————————————————————————————————————————————————————————————————————

const jsonRpcId = fc.oneof(fc.integer(), fc.string({ maxLength: 12 }), fc.constant(null), fc.double(), fc.jsonValue({ maxDepth: 1 }));
const toolArguments = fc.oneof(
  fc.record({ query: fc.oneof(text, fc.jsonValue({ maxDepth: 1 })), city: fc.oneof(fc.constantFrom(...CITY), text), limit: fc.oneof(fc.integer({ min: -3, max: 30 }), fc.double(), text), cursor: fc.oneof(text, fc.integer()) }, { requiredKeys: [] }),
  fc.record({ url: fc.oneof(text, fc.jsonValue({ maxDepth: 1 })) }, { requiredKeys: [] }),
  fc.record({ section: fc.oneof(fc.constantFrom('all', 'contact', 'services', 'nope'), text) }, { requiredKeys: [] }),
  fc.jsonValue({ maxDepth: 3 }),
);
const TOOLS = ['search_pages', 'read_page', 'get_company_info', 'get_quota', 'nope', '', '__proto__'];
const initializeParams = fc.record({
  protocolVersion: fc.constantFrom('2025-11-25', '2025-06-18', '2024-11-05', '1999-01-01', ''),
  capabilities: fc.jsonValue({ maxDepth: 2 }),
  clientInfo: fc.oneof(fc.record({ name: text, version: text }), fc.jsonValue({ maxDepth: 1 })),
}, { requiredKeys: [] });

const jsonRpcMessage = fc.record({
  jsonrpc: fc.constantFrom('2.0', '2.0', '2.0', '1.0', 2),
  id: jsonRpcId,
  method: fc.constantFrom('tools/call', 'tools/call', 'tools/call', 'tools/list', 'initialize', 'ping', 'notifications/initialized', 'notifications/cancelled',
    'resources/list', 'prompts/get', 'completion/complete', 'logging/setLevel', 'nope', '', 'rpc.discover'),
  params: fc.oneof(
    fc.record({ name: fc.oneof(fc.constantFrom(...TOOLS), text), arguments: toolArguments, _meta: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: ['name'] }),
    initializeParams,
    fc.jsonValue({ maxDepth: 2 }),
  ),
}, { requiredKeys: ['jsonrpc', 'method'] });

export function mcpRequest(tokens: Tokens, counter: () => number): fc.Arbitrary<HostileRequest> {
  const body = fc.oneof(
    { weight: 8, arbitrary: jsonRpcMessage.map((m) => Buffer.from(JSON.stringify(m))) },
    { weight: 1, arbitrary: fc.array(jsonRpcMessage, { maxLength: 4 }).map((m) => Buffer.from(JSON.stringify(m))) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => Buffer.from(JSON.stringify(v) ?? '')) },
    { weight: 1, arbitrary: deepJson.map((s) => Buffer.from(s)) },
    { weight: 1, arbitrary: invalidUtf8 },
    { weight: 1, arbitrary: fc.constantFrom(Buffer.alloc(0), Buffer.from('{'), Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_page","arguments":{"url":"\\ud800"}}}')) },
    { weight: 1, arbitrary: fc.nat(49).chain((n) => (n === 0 ? bigBody : fc.constant(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}')))) },
  );
  return fc.record({
    method: fc.constantFrom('POST', 'POST', 'POST', 'POST', 'POST', 'GET', 'DELETE', 'OPTIONS'),
    body,
    contentType: fc.oneof({ weight: 4, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: contentType }),
    accept: fc.oneof({ weight: 4, arbitrary: fc.constant('application/json, text/event-stream') }, { weight: 1, arbitrary: accept }),
    version: fc.constantFrom(undefined, undefined, '2025-11-25', '2025-06-18', '2024-11-05', 'nope', 'x'.repeat(500)),
    session: fc.constantFrom(undefined, undefined, undefined, 'abc', ''),
    auth: authorization(tokens),
    xff: forwardedFor(counter),
    extra: noise,
  }).map(({ method, body: b, contentType: ct, accept: a, version, session, auth, xff, extra }) => ({
    method,
    target: '/mcp',
    headers: headerList({ 'Content-Type': ct, Accept: a, 'MCP-Protocol-Version': version, 'Mcp-Session-Id': session, Authorization: auth, 'X-Forwarded-For': xff }, extra),
    body: b,
  }));
}

// ——— byte-level malformed requests ——————————————————————————————————————————————————————————

export const malformedRequest: fc.Arbitrary<HostileRequest> = fc.record({
  path: fc.constantFrom(...MACHINE_PATHS.map((p) => `${p}?url=fontaneria`)),
  kind: fc.constantFrom('ctl-in-header', 'utf8-in-path', 'space-in-path', 'bad-version', 'huge-headers', 'many-headers', 'bad-length', 'dup-length',
    'bad-chunk', 'no-host', 'http10', 'bad-method', 'lf-only', 'obs-fold', 'header-no-colon', 'null-byte', 'smuggle', 'bad-header-name', 'connect'),
  junk: fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }),
  bytes: fc.uint8Array({ minLength: 1, maxLength: 20 }),
}).map(({ path, kind, junk, bytes }) => {
  const binary = Buffer.from(bytes).toString('latin1');
  const lines: Record<string, string> = {
    'ctl-in-header': `GET ${path} HTTP/1.1\r\nHost: x\r\nX-Ctl: a\u0001${binary}\r\n\r\n`,
    'utf8-in-path': `GET ${path}${Buffer.from(junk).toString('latin1')} HTTP/1.1\r\nHost: x\r\n\r\n`,
    'space-in-path': `GET ${path} ${junk} HTTP/1.1\r\nHost: x\r\n\r\n`,
    'bad-version': `GET ${path} HTTP/9.${bytes[0]}\r\nHost: x\r\n\r\n`,
    'huge-headers': `GET ${path} HTTP/1.1\r\nHost: x\r\nX-Huge: ${'h'.repeat(17_000 + (bytes[0] ?? 0) * 100)}\r\n\r\n`,
    'many-headers': `GET ${path} HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 2500 }, (_, i) => `X-${i}: y\r\n`).join('')}\r\n`,
    'bad-length': `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: -${bytes[0]}\r\n\r\n`,
    'dup-length': `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab`,
    'bad-chunk': `POST ${path} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n${binary}\r\n0\r\n\r\n`,
    'no-host': `GET ${path} HTTP/1.1\r\n\r\n`,
    'http10': `GET ${path} HTTP/1.0\r\n\r\n`,
    'bad-method': `${junk.replace(/[\r\n ]/g, '')}x ${path} HTTP/1.1\r\nHost: x\r\n\r\n`,
    'lf-only': `GET ${path} HTTP/1.1\nHost: x\n\n`,
    'obs-fold': `GET ${path} HTTP/1.1\r\nHost: x\r\nX-Fold: a\r\n  b\r\n\r\n`,
    'header-no-colon': `GET ${path} HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n`,
    'null-byte': `GET ${path}\u0000 HTTP/1.1\r\nHost: x\r\n\r\n`,
    'smuggle': `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /admin HTTP/1.1\r\n\r\n`,
    'bad-header-name': `GET ${path} HTTP/1.1\r\nHost: x\r\nBad Name: y\r\n\r\n`,
    'connect': `CONNECT 127.0.0.1:6379 HTTP/1.1\r\nHost: 127.0.0.1:6379\r\n\r\n`,
  };
  return { method: 'RAW', target: path, headers: [], raw: Buffer.from(lines[kind]!, 'latin1') };
});
