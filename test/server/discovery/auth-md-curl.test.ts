/**
 * Every command printed in /auth.md, run exactly as printed (one bash session, blocks in order,
 * `set -euo pipefail`) against a live server whose SITE_URL is its own address, as a reader
 * would run them against `npm start`. Needs `curl` and `jq` on the PATH (.ci/run installs them).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TOKEN_TTL_SECONDS } from '../../../server/auth/tokens.ts';
import { request } from '../../helpers/http.ts';
import { startTestServer } from '../../helpers/server.ts';

const run = promisify(execFile);

test('curl and jq are installed', async () => {
  for (const tool of ['curl', 'jq']) {
    const found = await run('bash', ['-c', `command -v ${tool}`]).then(() => true, () => false);
    assert.ok(found, `${tool} is required by the auth.md examples (apt-get install ${tool})`);
  }
});

test('every sh block of /auth.md succeeds in order: register → token → use → quota → introspect → revoke', async () => {
  const site = await startTestServer({ siteUrlIsOrigin: true });
  try {
    const md = (await request(`${site.origin}/auth.md`)).text();
    const blocks = [...md.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
    assert.ok(blocks.length >= 8, `found ${blocks.length} blocks`);
    const marker = (i: number) => `::block ${i}::`;
    const script = ['set -euo pipefail', ...blocks.map((b, i) => `printf '\\n%s\\n' '${marker(i)}'\n${b}`)].join('\n');
    // Async: the server answering these requests runs in this process.
    const { stdout } = await run('bash', ['-c', script], { timeout: 30_000, maxBuffer: 4 * 1024 * 1024 });
    const outputs = blocks.map((_, i) => {
      const start = stdout.indexOf(marker(i)) + marker(i).length;
      const end = i + 1 < blocks.length ? stdout.indexOf(marker(i + 1)) : stdout.length;
      return stdout.slice(start, end).trim();
    });
    const output = (command: string) => {
      const i = blocks.findIndex((b) => b.includes(command));
      assert.ok(i >= 0, `a block runs ${command}`);
      return outputs[i]!;
    };
    const s = site.origin;
    const base = site.config.baseUrl;

    assert.ok(output(`curl -s ${s}/.well-known/oauth-authorization-server`).includes(`"issuer": "${s}"`));

    const registration = JSON.parse(output('/oauth/register'));
    assert.match(registration.client_id, /^[A-Za-z0-9_-]+$/);
    assert.type(registration.client_secret, 'string');

    const token = JSON.parse(output('-u "$CLIENT_ID:$CLIENT_SECRET" -d grant_type=client_credentials'));
    assert.equal({ ...token, access_token: 'x' }, { access_token: 'x', token_type: 'Bearer', expires_in: TOKEN_TTL_SECONDS, scope: 'content:read quota:read' });

    const post = JSON.parse(output('--data-urlencode "client_secret=$CLIENT_SECRET"'));
    assert.is(post.scope, 'content:read');

    const use = output('get_company_info?section=contact');
    assert.match(use, /^HTTP\/1\.1 200 OK/);
    assert.match(use, new RegExp(`^RateLimit-Limit: ${site.config.rateLimit.identified}\\r?$`, 'm'));
    assert.match(use, /^RateLimit-Policy: "identificado";q=\d+;w=\d+\r?$/m);

    const [quota, identity] = output(`${base}/quota\ncurl -s -H "Authorization: Bearer $TOKEN" ${s}/agent/identity`).split(/(?<=\})(?=\{)/);
    assert.is(JSON.parse(quota!).policy, 'identificado');
    assert.is(JSON.parse(quota!).client_id, registration.client_id);
    assert.is(JSON.parse(identity!).client_id, registration.client_id);

    const introspection = JSON.parse(output('/oauth/introspect'));
    assert.is(introspection.active, true);
    assert.is(introspection.client_id, registration.client_id);

    assert.equal(output('/oauth/revoke').split('\n'), ['200', '401'], 'revoked, then refused');
  } finally {
    await site.close();
  }
});

test.run();
