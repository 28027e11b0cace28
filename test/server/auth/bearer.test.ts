import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { request, type RawResponse } from '../../helpers/http.ts';
import { sharedReadModel } from '../../helpers/read-model.ts';
import { assertError, assertRateLimitHeaders } from '../../helpers/assertions.ts';

let now = Date.now();
const test = suite<{ api: TestServer }>('bearer tokens on the content operations');
test.before(async (ctx) => {
  ctx.api = await startTestServer({ fixture: await sharedReadModel(), clock: () => now });
});
test.after(async (ctx) => { await ctx.api.close(); });

const OPS = ['search_pages?query=fontaner%C3%ADa', 'read_page?url=fontaneria', 'get_company_info', 'quota'];
const get = (api: TestServer, op: string, authorization?: string) =>
  request(`${api.base}/${op}`, { headers: authorization === undefined ? {} : { Authorization: authorization } });

function assertInvalidToken(api: TestServer, res: RawResponse) {
  assertError(res, 401, 'agentes_invalid_token');
  const challenge = String(res.headers['www-authenticate']);
  assert.match(challenge, /^Bearer /);
  assert.match(challenge, 'error="invalid_token"');
  assert.match(challenge, /error_description="[^"\\]+"/);
  assert.match(challenge, `resource_metadata="${api.config.siteUrl}/.well-known/oauth-protected-resource/wp-json/agentes/v1"`);
}

test('without a token: the anonymous policy and a public cache', async ({ api }) => {
  const res = await get(api, 'read_page?url=fontaneria');
  assert.is(res.status, 200);
  assertRateLimitHeaders(res, { policy: 'anonimo', limit: 60 });
  assert.is(res.headers['cache-control'], 'public, max-age=60');
  assert.is(res.headers.vary, 'Authorization, Accept-Encoding');
});

test('a valid token with content:read switches to the client quota (shared by its tokens); scheme case-insensitive', async ({ api }) => {
  const a = await api.tokens.issue('client-a', ['content:read']);
  const b = await api.tokens.issue('client-a', ['content:read', 'quota:read']);
  const first = await get(api, 'read_page?url=fontaneria', `Bearer ${a.access_token}`);
  assert.is(first.status, 200);
  assertRateLimitHeaders(first, { policy: 'identificado', limit: 600, remaining: 599 });
  assert.is(first.headers['cache-control'], 'private, max-age=60');
  const second = await get(api, 'search_pages?query=cerrajería', `bearer ${b.access_token}`);
  assertRateLimitHeaders(second, { policy: 'identificado', limit: 600, remaining: 598 });
  const third = await get(api, 'get_company_info', `BEARER  ${a.access_token} `);
  assertRateLimitHeaders(third, { policy: 'identificado', limit: 600, remaining: 597 });
  assert.equal(first.json(), (await get(api, 'read_page?url=fontaneria')).json(), 'the same data as without a token');
});

test('an unknown, revoked or expired token is 401 on every operation, never anonymous', async ({ api }) => {
  const revoked = await api.tokens.issue('client-r', ['content:read', 'quota:read']);
  await api.tokens.revoke(revoked.access_token, 'client-r');
  const expiring = await api.tokens.issue('client-e', ['content:read', 'quota:read']);
  for (const op of OPS) {
    for (const token of ['not-a-real-token', revoked.access_token]) {
      const res = await get(api, op, `Bearer ${token}`);
      assertInvalidToken(api, res);
      assertRateLimitHeaders(res, { policy: 'anonimo', limit: 60 });
    }
  }
  assert.is((await get(api, 'read_page?url=fontaneria', `Bearer ${expiring.access_token}`)).status, 200);
  now += 3601_000;
  assertInvalidToken(api, await get(api, 'read_page?url=fontaneria', `Bearer ${expiring.access_token}`));
});

test('other schemes and malformed credentials are 401 invalid_token too', async ({ api }) => {
  for (const header of ['Basic Y2xpZW50OnNlY3JldA==', 'Bearer', 'Bearer ', 'Bearer a b', 'Bearer "quoted"', 'Token abc', 'Bearerabc', 'Bearer ' + 'a'.repeat(600)]) {
    const res = await get(api, 'get_company_info', header);
    assertInvalidToken(api, res);
    assertRateLimitHeaders(res, { policy: 'anonimo', limit: 60 });
  }
});

test('401s count against the anonymous window of their IP', async ({ api }) => {
  now += 61_000; // a fresh window
  assertRateLimitHeaders(await get(api, 'get_company_info'), { policy: 'anonimo', limit: 60, remaining: 59 });
  assertRateLimitHeaders(await get(api, 'get_company_info', 'Bearer nope'), { policy: 'anonimo', limit: 60, remaining: 58 });
  assertRateLimitHeaders(await get(api, 'get_company_info'), { policy: 'anonimo', limit: 60, remaining: 57 });
});

test('a valid token without content:read reads content on the anonymous quota', async ({ api }) => {
  const quotaOnly = await api.tokens.issue('client-q', ['quota:read']);
  const res = await get(api, 'read_page?url=fontaneria', `Bearer ${quotaOnly.access_token}`);
  assert.is(res.status, 200);
  assertRateLimitHeaders(res, { policy: 'anonimo', limit: 60 });
  assert.is(res.headers['cache-control'], 'private, max-age=60', 'a token was sent: not for shared caches');
});

test('no access_token query parameter: it is ignored, not used', async ({ api }) => {
  const t = await api.tokens.issue('client-u', ['content:read']);
  const res = await get(api, `read_page?url=fontaneria&access_token=${t.access_token}`);
  assertRateLimitHeaders(res, { policy: 'anonimo', limit: 60 });
});

test.run();
