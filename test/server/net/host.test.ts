/**
 * The names the server answers for: a Host that names another site gets a JSON 421 before any
 * route runs, and on /mcp an Origin that is not a page of this site gets 403 (DNS rebinding).
 */
import net from 'node:net';
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

/** One raw HTTP/1.1 exchange: the status line's code and the body. */
function raw(origin: string, head: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(head + 'Connection: close\r\n\r\n'));
    let data = '';
    socket.on('data', (c: Buffer) => { data += c.toString('utf8'); });
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0), body: data.slice(data.indexOf('\r\n\r\n') + 4) }));
  });
}

test('RFC 9112 §3.2: absolute-form targets are served by their authority; an empty, invalid or repeated Host is a 400', async () => {
  const api = await startTestServer();
  try {
    const path = '/wp-json/agentes/v1/get_company_info?section=contact';
    const absolute = await raw(api.origin, `GET http://127.0.0.1${path} HTTP/1.1\r\nHost: otro.example\r\n`);
    assert.is(absolute.status, 200, absolute.body.slice(0, 200));
    assert.match(absolute.body, '"brand"');
    assert.is((await raw(api.origin, `GET http://evil.example${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n`)).status, 421);
    for (const head of ['Host: \r\n', 'Host: a b\r\n', 'Host: user@127.0.0.1\r\n', 'Host: 127.0.0.1\r\nHost: 127.0.0.1\r\n']) {
      const res = await raw(api.origin, `GET ${path} HTTP/1.1\r\n${head}`);
      assert.is(res.status, 400, JSON.stringify(head));
      assert.is(JSON.parse(res.body).code, 'agentes_bad_request', JSON.stringify(head));
    }
    assert.is((await raw(api.origin, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:9\r\n`)).status, 200, 'any port');
  } finally {
    await api.close();
  }
});

test.run();
