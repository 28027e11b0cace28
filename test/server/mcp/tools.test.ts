/**
 * The four MCP tools through the official SDK's clients against the whole server, once per client
 * generation (SDK 1.x with initialize at 2025-11-25; SDK 2.x stateless at 2026-07-28): the
 * connection, the tool list and its schemas, every tool called with valid and invalid arguments,
 * each result checked against the tool's outputSchema and against REST, and the quota counted and
 * reported the same way for both.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { z } from 'zod';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { inputProperties } from '../../../server/discovery/json-schema.ts';
import { SERVER_VERSION } from '../../../server/mcp/identity.ts';
import { GetCompanyInfoParams, ReadPageParams, SearchPagesParams } from '../../../server/schemas/params.ts';
import { COMPANY_SECTIONS } from '../../../formats/schemas/resources.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { request } from '../../helpers/http.ts';
import { sharedReadModel } from '../../helpers/read-model.ts';
import { assertStructured, assertToolError, connectClient, GENERATIONS, type Generation } from './harness.ts';

type Connected = Awaited<ReturnType<typeof connectClient>>;

function toolTests(gen: Generation): void {  const test = suite<{ api: TestServer; mcp: Connected; tools: Map<string, Tool> }>(`mcp tools (${gen.name})`);

  // A quota far above what this file calls, so no test depends on another's count; its value shows in the instructions.
  test.before(async (ctx) => {
    ctx.api = await startTestServer({ fixture: await sharedReadModel(), env: { RATE_LIMIT_ANONYMOUS: '1000', RATE_LIMIT_IDENTIFIED: '1500' } });
    ctx.mcp = await connectClient(ctx.api, { sdk: gen.sdk });
    ctx.tools = new Map((await ctx.mcp.client.listTools()).tools.map((t) => [t.name, t]));
  });
  test.after(async (ctx) => {
    await ctx.mcp.client.close();
    await ctx.api.close();
  });

  const call = async (ctx: { mcp: Connected }, name: string, args: Record<string, unknown> = {}) =>
    (await ctx.mcp.client.callTool({ name, arguments: args })) as CallToolResult;

  const ok = async (ctx: { mcp: Connected; tools: Map<string, Tool> }, name: string, args: Record<string, unknown> = {}) =>
    assertStructured(ctx.tools.get(name)!, await call(ctx, name, args));

  const rest = async (api: TestServer, op: string, query: Record<string, string> = {}) =>
    request(`${api.base}/${op}?${new URLSearchParams(query)}`);

  test(`connect: revision ${gen.revision}, tools capability, serverInfo and instructions from the live config`, async ({ api, mcp }) => {
    assert.is(mcp.protocolVersion(), gen.revision);
    assert.equal(mcp.client.getServerCapabilities()?.tools, { listChanged: false });
    const info = mcp.client.getServerVersion()!;
    assert.is(info.name, 'test.agentes/agentes');
    assert.is(info.version, SERVER_VERSION);
    assert.ok(info.title && info.title.length <= 100);
    const text = mcp.client.getInstructions()!;
    const [site] = text.split('\n\n');
    assert.is(site!.split(/(?<=\.)\s/).length, 2, 'the site in two sentences');
    assert.match(text, 'Solo lectura');
    assert.match(text, /ninguna herramienta reserva, contrata, paga/);
    assert.match(text, /1000 llamadas a herramientas por minuto por IP sin token; 1500 por minuto con un token/);
    assert.match(text, `POST ${api.config.siteUrl}/oauth/token`);
    assert.match(text, 'tools/call');
  });

  test('tools/list: the four operations, titled, read-only, each saying when to use it', async ({ tools }) => {
    assert.equal([...tools.keys()], ['search_pages', 'read_page', 'get_company_info', 'get_quota']);
    for (const tool of tools.values()) {
      assert.ok(tool.title, tool.name);
      assert.equal(tool.annotations, { title: tool.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }, tool.name);
      assert.is(tool.inputSchema.type, 'object');
      assert.is(tool.outputSchema?.type, 'object');
      assert.not.ok('$schema' in tool.inputSchema, 'MCP 2025-11-25 defaults tool schemas to 2020-12');
    }
    assert.match(tools.get('search_pages')!.description!, /Úsela primero.*`city`.*0 resultados.*read_page/s);
    assert.match(tools.get('read_page')!.description!, /search_pages/);
    assert.match(tools.get('get_company_info')!.description!, /contacto, precios, IVA/);
    assert.match(tools.get('get_quota')!.description!, /quota:read/);
  });

  test('input schemas: the REST parameters, bounds, enums and defaults, from the schema /openapi.json uses', async ({ tools }) => {
    const properties = (tool: string) => tools.get(tool)!.inputSchema.properties as Record<string, Record<string, unknown>>;
    for (const [tool, schema] of [['search_pages', SearchPagesParams], ['read_page', ReadPageParams], ['get_company_info', GetCompanyInfoParams]] as const) {
      const published = Object.fromEntries(inputProperties(schema as z.ZodObject).map((p) => [p.name, { ...p.schema, description: p.description }]));
      assert.equal(properties(tool), published, `${tool}: the same as the OpenAPI parameters`);
      assert.equal(tools.get(tool)!.inputSchema.required ?? [], inputProperties(schema as z.ZodObject).filter((p) => p.required).map((p) => p.name));
    }
    const search = properties('search_pages');
    assert.equal(tools.get('search_pages')!.inputSchema.required, ['query']);
    assert.equal([search.query!.minLength, search.query!.maxLength], [2, 200]);
    assert.equal([search.limit!.type, search.limit!.minimum, search.limit!.maximum, search.limit!.default], ['integer', 1, 25, 8]);
    assert.is(search.city!.default, 'todas');
    assert.is((search.city!.enum as string[]).length, 22);
    assert.is(search.cursor!.maxLength, 12);
    const read = properties('read_page');
    assert.equal([read.url!.minLength, read.url!.maxLength], [1, 300]);
    assert.equal(properties('get_company_info').section, { ...properties('get_company_info').section, enum: [...COMPANY_SECTIONS], default: 'all' });
    assert.equal(tools.get('get_quota')!.inputSchema, { type: 'object', properties: {}, additionalProperties: false });
    for (const tool of tools.values()) assert.is(tool.inputSchema.additionalProperties, false, `${tool.name}: no argument beyond its own`);
  });

  test('output schemas: the contract resources with their required fields', async ({ tools }) => {
    const out = (name: string) => tools.get(name)!.outputSchema as { required: string[]; properties: Record<string, Record<string, unknown>> };
    assert.equal(out('search_pages').required, ['total', 'results', 'next_cursor']);
    assert.equal(out('search_pages').properties.next_cursor!.anyOf, [{ type: 'string', maxLength: 12 }, { type: 'null' }], 'one type per branch: portable to single-type dialects');
    assert.equal(out('read_page').required, ['title', 'url', 'markdown', 'truncated']);
    assert.equal(out('get_company_info').required, ['brand', 'website']);
    assert.equal(out('get_quota').required, ['client_id', 'policy', 'limit', 'remaining', 'reset_seconds']);
    assert.equal(out('get_quota').properties.policy!.enum, ['anonimo', 'identificado']);
    for (const name of tools.keys()) assert.not.ok('additionalProperties' in out(name), `${name}: fields added within v1 stay valid`);
  });

  test('search_pages: the REST result for the same parameters; city filter; cursor paging', async (ctx) => {
    const found = await ok(ctx, 'search_pages', { query: 'fontanero' });
    assert.equal(found, (await rest(ctx.api, 'search_pages', { query: 'fontanero' })).json(), 'same as REST');
    assert.ok((found.total as number) > 0);
    const madrid = await ok(ctx, 'search_pages', { query: 'fontanero', city: 'madrid' });
    const cities = (madrid.results as { city: string }[]).map((r) => r.city);
    assert.ok(cities[0] === 'madrid' && cities.every((c) => c === 'madrid' || c === ''), cities.join());
    const first = await ok(ctx, 'search_pages', { query: 'fontanería', limit: 1 });
    assert.is(first.total, 1);
    assert.type(first.next_cursor, 'string');
    const second = await ok(ctx, 'search_pages', { query: 'fontanería', limit: 1, cursor: first.next_cursor });
    assert.is.not((second.results as { url: string }[])[0]!.url, (first.results as { url: string }[])[0]!.url);
  });

  test('search_pages: bad arguments → isError naming the parameter and its bounds (JSON types are not coerced)', async (ctx) => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{}, /^Falta el parámetro obligatorio: query\.$/],
      [{ query: 'a' }, /^Parámetro no válido: query\. Debe tener al menos 2 caracteres\.$/],
      [{ query: 'x'.repeat(201) }, /query\. Debe tener como máximo 200 caracteres/],
      [{ query: 'fuga', limit: 26 }, /^Parámetro no válido: limit\. Debe ser un número entero menor o igual que 25\.$/],
      [{ query: 'fuga', limit: 0 }, /limit\. Debe ser un número entero mayor o igual que 1/],
      [{ query: 'fuga', limit: 2.5 }, /limit\. Debe ser un número entero/],
      [{ query: 'fuga', limit: '5' }, /limit\. Debe ser un número entero/],
      [{ query: 'fuga', limit: true }, /limit\. Debe ser un número entero/],
      [{ query: 'fuga', city: 'paris' }, /^Parámetro no válido: city\. Valores admitidos: tenerife, .*pamplona, todas\.$/],
      [{ query: 'fuga', cursor: 'x'.repeat(13) }, /cursor\. Debe tener como máximo 12 caracteres/],
      [{ query: 42 }, /query\. Debe ser de tipo string/],
    ];
    for (const [args, pattern] of cases) assertToolError(await call(ctx, 'search_pages', args), pattern);
    assertToolError(await call(ctx, 'search_pages', { query: 'fuga', cursor: 'zzzzzzzz' }), /cursor/);
  });

  test('read_page: full URL, path or slug; the text block is the REST body byte for byte; long pages truncated', async (ctx) => {
    const url = `${ctx.api.config.siteUrl}/servicios/fontaneria/`;
    const page = await ok(ctx, 'read_page', { url });
    assert.is(page.url, url);
    assert.is(page.truncated, false);
    const result = await call(ctx, 'read_page', { url: 'fontaneria' });
    assert.equal(result.structuredContent, page, 'slug');
    assert.equal(await ok(ctx, 'read_page', { url: '/servicios/fontaneria/' }), page, 'path');
    assert.is((result.content[0] as { text: string }).text, (await rest(ctx.api, 'read_page', { url: 'fontaneria' })).text());
    const fixture = await sharedReadModel();
    const long = await ok(ctx, 'read_page', { url: fixture.longPage.url });
    assert.is(long.truncated, true);
    assert.ok((long.markdown as string).length <= ctx.api.config.readPageMaxChars);
  });

  test('read_page: bad arguments and unknown pages → isError saying what to do', async (ctx) => {
    assertToolError(await call(ctx, 'read_page'), /^Falta el parámetro obligatorio: url\.$/);
    assertToolError(await call(ctx, 'read_page', { url: '' }), /url\. Debe tener al menos 1 caracteres/);
    assertToolError(await call(ctx, 'read_page', { url: 'x'.repeat(301) }), /url\. Debe tener como máximo 300 caracteres/);
    assertToolError(await call(ctx, 'read_page', { url: '/no-existe/' }), /^No existe ninguna página publicada .* Use search_pages para encontrar la URL/);
  });

  test('get_company_info: every section, as REST returns it; a bad section lists the allowed values', async (ctx) => {
    for (const section of COMPANY_SECTIONS) {
      const info = await ok(ctx, 'get_company_info', section === 'all' ? {} : { section });
      assert.equal(info, (await rest(ctx.api, 'get_company_info', { section })).json(), section);
    }
    assertToolError(await call(ctx, 'get_company_info', { section: 'precios' }), /section\. Valores admitidos: all, contact, service_model, coverage, services\./);
  });

  test('get_quota: without a token or without quota:read → a tool error naming the scope; with it → the Quota', async (ctx) => {
    assertToolError(await call(ctx, 'get_quota'), /get_quota necesita un token Bearer con el alcance quota:read.*oauth\/register/);

    const contentOnly = await ctx.api.tokens.issue('client-contenido', ['content:read']);
    const limited = await connectClient(ctx.api, { sdk: gen.sdk, headers: { Authorization: `Bearer ${contentOnly.access_token}` } });
    try {
      assertToolError((await limited.client.callTool({ name: 'get_quota' })) as CallToolResult, /no tiene el alcance quota:read \(tiene: content:read\)/);
    } finally {
      await limited.client.close();
    }

    const full = await ctx.api.tokens.issue('client-completo', ['content:read', 'quota:read']);
    const identified = await connectClient(ctx.api, { sdk: gen.sdk, headers: { Authorization: `Bearer ${full.access_token}` } });
    try {
      const { client } = identified;
      await client.listTools();
      await client.callTool({ name: 'search_pages', arguments: { query: 'fuga de agua' } });
      const quota = assertStructured(ctx.tools.get('get_quota')!, (await client.callTool({ name: 'get_quota' })) as CallToolResult);
      assert.equal({ ...quota, reset_seconds: 0 }, {
        client_id: 'client-completo', scope: 'content:read quota:read', policy: 'identificado',
        limit: 1500, window_seconds: 60, used: 2, remaining: 1498, reset_seconds: 0,
      }, 'the connection and tools/list are not counted; the search and this call are');
      const headers = identified.captured.lastMcp().headers;
      assert.is(headers.get('ratelimit-remaining'), '1498');
      assert.is(headers.get('ratelimit-reset'), String(quota.reset_seconds));
    } finally {
      await identified.client.close();
    }
  });

  test('unknown tool → JSON-RPC error -32602 (not a tool result)', async ({ mcp }) => {
    try {
      await mcp.client.callTool({ name: 'book_service', arguments: {} });
      assert.unreachable('an unknown tool must fail');
    } catch (err) {
      assert.is((err as { code?: number }).code, -32602);
      assert.match(String(err), 'Herramienta desconocida: book_service. Herramientas disponibles: search_pages, read_page, get_company_info, get_quota.');
      assert.not.match(String(err), /MCP error -32602: MCP error/);
    }
  });

  test('an argument the tool does not declare → JSON-RPC error -32602 naming it, counted like any call', async (ctx) => {
    for (const [name, args, extra, declared] of [
      ['get_company_info', { section: 'contact', seccion: 'contact' }, 'seccion', 'admite: section'],
      ['search_pages', { query: 'fontanero', ciudad: 'madrid' }, 'ciudad', 'admite: query, city, limit, cursor'],
      ['read_page', { url: 'fontaneria', page: 2 }, 'page', 'admite: url, offset, version'],
    ] as const) {
      const before = Number(ctx.mcp.captured.lastMcp().headers.get('ratelimit-remaining') ?? NaN);
      try {
        await ctx.mcp.client.callTool({ name, arguments: args, _meta: { progressToken: 'p' } });
        assert.unreachable(`${name}: an undeclared argument must fail`);
      } catch (err) {
        assert.is((err as { code?: number }).code, -32602, String(err));
        assert.match(String(err), `Parámetro no válido: ${extra}. ${name} no lo admite; ${declared}.`);
      }
      const after = Number(ctx.mcp.captured.lastMcp().headers.get('ratelimit-remaining'));
      if (!Number.isNaN(before)) assert.ok(after < before, `${name}: counted (${before} → ${after})`);
    }
    // `_meta` is the request's, not an argument: a call with it and only declared arguments runs.
    await ok(ctx, 'get_company_info', { section: 'contact' });
  });

  test('every counted result carries the rate-limit state in _meta', async (ctx) => {
    const result = await call(ctx, 'get_company_info', { section: 'contact' });
    const meta = result._meta?.['agentes/ratelimit'] as Record<string, unknown>;
    const headers = ctx.mcp.captured.lastMcp().headers;
    assert.equal(meta, {
      policy: 'anonimo', limit: 1000,
      remaining: Number(headers.get('ratelimit-remaining')), reset_seconds: Number(headers.get('ratelimit-reset')),
    });
  });

  test.run();
}

for (const gen of GENERATIONS) toolTests(gen);
