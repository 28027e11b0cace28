/**
 * The client-credentials flow as the MCP SDK client runs it (conformance.md, "Interop traps"):
 * pre-registered credentials in a `ClientCredentialsProvider`, a stale token → 401 → the
 * protected-resource metadata of /mcp → the authorization-server metadata → a token request with
 * `resource` and Basic authentication → the retried call on the raised quota, with each client
 * generation and its own provider. SITE_URL is the listening loopback origin: SDK 2.x sends
 * credentials over plain HTTP only to loopback (RFC 6749 §3.2 asks for TLS).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { freePort } from '../../../scripts/lib/port.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { sharedReadModel } from '../../helpers/read-model.ts';
import { assertStructured, assertToolError, connectClient, GENERATIONS, type Generation } from './harness.ts';

const fixture = await sharedReadModel();

async function withApi(fn: (api: TestServer) => Promise<void>) {
  const api = await startTestServer({ fixture, siteUrlIsOrigin: true });
  try {
    await fn(api);
  } finally {
    await api.close();
  }
}

async function register(api: TestServer): Promise<{ client_id: string; client_secret: string }> {
  const res = await fetch(`${api.origin}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Agente MCP', contacts: ['mcp@example.com'] }),
  });
  assert.is(res.status, 201);
  return res.json() as Promise<{ client_id: string; client_secret: string }>;
}

function oauthTests(gen: Generation): void {
  const test = suite(`ClientCredentialsProvider (${gen.name})`);

  test('ClientCredentialsProvider: stale token → 401 → metadata → token (resource, Basic) → the call on 600/min', () => withApi(async (api) => {
    const { client_id, client_secret } = await register(api);
    const SITE = api.config.siteUrl;
    const provider = gen.credentials({ clientId: client_id, clientSecret: client_secret, expectedIssuer: SITE });
    (provider as { saveTokens(t: object): void }).saveTokens({ access_token: 'caducado', token_type: 'Bearer' });

    const { client, captured } = await connectClient(api, { sdk: gen.sdk, authProvider: provider, site: SITE });
    try {
      const steps = captured.responses.slice(0, 5).map((r) => `${r.method} ${new URL(r.url).pathname} ${r.status}`);
      assert.equal(steps, [
        'POST /mcp 401',
        'GET /.well-known/oauth-protected-resource/mcp 200',
        'GET /.well-known/oauth-authorization-server 200',
        'POST /oauth/token 200',
        'POST /mcp 200',
      ]);
      assert.is(captured.responses[0]!.headers.get('www-authenticate')?.includes(`resource_metadata="${SITE}/.well-known/oauth-protected-resource/mcp"`), true);
      const token = (await provider.tokens())!;
      assert.is.not(token.access_token, 'caducado');
      assert.is(token.scope, 'content:read quota:read', 'the documented default scope');
      assert.is((await api.tokens.verify(token.access_token))?.client_id, client_id);

      const tools = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
      assertStructured(tools.get('search_pages')!, (await client.callTool({ name: 'search_pages', arguments: { query: 'cerrajero' } })) as CallToolResult);
      const headers = captured.lastMcp().headers;
      assert.is(headers.get('ratelimit-limit'), '600', 'the raised quota');
      assert.is(headers.get('ratelimit-policy'), '"identificado";q=600;w=60');
      assert.is(headers.get('ratelimit-remaining'), '599');

      const quota = assertStructured(tools.get('get_quota')!, (await client.callTool({ name: 'get_quota' })) as CallToolResult);
      assert.equal({ client_id: quota.client_id, policy: quota.policy, limit: quota.limit, used: quota.used },
        { client_id, policy: 'identificado', limit: 600, used: 2 });
    } finally {
      await client.close();
    }
  }));

  test('the same provider with no token yet: nothing to refresh, the calls are anonymous (60/min) and get_quota says why it fails', () => withApi(async (api) => {
    const { client_id, client_secret } = await register(api);
    const SITE = api.config.siteUrl;
    const provider = gen.credentials({ clientId: client_id, clientSecret: client_secret, expectedIssuer: SITE });
    const { client, captured } = await connectClient(api, { sdk: gen.sdk, authProvider: provider, site: SITE });
    try {
      const result = (await client.callTool({ name: 'get_company_info', arguments: { section: 'contact' } })) as CallToolResult;
      assert.not.ok(result.isError);
      assert.is(captured.lastMcp().headers.get('ratelimit-limit'), '60');
      assertToolError((await client.callTool({ name: 'get_quota' })) as CallToolResult, /alcance quota:read/);
      assert.not.ok(captured.responses.some((r) => r.url.endsWith('/oauth/token')), 'no token is requested while anonymous works');
    } finally {
      await client.close();
    }
  }));

  test('wrong credentials: the token endpoint refuses, and the client reports it instead of looping', () => withApi(async (api) => {
    const { client_id } = await register(api);
    const SITE = api.config.siteUrl;
    const provider = gen.credentials({ clientId: client_id, clientSecret: 'secreto-falso', expectedIssuer: SITE });
    (provider as { saveTokens(t: object): void }).saveTokens({ access_token: 'caducado', token_type: 'Bearer' });
    try {
      await connectClient(api, { sdk: gen.sdk, authProvider: provider, site: SITE });
      assert.unreachable('connect must fail');
    } catch (err) {
      // SDK 1.x names the RFC 6749 error in its class, SDK 2.x in the OAuthError's code.
      assert.match(String(err), /^(InvalidClient|OAuth)Error: Client authentication failed/);
      assert.is((err as { code?: string }).code ?? 'invalid_client', 'invalid_client');
    }
  }));

  test.run();
}

for (const gen of GENERATIONS) oauthTests(gen);

const portOnly = suite('PORT set, SITE_URL unset');

portOnly('the SDK\'s client-credentials flow works on the address PORT gives: the resource is the URL it connects to', async () => {
  const port = await freePort();
  const api = await startTestServer({ fixture, env: { PORT: String(port), SITE_URL: '' } });
  try {
    // What a client reaches the server at, as a person running it on that port would type it.
    const SITE = `http://localhost:${port}`;
    for (const gen of GENERATIONS) {
      const { client_id, client_secret } = await register(api);
      const provider = gen.credentials({ clientId: client_id, clientSecret: client_secret, expectedIssuer: SITE });
      (provider as { saveTokens(t: object): void }).saveTokens({ access_token: 'caducado', token_type: 'Bearer' });
      const { client, captured } = await connectClient(api, { sdk: gen.sdk, authProvider: provider, site: SITE });
      try {
        const quota = (await client.callTool({ name: 'get_quota' })) as CallToolResult;
        assert.is((quota.structuredContent as { client_id?: string } | undefined)?.client_id, client_id, `${gen.name}: a token was obtained and used`);
        assert.ok(captured.responses.some((r) => r.url === `${SITE}/oauth/token` && r.status === 200), gen.name);
      } finally {
        await client.close();
      }
    }
    assert.is(api.config.siteUrl, SITE);
  } finally {
    await api.close();
  }
});

portOnly.run();
