/**
 * OAuth discovery (conformance.md §5, §6) and the API catalogue (RFC 9727), fetched from a live
 * server whose SITE_URL is its own address: every document names itself exactly, and every
 * endpoint it names answers.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SCOPES } from '../../../server/auth/types.ts';
import { request } from '../../helpers/http.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

let site: TestServer;
test.before(async () => { site = await startTestServer({ siteUrlIsOrigin: true }); });
test.after(async () => { await site.close(); });

const getJson = async (url: string) => {
  const res = await request(url);
  assert.is(res.status, 200, `${url}: ${res.text().slice(0, 200)}`);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  return res.json();
};

/** RFC 9728 §3.1 / RFC 8414 §3.1: the well-known segment goes between host and path. */
function wellKnown(identifier: string, suffix: string): string {
  const u = new URL(identifier);
  const p = u.pathname === '/' ? '' : u.pathname;
  return `${u.origin}/.well-known/${suffix}${p}`;
}

test('authorization-server metadata (RFC 8414): issuer names itself, every field of conformance §5', async () => {
  const s = site.origin;
  const md = await getJson(wellKnown(s, 'oauth-authorization-server'));
  assert.is(md.issuer, s, 'issuer is the site URL, no trailing slash');
  assert.is(wellKnown(md.issuer, 'oauth-authorization-server'), `${s}/.well-known/oauth-authorization-server`, 'fetched from the issuer-derived URL');
  assert.is(md.token_endpoint, `${s}/oauth/token`);
  assert.is(md.registration_endpoint, `${s}/oauth/register`);
  assert.is(md.revocation_endpoint, `${s}/oauth/revoke`);
  assert.is(md.introspection_endpoint, `${s}/oauth/introspect`);
  assert.is(md.authorization_endpoint, `${s}/oauth/authorize`);
  assert.equal(md.response_types_supported, []);
  assert.equal(md.grant_types_supported, ['client_credentials']);
  assert.equal(md.scopes_supported, ['content:read', 'quota:read']);
  for (const f of ['token_endpoint_auth_methods_supported', 'revocation_endpoint_auth_methods_supported', 'introspection_endpoint_auth_methods_supported']) {
    assert.equal(md[f], ['client_secret_basic', 'client_secret_post'], f);
  }
  assert.is(md.service_documentation, `${s}/desarrolladores/`);
  assert.equal(md.agent_auth.skill, `${s}/auth.md`);
  assert.equal(md.agent_auth.register_uri, `${s}/oauth/register`);
  assert.equal(md.agent_auth.revocation_uri, `${s}/oauth/revoke`);
  assert.equal(md.agent_auth.identity_types_supported, ['anonymous']);
  assert.equal(md.agent_auth.anonymous, { credential_types_supported: ['access_token'] });
  assert.is(md.agent_auth.default_scope, 'content:read quota:read');
  assert.equal(md.agent_auth.quotas.anonymous, { requests: 60, window_seconds: 60, per: 'ip' });
  assert.equal(md.agent_auth.quotas.identified, { requests: 600, window_seconds: 60, per: 'client_id' });
  assert.not.ok('jwks_uri' in md || 'userinfo_endpoint' in md, 'nothing of OpenID Connect');
});

test('the endpoints the metadata names answer (JSON OAuth errors, never 404); authorize refuses without redirecting', async () => {
  const md = await getJson(`${site.origin}/.well-known/oauth-authorization-server`);
  for (const url of [md.token_endpoint, md.revocation_endpoint, md.introspection_endpoint]) {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'token=x&grant_type=client_credentials' });
    assert.ok(res.status === 400 || res.status === 401, `${url} → ${res.status}`);
    assert.type((await res.json()).error, 'string');
  }
  const reg = await fetch(md.registration_endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"client_name":"metadatos"}' });
  assert.is(reg.status, 201);
  const auth = await fetch(`${md.authorization_endpoint}?response_type=code&client_id=x&redirect_uri=https://evil.example/`, { redirect: 'manual' });
  assert.is(auth.status, 400);
  assert.is(auth.headers.get('location'), null);
  assert.is((await auth.json()).error, 'unsupported_response_type');
});

test('protected-resource metadata (RFC 9728): three documents, each `resource` equal to its identifier', async () => {
  const s = site.origin;
  const resources = [s, `${s}/wp-json/agentes/v1`, `${s}/mcp`];
  for (const resource of resources) {
    const url = wellKnown(resource, 'oauth-protected-resource');
    const md = await getJson(url);
    assert.is(md.resource, resource, url);
    assert.equal(md.authorization_servers, [s]);
    assert.equal(md.scopes_supported, [...SCOPES]);
    assert.equal(md.bearer_methods_supported, ['header']);
    assert.type(md.resource_name, 'string');
    assert.match(md.resource_documentation, new RegExp(`^${s}/`));
  }
  assert.is(wellKnown(`${s}/wp-json/agentes/v1`, 'oauth-protected-resource'), `${s}/.well-known/oauth-protected-resource/wp-json/agentes/v1`);
});

test('the API 401 points at the API metadata, which names the API base; its issuer serves the AS metadata', async () => {
  const res = await request(`${site.origin}/wp-json/agentes/v1/quota`);
  assert.is(res.status, 401);
  const m = /resource_metadata="([^"]+)"/.exec(String(res.headers['www-authenticate']));
  assert.ok(m, String(res.headers['www-authenticate']));
  const md = await getJson(m![1]!);
  assert.is(md.resource, site.config.baseUrl);
  const as = await getJson(wellKnown(md.authorization_servers[0], 'oauth-authorization-server'));
  assert.is(as.issuer, md.authorization_servers[0]);
});

test('the token endpoint accepts the `resource` of each protected-resource document (RFC 8707, MCP SDK)', async () => {
  const s = site.origin;
  const reg = await fetch(`${s}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then((r) => r.json());
  const basic = 'Basic ' + Buffer.from(`${reg.client_id}:${reg.client_secret}`).toString('base64');
  for (const path of ['/.well-known/oauth-protected-resource/wp-json/agentes/v1', '/.well-known/oauth-protected-resource/mcp']) {
    const { resource } = await getJson(s + path);
    const res = await fetch(`${s}/oauth/token`, {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', resource }),
    });
    assert.is(res.status, 200, `${resource}: ${await res.clone().text()}`);
    assert.is((await res.json()).token_type, 'Bearer');
  }
});

test('no OpenID Connect discovery: /.well-known/openid-configuration is a JSON 404', async () => {
  for (const method of ['GET', 'HEAD', 'POST']) {
    const res = await request(`${site.origin}/.well-known/openid-configuration`, { method });
    assert.is(res.status, 404, method);
    assert.match(String(res.headers['content-type']), /^application\/json; charset=utf-8/);
    if (method !== 'HEAD') {
      const body = res.json();
      assert.is(body.code, 'rest_no_route');
      assert.is(body.data.status, 404);
      assert.match(body.data.hint, /oauth-authorization-server/);
    }
  }
});

test('API catalogue (RFC 9727): linkset with the RFC 9727 profile, anchored at the API', async () => {
  const s = site.origin;
  const res = await request(`${s}/.well-known/api-catalog`);
  assert.is(res.status, 200);
  assert.is(res.headers['content-type'], 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"');
  assert.is(res.headers.link, `<${s}/.well-known/api-catalog>; rel="api-catalog"`);
  const { linkset } = res.json();
  assert.ok(Array.isArray(linkset));
  const api = linkset.find((e: { anchor: string }) => e.anchor === `${s}/wp-json/agentes/v1`);
  assert.ok(api, 'an entry anchored at the API base');
  assert.equal(api['service-desc'][0], { href: `${s}/openapi.json`, type: 'application/vnd.oai.openapi+json;version=3.1', title: 'OpenAPI 3.1' });
  assert.is(api['service-doc'][0].href, `${s}/desarrolladores/`);
  assert.is(api['service-meta'][0].href, `${s}/.well-known/oauth-protected-resource/wp-json/agentes/v1`);
  const mcp = linkset.find((e: { anchor: string }) => e.anchor === `${s}/mcp`);
  assert.is(mcp['service-meta'][0].href, `${s}/.well-known/oauth-protected-resource/mcp`);
  // RFC 9264 §4.2: every relation holds an array of target objects with an href.
  for (const entry of linkset) {
    for (const [rel, targets] of Object.entries(entry)) {
      if (rel === 'anchor') continue;
      for (const t of targets as { href: string }[]) assert.match(t.href, /^http:\/\//);
    }
  }
  // The links served by this server resolve.
  for (const href of [api['service-desc'][0].href, api['service-meta'][0].href, mcp['service-meta'][0].href, api['service-doc'][1].href]) {
    assert.is((await request(href)).status, 200, href);
  }
  const head = await request(`${s}/.well-known/api-catalog`, { method: 'HEAD' });
  assert.is(head.status, 200);
  assert.is(head.body.length, 0);
  assert.is(head.headers.link, `<${s}/.well-known/api-catalog>; rel="api-catalog"`);
});

test.run();
