/**
 * /agent/identity and token guessing: an invalid token is counted on its IP's anonymous window,
 * as on the REST API and MCP (401 with the window's headers, then 429); a valid token asks who it
 * is without spending quota.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from '../../helpers/http.ts';
import { startTestServer } from '../../helpers/server.ts';

test('invalid tokens on /agent/identity: 401 counted on the IP\'s window, then 429; the window is the REST API\'s', async () => {
  const api = await startTestServer({ env: { RATE_LIMIT_ANONYMOUS: '3' } });
  try {
    const guess = (i: number) => request(`${api.origin}/agent/identity`, { headers: { Authorization: `Bearer guess-${i}` } });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await guess(i));
    assert.equal(answers.map((a) => a.status), [401, 401, 401, 429]);
    assert.equal(answers.map((a) => a.headers['ratelimit-remaining']), ['2', '1', '0', '0']);
    assert.is(answers[0]!.json().code, 'agentes_invalid_token');
    assert.match(String(answers[0]!.headers['www-authenticate']), /^Bearer error="invalid_token"/);
    assert.is(answers[3]!.json().code, 'agentes_rate_limited');
    assert.ok(Number(answers[3]!.headers['retry-after']) >= 1);
    assert.is((await request(`${api.base}/get_company_info`)).status, 429, 'the same window as the API');

    const { access_token } = await api.tokens.issue('client-identity', ['content:read']);
    const me = await request(`${api.origin}/agent/identity`, { headers: { Authorization: `Bearer ${access_token}` } });
    assert.is(me.status, 200, 'a valid token is not held back by its IP\'s window');
    assert.is(me.headers['ratelimit-remaining'], undefined, 'and spends no quota');
    assert.is(me.json().client_id, 'client-identity');
  } finally {
    await api.close();
  }
});

test.run();
