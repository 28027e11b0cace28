/**
 * End to end with a real OAuth client (oauth4webapi) against the real server (startServer, over
 * the read-model fixture): register → token (Basic and post) → content with the raised quota →
 * quota → identity → introspect → revoke → the token is refused everywhere. Everything the
 * process logs or writes meanwhile is captured and must hold no secret and no token.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as oauth from 'oauth4webapi';
import { basic } from '../../../helpers/http.ts';
import { sharedReadModel } from '../../../helpers/read-model.ts';
import { startTestServer, type TestServer } from '../../../helpers/server.ts';
import { capturingLogger } from './harness.ts';

const fixture = await sharedReadModel();
const SITE = fixture.siteUrl;
const RESOURCE_METADATA = `${SITE}/.well-known/oauth-protected-resource/wp-json/agentes/v1`;
const insecure = { [oauth.allowInsecureRequests]: true } as const;

/** Captures what the process writes to stdout/stderr while `fn` runs. */
async function capturingOutput<T>(fn: () => Promise<T>): Promise<{ result: T; output: string }> {
  const chunks: string[] = [];
  const original = { out: process.stdout.write, err: process.stderr.write };
  const tap = (stream: NodeJS.WriteStream, write: typeof process.stdout.write) => ((chunk: unknown, ...rest: unknown[]) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString());
    return (write as (...a: unknown[]) => boolean).call(stream, chunk, ...rest);
  }) as typeof process.stdout.write;
  process.stdout.write = tap(process.stdout, original.out);
  process.stderr.write = tap(process.stderr, original.err);
  try {
    return { result: await fn(), output: chunks.join('') };
  } finally {
    process.stdout.write = original.out;
    process.stderr.write = original.err;
  }
}

async function withServer(fn: (server: TestServer, log: ReturnType<typeof capturingLogger>) => Promise<void>): Promise<void> {
  const log = capturingLogger();
  const server = await startTestServer({ fixture, log });
  try {
    await fn(server, log);
  } finally {
    await server.close();
  }
}

test('oauth4webapi: register → token (Basic, post) → content at 600/min → quota → identity → introspect → revoke → 401 everywhere; nothing secret logged', () => withServer(async ({ origin: url }, log) => {
  const as: oauth.AuthorizationServer = {
    issuer: SITE,
    registration_endpoint: `${url}/oauth/register`,
    token_endpoint: `${url}/oauth/token`,
    revocation_endpoint: `${url}/oauth/revoke`,
    introspection_endpoint: `${url}/oauth/introspect`,
  };
  const api = (op: string) => new URL(`${url}/wp-json/agentes/v1/${op}`);
  const secrets: string[] = [];

  const { output } = await capturingOutput(async () => {
    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(as, { client_name: 'Agente e2e', contacts: ['e2e@example.com'] } as never, insecure));
    const client: oauth.Client = { client_id: registered.client_id };
    const secret = registered.client_secret as string;
    secrets.push(secret);
    assert.is(registered.client_secret_expires_at, 0);

    // client_secret_basic: oauth4webapi form-encodes both halves (RFC 6749 §2.3.1).
    const viaBasic = await oauth.processClientCredentialsResponse(as, client,
      await oauth.clientCredentialsGrantRequest(as, client, oauth.ClientSecretBasic(secret), new URLSearchParams({ resource: `${SITE}/wp-json/agentes/v1` }), insecure));
    assert.is(viaBasic.token_type, 'bearer');
    assert.is(viaBasic.expires_in, 3600);
    assert.is(viaBasic.scope, 'content:read quota:read');
    assert.is(viaBasic.refresh_token, undefined);

    const viaPost = await oauth.processClientCredentialsResponse(as, client,
      await oauth.clientCredentialsGrantRequest(as, client, oauth.ClientSecretPost(secret), new URLSearchParams({ scope: 'content:read' }), insecure));
    assert.is(viaPost.scope, 'content:read');
    const token = viaBasic.access_token;
    secrets.push(token, viaPost.access_token);

    // A wrong secret surfaces in the client as a 401 with the Basic challenge.
    const wrong = await oauth.clientCredentialsGrantRequest(as, client, oauth.ClientSecretBasic(secret + 'x'), new URLSearchParams(), insecure);
    assert.is(wrong.status, 401);
    await oauth.processClientCredentialsResponse(as, client, wrong).then(
      () => assert.unreachable('accepted a wrong secret'),
      (err: unknown) => assert.instance(err, oauth.WWWAuthenticateChallengeError),
    );
    // Credentials in the URL are refused (and, below, never reach a log line).
    const inUrl = await fetch(`${url}/oauth/token?client_secret=${secret}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(client.client_id, secret) }, body: 'grant_type=client_credentials' });
    assert.is(inUrl.status, 400);

    // Content with the raised quota.
    const company = await oauth.protectedResourceRequest(token, 'GET', api('get_company_info'), undefined, undefined, insecure);
    assert.is(company.status, 200);
    assert.is(company.headers.get('ratelimit-limit'), '600');
    assert.is(company.headers.get('ratelimit-remaining'), '599');
    assert.is(company.headers.get('ratelimit-policy'), '"identificado";q=600;w=60');
    const withPostToken = await oauth.protectedResourceRequest(viaPost.access_token, 'GET', api('search_pages?query=fontaneria'), undefined, undefined, insecure);
    assert.is(withPostToken.status, 200);
    assert.is(withPostToken.headers.get('ratelimit-remaining'), '598', 'one window per client_id, whichever token');

    // The quota counts itself.
    const quota = await oauth.protectedResourceRequest(token, 'GET', api('quota'), undefined, undefined, insecure);
    assert.is(quota.status, 200);
    const q = await quota.json() as Record<string, unknown>;
    assert.equal({ ...q, reset_seconds: 0 }, {
      client_id: client.client_id, scope: 'content:read quota:read', policy: 'identificado', limit: 600,
      window_seconds: 60, used: 3, remaining: 597, reset_seconds: 0,
    });
    // Without quota:read: 403, and the client reads the Bearer challenge.
    await oauth.protectedResourceRequest(viaPost.access_token, 'GET', api('quota'), undefined, undefined, insecure).then(
      () => assert.unreachable('quota without quota:read'),
      (err: unknown) => {
        assert.instance(err, oauth.WWWAuthenticateChallengeError);
        const e = err as oauth.WWWAuthenticateChallengeError;
        assert.is(e.response.status, 403);
        assert.equal(e.cause[0]!.scheme, 'bearer');
        assert.is(e.cause[0]!.parameters.error, 'insufficient_scope');
        assert.is(e.cause[0]!.parameters.resource_metadata, RESOURCE_METADATA);
      },
    );

    // Identity shows the same window, itself counted in it.
    const who = await oauth.protectedResourceRequest(token, 'GET', new URL(`${url}/agent/identity`), undefined, undefined, insecure);
    assert.is(who.status, 200);
    const id = await who.json() as { client_id: string; client_name: string; scope: string; quota: { used: number; remaining: number; policy: string } };
    assert.is(id.client_id, client.client_id);
    assert.is(id.client_name, 'Agente e2e');
    assert.is(id.scope, 'content:read quota:read');
    assert.is(id.quota.policy, 'identificado');
    assert.is(id.quota.used, 5, 'the 403 on /quota counted too, and identity itself');
    assert.is(id.quota.remaining, 595);

    const introspection = await oauth.processIntrospectionResponse(as, client,
      await oauth.introspectionRequest(as, client, oauth.ClientSecretBasic(secret), token, insecure));
    assert.is(introspection.active, true);
    assert.is(introspection.client_id, client.client_id);
    assert.is(introspection.scope, 'content:read quota:read');
    assert.is(introspection.token_type, 'Bearer');
    assert.is(introspection.iss, SITE);
    assert.is(introspection.aud, `${SITE}/wp-json/agentes/v1`);
    assert.is((introspection.exp as number) - (introspection.iat as number), 3600);

    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.ClientSecretPost(secret), token, insecure));

    const dead = await oauth.processIntrospectionResponse(as, client,
      await oauth.introspectionRequest(as, client, oauth.ClientSecretPost(secret), token, insecure));
    assert.equal(dead, { active: false });
    for (const target of [api('get_company_info'), api('search_pages?query=fontaneria'), api('read_page?url=/servicios/fontaneria/'), api('quota'), new URL(`${url}/agent/identity`)]) {
      const res = await fetch(target, { headers: { authorization: `Bearer ${token}` } });
      assert.is(res.status, 401, target.pathname);
      const challenge = res.headers.get('www-authenticate') ?? '';
      assert.match(challenge, /^Bearer error="invalid_token"/, target.pathname);
      assert.ok(challenge.includes(`resource_metadata="${RESOURCE_METADATA}"`), challenge);
    }
    // The other token of the same client is untouched.
    assert.is((await oauth.protectedResourceRequest(viaPost.access_token, 'GET', api('get_company_info'), undefined, undefined, insecure)).status, 200);
  });

  const logged = log.lines.join('\n');
  for (const value of secrets) {
    assert.not.ok(logged.includes(value), 'a secret or token reached the logger');
    assert.not.ok(output.includes(value), 'a secret or token reached stdout/stderr');
  }
}));

test.run();
