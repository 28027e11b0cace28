/** The tool-result renderer: what a model reads for an operation's result or its refusal. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import net from 'node:net';
import { bearerChallenges } from '../../../server/auth/bearer.ts';
import { parseConfig } from '../../../server/config.ts';
import { links } from '../../../server/discovery/links.ts';
import { invalidParam, pageNotFound } from '../../../server/errors.ts';
import { errorText, toolErrorOf, toolResult } from '../../../server/mcp/results.ts';
import { getQuota } from '../../../server/operations/get-quota.ts';
import { OPERATIONS } from '../../../server/operations/index.ts';
import { newCall } from '../../../server/pipeline/index.ts';

const config = parseConfig({ SITE_URL: 'http://agentes.test' });
const l = links(config);
const challenges = bearerChallenges(config.siteUrl, l.protectedResourceMcp);
const req = new http.IncomingMessage(new net.Socket());
const readPage = OPERATIONS.find((op) => op.name === 'read_page')!;

test('a refusal is an isError result whose one text block is the message and the hint', () => {
  const call = newCall(readPage, req, { kind: 'none' }, {});
  assert.equal(toolErrorOf(pageNotFound(), call, l), {
    content: [{ type: 'text', text: 'No existe ninguna página publicada con esa URL, ruta o slug. Use search_pages para encontrar la URL de una página y pásela a read_page.' }],
    isError: true,
  });
});

test('a hint that only names the parameter the message already names is not repeated', () => {
  const call = newCall(readPage, req, { kind: 'none' }, {});
  assert.is(errorText(invalidParam('limit', 'Máximo 20.'), call, l), 'Parámetro no válido: limit. Máximo 20.');
});

test('a missing or too narrow token is explained for the connection, naming where to get one', () => {
  const none = newCall(getQuota, req, { kind: 'none' }, {});
  assert.is(errorText(challenges.notLoggedIn(), none, l),
    'get_quota necesita un token Bearer con el alcance quota:read, y esta conexión no envía ninguno. '
    + 'Pida uno gratis: POST http://agentes.test/oauth/register y POST http://agentes.test/oauth/token (grant_type=client_credentials, scope="content:read quota:read"), '
    + 'y conecte con Authorization: Bearer <token>; véase http://agentes.test/auth.md.');
  const narrow = newCall(getQuota, req, { kind: 'token', token: { client_id: 'c', scope: ['content:read'], iat: 0, exp: 1 } }, {});
  assert.is(errorText(challenges.insufficientScope('quota:read'), narrow, l),
    'El token de esta conexión no tiene el alcance quota:read (tiene: content:read). Pida un token con scope=quota:read en POST http://agentes.test/oauth/token.');
});

test('a result built for the call: the JSON as text and as structuredContent', () => {
  assert.equal(toolResult({ value: { a: 1 } }), { content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } });
});

test.run();
