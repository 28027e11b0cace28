import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { QuotaSchema } from '../../../formats/schemas/resources.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { request } from '../../helpers/http.ts';
import { sharedReadModel } from '../../helpers/read-model.ts';
import { assertError, assertRateLimitHeaders } from '../../helpers/assertions.ts';

const test = suite<{ api: TestServer }>('quota');
test.before(async (ctx) => { ctx.api = await startTestServer({ fixture: await sharedReadModel() }); });
test.after(async (ctx) => { await ctx.api.close(); });

const quota = (api: TestServer, authorization?: string) =>
  request(`${api.base}/quota`, { headers: authorization ? { Authorization: authorization } : {} });
const metadata = (api: TestServer) => `resource_metadata="${api.config.siteUrl}/.well-known/oauth-protected-resource/wp-json/agentes/v1"`;

test('no token → 401 rest_not_logged_in with a Bearer challenge carrying resource_metadata', async ({ api }) => {
  const res = await quota(api);
  assertError(res, 401, 'rest_not_logged_in');
  assert.is(res.headers['www-authenticate'], `Bearer ${metadata(api)}`);
  assertRateLimitHeaders(res, { policy: 'anonimo', limit: 60, remaining: 59 });
});

test('a bad token → 401 invalid_token', async ({ api }) => {
  const res = await quota(api, 'Bearer garbage');
  assertError(res, 401, 'agentes_invalid_token');
  assert.match(String(res.headers['www-authenticate']), /^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="/);
});

test('a token without quota:read → 403 insufficient_scope', async ({ api }) => {
  const t = await api.tokens.issue('client-c', ['content:read']);
  const res = await quota(api, `Bearer ${t.access_token}`);
  assertError(res, 403, 'agentes_insufficient_scope');
  assert.is(res.headers['www-authenticate'], `Bearer error="insufficient_scope", scope="quota:read", ${metadata(api)}`);
  assertRateLimitHeaders(res, { policy: 'identificado', limit: 600 });
});

test('200: the Quota resource, counting this call, matching the headers', async ({ api }) => {
  const t = await api.tokens.issue('client-ok', ['content:read', 'quota:read']);
  const auth = `Bearer ${t.access_token}`;
  await request(`${api.base}/read_page?url=fontaneria`, { headers: { Authorization: auth } });
  await request(`${api.base}/get_company_info`, { headers: { Authorization: auth } });
  const res = await quota(api, auth);
  assert.is(res.status, 200);
  const body = QuotaSchema.strict().parse(res.json());
  assert.equal({ ...body, reset_seconds: 0 }, {
    client_id: 'client-ok',
    scope: 'content:read quota:read',
    policy: 'identificado',
    limit: 600,
    window_seconds: 60,
    used: 3,
    remaining: 597,
    reset_seconds: 0,
  });
  const { r, t: reset } = assertRateLimitHeaders(res, { policy: 'identificado', limit: 600, remaining: 597 });
  assert.is(body.remaining, r);
  assert.is(body.reset_seconds, reset);
  assert.is(res.headers['cache-control'], 'no-store');
  assert.is(QuotaSchema.parse((await quota(api, auth)).json()).used, 4, 'it counts itself');
});

test.run();
