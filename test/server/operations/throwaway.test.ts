/**
 * Adding an operation is writing one definition: a throwaway `count_pages`, registered only in
 * this test, is served over REST and MCP through the same pipeline (quota, parameters, caching)
 * and described in /openapi.json, with nothing else written for it.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { z } from 'zod';
import { OPERATIONS } from '../../../server/operations/index.ts';
import { defineOperation } from '../../../server/operations/operation.ts';
import { startTestServer } from '../../helpers/server.ts';
import { request } from '../../helpers/http.ts';
import { rpc, toolCall } from '../mcp/harness.ts';

const countPages = defineOperation({
  name: 'count_pages',
  path: 'count_pages',
  tag: 'contenido',
  access: { kind: 'open', raisedBy: 'content:read' },
  input: z.object({
    prefix: z.string().min(1).max(50).describe('Ruta del sitio con la que empiezan las páginas contadas'),
    at_least: z.number().int().min(0).max(1000).default(0).describe('Cuenta solo si hay al menos tantas'),
  }),
  output: { schema: z.object({ count: z.number().int() }), name: 'PageCount', description: 'El número de páginas.' },
  cacheable: true,
  rest: { summary: 'Contar páginas', description: 'Cuenta las páginas publicadas bajo una ruta.' },
  tool: { title: 'Contar páginas', description: 'Cuenta las páginas publicadas bajo una ruta del sitio.' },
  run: ({ prefix, at_least }, { model }) => {
    const count = model.pages.filter((p) => p.path.startsWith(prefix)).length;
    return { value: { count: count >= at_least ? count : 0 } };
  },
});

test('a fifth operation, defined in one place: REST, MCP and OpenAPI serve it with the shared steps', async () => {
  const api = await startTestServer({ operations: [...OPERATIONS, countPages] });
  try {
    const expected = api.model.current().pages.filter((p) => p.path.startsWith('/servicios/')).length;
    assert.ok(expected > 0);

    // REST: the same quota window, caching and parameter errors as the built-in operations.
    const first = await request(`${api.base}/count_pages?prefix=/servicios/`);
    assert.is(first.status, 200, first.text());
    assert.equal(first.json(), { count: expected });
    assert.is(first.headers['ratelimit-remaining'], '59');
    assert.is(first.headers['cache-control'], 'public, max-age=60');
    const etag = String(first.headers.etag);
    const again = await request(`${api.base}/count_pages?prefix=/servicios/`, { headers: { 'If-None-Match': etag } });
    assert.is(again.status, 304);
    const bad = await request(`${api.base}/count_pages?prefix=/servicios/&at_least=1e1`);
    assert.is(bad.status, 400);
    assert.equal(bad.json(), {
      code: 'rest_invalid_param',
      message: 'Parámetro no válido: at_least. Debe ser un número entero entre 0 y 1000.',
      data: { status: 400, hint: 'at_least' },
    });
    const missing = await request(`${api.base}/count_pages`);
    assert.is(missing.json().code, 'rest_missing_callback_param');
    const none = await request(`${api.base}/nope`);
    assert.is(none.json().data.hint, 'Operaciones: search_pages, read_page, get_company_info, quota, count_pages. Véase /openapi.json.');

    // MCP: listed with its schemas and texts, called through the same window as the four counted REST calls.
    const list = (await rpc(api, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).json();
    const tool = list.result.tools.find((t: { name: string }) => t.name === 'count_pages');
    assert.equal(tool.inputSchema.required, ['prefix']);
    assert.equal(tool.inputSchema.properties.at_least, { type: 'integer', minimum: 0, maximum: 1000, default: 0, description: 'Cuenta solo si hay al menos tantas' });
    assert.is(tool.title, 'Contar páginas');
    const called = await rpc(api, toolCall('count_pages', { prefix: '/servicios/' }));
    assert.equal(called.json().result.structuredContent, { count: expected });
    assert.is(called.headers['ratelimit-remaining'], '55');
    const refused = (await rpc(api, toolCall('count_pages', { prefix: '' }))).json().result;
    assert.is(refused.isError, true);
    assert.match(refused.content[0].text, 'Parámetro no válido: prefix.');

    // OpenAPI: the path, its parameters, its body as a named schema.
    const doc = (await request(`${api.origin}/openapi.json`)).json();
    const op = doc.paths['/count_pages'].get;
    assert.is(op.operationId, 'count_pages');
    assert.equal(op.parameters.map((p: { name: string }) => p.name), ['prefix', 'at_least']);
    assert.equal(op.responses['200'].content['application/json'].schema, { $ref: '#/components/schemas/PageCount' });
    assert.equal(op.security, [{}, { oauth2: ['content:read'] }]);
    assert.ok(doc.components.schemas.PageCount);
  } finally {
    await api.close();
  }
});

test('without it, the server does not know it', async () => {
  const api = await startTestServer();
  try {
    assert.is((await request(`${api.base}/count_pages?prefix=/`)).status, 404);
    const called = (await rpc(api, toolCall('count_pages', { prefix: '/' }))).json();
    assert.is(called.error.code, -32602);
  } finally {
    await api.close();
  }
});

test.run();
