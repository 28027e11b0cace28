/**
 * The names the server answers for: a Host that names another site gets a JSON 421 before any
 * route runs, and on /mcp an Origin that is not a page of this site gets 403 (DNS rebinding).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseConfig } from '../../../server/config.ts';
import { createHostPolicy, parseAllowedHosts } from '../../../server/net/host.ts';
import { request } from '../../helpers/http.ts';
import { startTestServer } from '../../helpers/server.ts';
import { MCP_ACCEPT } from '../mcp/harness.ts';

const policy = (env: Record<string, string>) => createHostPolicy(parseConfig({ SITE_URL: 'https://www.example.es', ...env }));

test('Host: SITE_URL\'s name (any case, any port, a trailing dot) and ALLOWED_HOSTS; nothing else', () => {
  const p = policy({ ALLOWED_HOSTS: 'interno.example, 10.0.0.5' });
  for (const ok of ['www.example.es', 'WWW.Example.ES:443', 'www.example.es.', 'interno.example:8080', '10.0.0.5']) assert.ok(p.allowsHost(ok), ok);
  for (const no of ['evil.example', 'example.es', 'www.example.es.evil.example', 'localhost:4321', '127.0.0.1', '[::1]:80', '']) assert.not.ok(p.allowsHost(no), no);
});

test('a local site answers on every loopback name; `*` answers any', () => {
  const local = createHostPolicy(parseConfig({ SITE_URL: 'http://localhost:4321' }));
  for (const ok of ['localhost:4321', '127.0.0.1:9999', '[::1]:4321']) assert.ok(local.allowsHost(ok), ok);
  assert.not.ok(local.allowsHost('evil.example'));
  assert.ok(policy({ ALLOWED_HOSTS: '*' }).allowsHost('evil.example'));
});

test('Origin: a page of an allowed name, over http or https', () => {
  const p = policy({});
  assert.ok(p.allowsOrigin('https://www.example.es'));
  assert.ok(p.allowsOrigin('http://www.example.es:8080'));
  for (const no of ['https://evil.example', 'null', 'file://', 'https://www.example.es.evil.example', 'chrome-extension://www.example.es']) assert.not.ok(p.allowsOrigin(no), no);
});

test('ALLOWED_HOSTS takes names and addresses without scheme or port, named in the error', () => {
  assert.equal(parseAllowedHosts(' A.example ,b.example,[::1]'), ['a.example', 'b.example', '[::1]']);
  for (const bad of ['https://a.example', 'a.example:80', 'a b', 'a_b.example']) {
    assert.throws(() => parseAllowedHosts(bad), (err: Error) => err.message.startsWith('ALLOWED_HOSTS'), bad);
  }
});

test('over HTTP: 421 before any route for another Host; 403 on /mcp for another Origin', async () => {
  const api = await startTestServer();
  try {
    const misdirected = await request(`${api.base}/get_company_info`, { headers: { Host: 'evil.example' } });
    assert.is(misdirected.status, 421);
    assert.equal(misdirected.json(), {
      code: 'agentes_misdirected_request',
      message: 'Este servidor no atiende a ese nombre de host.',
      data: { status: 421, hint: `Use la dirección del sitio, ${api.config.siteUrl}.` },
    });
    assert.is(misdirected.headers.ratelimit, undefined, 'answered before any route or quota');
    assert.is((await request(`${api.origin}/agents.md`, { headers: { Host: 'evil.example:80' } })).status, 421);
    assert.is((await request(`${api.base}/get_company_info`, { headers: { Host: new URL(api.config.siteUrl).host } })).status, 200);

    const mcp = (origin?: string) => request(`${api.origin}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: MCP_ACCEPT, 'mcp-protocol-version': '2025-11-25', ...(origin ? { origin } : {}) },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const foreign = await mcp('http://evil.example');
    assert.is(foreign.status, 403);
    assert.is(foreign.json().error.data.code, 'agentes_forbidden_origin');
    assert.is((await mcp(api.config.siteUrl)).status, 200, 'the site\'s own pages');
    assert.is((await mcp()).status, 200, 'no Origin: not a browser');
  } finally {
    await api.close();
  }
});

test.run();
