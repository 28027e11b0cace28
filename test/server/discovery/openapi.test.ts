/**
 * /openapi.json against conformance.md §10 and the contract's "Endpoints", field by field, and
 * through a real OpenAPI linter (@redocly/cli, recommended rules).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { z } from 'zod';
import { SCOPES } from '../../../server/auth/types.ts';
import { parseConfig, ROOT } from '../../../server/config.ts';
import { buildOpenApi, type OpenApiDocument } from '../../../server/discovery/openapi.ts';
import { CITY_SLUGS } from '../../../formats/schemas/cities.ts';
import {
  CityEntrySchema, CompanyInfoSchema, COMPANY_SECTIONS, ErrorSchema, PageSchema, QuotaSchema,
  SearchResponseSchema, SearchResultSchema, ServiceEntrySchema, ServiceModelSchema,
} from '../../../formats/schemas/resources.ts';

const PRODUCTION = parseConfig({ SITE_URL: 'https://www.avisohogar.es' });
const doc = buildOpenApi(PRODUCTION);

type Json = Record<string, any>;

function deref(value: any): any {
  let v = value;
  while (v && typeof v.$ref === 'string') {
    v = v.$ref.slice(2).split('/').reduce((node: any, part: string) => node?.[part], doc);
  }
  return v;
}

function walk(node: unknown, visit: (key: string, value: unknown, at: string) => void, at = '#'): void {
  if (Array.isArray(node)) node.forEach((v, i) => walk(v, visit, `${at}/${i}`));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      visit(k, v, `${at}/${k}`);
      walk(v, visit, `${at}/${k}`);
    }
  }
}

const OPS = {
  search_pages: '/search_pages',
  read_page: '/read_page',
  get_company_info: '/get_company_info',
  get_quota: '/quota',
} as const;

const op = (id: keyof typeof OPS): Json => doc.paths[OPS[id]]!.get as Json;
const param = (id: keyof typeof OPS, name: string): Json => op(id).parameters.find((p: Json) => p.name === name);

test('document header: OpenAPI 3.1, contract version 1.0.0, the API base as server', () => {
  assert.match(doc.openapi, /^3\.1\.\d+$/);
  assert.is((doc.info as Json).version, '1.0.0');
  assert.type((doc.info as Json).title, 'string');
  assert.equal(doc.servers.map((s) => s.url), ['https://www.avisohogar.es/wp-json/agentes/v1']);
});

test('exactly the four operations, GET only, with their operationIds', () => {
  assert.equal(Object.keys(doc.paths).sort(), Object.values(OPS).sort());
  for (const [id, p] of Object.entries(OPS)) {
    assert.equal(Object.keys(doc.paths[p]!), ['get'], `${p} has only GET`);
    assert.is((doc.paths[p]!.get as Json).operationId, id);
    assert.type((doc.paths[p]!.get as Json).summary, 'string');
  }
});

test('search_pages parameters: bounds, enum and defaults of the contract', () => {
  const q = param('search_pages', 'query');
  assert.equal({ in: q.in, required: q.required, schema: q.schema }, { in: 'query', required: true, schema: { type: 'string', minLength: 2, maxLength: 200 } });
  const city = param('search_pages', 'city');
  assert.is(city.required, false);
  assert.is(city.schema.type, 'string');
  assert.equal(city.schema.enum, [...CITY_SLUGS, 'todas']);
  assert.is(city.schema.default, 'todas');
  const limit = param('search_pages', 'limit');
  assert.is(limit.required, false);
  assert.equal(limit.schema, { type: 'integer', minimum: 1, maximum: 25, default: 8 });
  const cursor = param('search_pages', 'cursor');
  assert.is(cursor.required, false);
  assert.is(cursor.schema.type, 'string');
  assert.is(cursor.schema.maxLength, 12);
  assert.is(op('search_pages').parameters.length, 4);
});

test('read_page, get_company_info and quota parameters', () => {
  const url = param('read_page', 'url');
  assert.equal({ required: url.required, schema: url.schema }, { required: true, schema: { type: 'string', minLength: 1, maxLength: 300 } });
  const offset = param('read_page', 'offset');
  assert.equal({ required: offset.required, schema: offset.schema }, { required: false, schema: { type: 'integer', minimum: 0, maximum: 999999, default: 0 } });
  const version = param('read_page', 'version');
  assert.equal({ required: version.required, schema: version.schema }, { required: false, schema: { type: 'string', pattern: '^[0-9a-f]{12}$' } });
  assert.match(String(version.description), 'agentes_page_changed');
  assert.is(op('read_page').parameters.length, 3);
  const section = param('get_company_info', 'section');
  assert.is(section.required, false);
  assert.equal(section.schema.enum, [...COMPANY_SECTIONS]);
  assert.is(section.schema.default, 'all');
  assert.equal(op('get_quota').parameters, []);
  for (const id of Object.keys(OPS) as (keyof typeof OPS)[]) {
    for (const p of op(id).parameters) assert.type(p.description, 'string', `${id}.${p.name} is described`);
  }
});

test('responses: 200 and every error status, with the Error schema and the headers', () => {
  const content = ['200', '304', '400', '401', '404', '429', '500', '503'];
  for (const id of ['search_pages', 'read_page', 'get_company_info'] as const) {
    assert.equal(Object.keys(op(id).responses), content, `${id} statuses`);
  }
  assert.equal(Object.keys(op('get_quota').responses), ['200', '401', '403', '429', '500', '503']);

  const rateLimit = ['RateLimit', 'RateLimit-Policy', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
  for (const id of Object.keys(OPS) as (keyof typeof OPS)[]) {
    for (const [status, raw] of Object.entries(op(id).responses)) {
      const r = deref(raw);
      const headers = Object.fromEntries(Object.entries(r.headers ?? {}).map(([k, v]) => [k, deref(v)]));
      assert.ok(headers['API-Version']?.required, `${id} ${status}: API-Version`);
      if (status !== '503') for (const h of rateLimit) assert.ok(headers[h]?.required, `${id} ${status}: ${h} required`);
      if (status === '429' || status === '503') assert.ok(headers['Retry-After']?.required, `${id} ${status}: Retry-After`);
      if (status === '401') assert.ok(headers['WWW-Authenticate']?.required, `${id} 401: WWW-Authenticate`);
      for (const h of ['Deprecation', 'Sunset', 'Link']) if (status !== '503') assert.ok(headers[h] && !headers[h].required, `${id} ${status}: optional ${h}`);
      if (Number(status) >= 400) {
        assert.equal(r.content, { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } }, `${id} ${status}: Error body`);
      }
      if (status === '304') assert.is(r.content, undefined, '304 has no body');
    }
  }
  const bodies = { search_pages: 'SearchResponse', read_page: 'Page', get_company_info: 'CompanyInfo', get_quota: 'Quota' };
  for (const [id, schema] of Object.entries(bodies)) {
    assert.equal(op(id as keyof typeof OPS).responses['200'].content, { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } });
  }
  const h = doc.components.headers as Json;
  assert.equal(h['API-Version'].schema, { type: 'string', enum: ['1'] });
  assert.match('"anonimo";r=59;t=42', new RegExp(h.RateLimit.schema.pattern));
  assert.match('"identificado";q=600;w=60', new RegExp(h['RateLimit-Policy'].schema.pattern));
  assert.not.match('"anonimo";r=59;t=42', new RegExp(h['RateLimit-Policy'].schema.pattern));
});

test('security: oauth2 client credentials; anonymous allowed on content, quota:read on /quota', () => {
  const scheme = (doc.components.securitySchemes as Json).oauth2;
  assert.is(scheme.type, 'oauth2');
  assert.equal(Object.keys(scheme.flows), ['clientCredentials']);
  assert.is(scheme.flows.clientCredentials.tokenUrl, 'https://www.avisohogar.es/oauth/token');
  assert.equal(Object.keys(scheme.flows.clientCredentials.scopes), [...SCOPES]);
  for (const id of ['search_pages', 'read_page', 'get_company_info'] as const) {
    assert.equal(op(id).security, [{}, { oauth2: ['content:read'] }]);
  }
  assert.equal(op('get_quota').security, [{ oauth2: ['quota:read'] }]);
  assert.is((doc as Json).security, undefined, 'no global requirement overriding the operations');
});

test('schemas are JSON Schema 2020-12: type arrays for null, never `nullable`', () => {
  walk(doc, (key, _v, at) => assert.is.not(key, 'nullable', `nullable at ${at}`));
  walk(doc.components.schemas, (key, _v, at) => assert.ok(key !== '$schema' && key !== '$id', `${key} at ${at}`));
  const nextCursor = doc.components.schemas.SearchResponse!.properties as Json;
  assert.equal(nextCursor.next_cursor.type, ['string', 'null']);
  assert.is(nextCursor.next_cursor.maxLength, 12);
  assert.equal(doc.components.schemas.Quota!.properties && (doc.components.schemas.Quota!.properties as Json).policy.enum, ['anonimo', 'identificado']);
});

test('component schemas carry exactly the fields of the zod schemas the server validates with', () => {
  const zod: Record<string, z.ZodObject> = {
    SearchResponse: SearchResponseSchema, SearchResult: SearchResultSchema, Page: PageSchema,
    CompanyInfo: CompanyInfoSchema, ServiceModel: ServiceModelSchema, ServiceEntry: ServiceEntrySchema,
    CityEntry: CityEntrySchema, Quota: QuotaSchema, Error: ErrorSchema,
  };
  for (const [name, schema] of Object.entries(zod)) {
    const json = doc.components.schemas[name] as Json;
    const shape = schema.shape as Record<string, z.ZodType>;
    assert.equal(Object.keys(json.properties).sort(), Object.keys(shape).sort(), `${name} properties`);
    const required = Object.entries(shape).filter(([, s]) => !s.safeParse(undefined).success).map(([k]) => k).sort();
    assert.equal([...(json.required ?? [])].sort(), required, `${name} required`);
  }
  const services = ((doc.components.schemas.CompanyInfo as Json).properties.services);
  assert.equal(services, { type: 'array', items: { $ref: '#/components/schemas/ServiceEntry' } }, 'nested schemas are referenced once');
});

test('no operation is deprecated by default; all are when the version is configured as deprecated', () => {
  walk(doc, (key, _v, at) => assert.is.not(key, 'deprecated', `deprecated at ${at}`));
  const dep = buildOpenApi(parseConfig({ SITE_URL: 'https://www.avisohogar.es', API_DEPRECATED_AT: '2030-01-01T00:00:00Z', API_SUNSET_AT: '2030-06-01T00:00:00Z' }));
  for (const p of Object.values(dep.paths)) assert.is((p.get as Json).deprecated, true);
  assert.match(String((dep.info as Json).description), /obsoleta/);
});

test('the server URLs follow SITE_URL', () => {
  const local = buildOpenApi(parseConfig({ SITE_URL: 'http://127.0.0.1:8080/' }));
  assert.equal(local.servers.map((s) => s.url), ['http://127.0.0.1:8080/wp-json/agentes/v1']);
  assert.is(((local.components.securitySchemes as Json).oauth2).flows.clientCredentials.tokenUrl, 'http://127.0.0.1:8080/oauth/token');
});

// --- the real linter ------------------------------------------------------------------------

const REDOCLY = path.join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

interface LintResult { totals: { errors: number; warnings: number }; problems: { ruleId: string; severity: string; message: string }[] }

async function lint(document: object): Promise<LintResult> {
  // Its own folder as the working directory, so no stray redocly.yaml is picked up.
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-lint-'));
  try {
    const file = path.join(dir, 'openapi.json');
    await fs.writeFile(file, JSON.stringify(document, null, 2));
    const run = await promisify(execFile)(process.execPath, [REDOCLY, 'lint', file, '--extends=recommended', '--format=json'], {
      cwd: dir,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((err: { stdout?: string; stderr?: string }) => {
      // Exit status 1 means "problems found": the JSON report is still on stdout.
      if (err.stdout && err.stdout.includes('"totals"')) return { stdout: err.stdout, stderr: err.stderr ?? '' };
      throw err;
    });
    return JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as LintResult;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

test('@redocly/cli lint (recommended): no errors and no warnings', async () => {
  const result = await lint(doc);
  assert.equal(result.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`), []);
  assert.equal(result.totals, { ...result.totals, errors: 0, warnings: 0 });
});

test('@redocly/cli lint of a local SITE_URL: no errors (the localhost server is a warning by design)', async () => {
  const result = await lint(buildOpenApi(parseConfig({ SITE_URL: 'http://localhost:4321' })));
  assert.is(result.totals.errors, 0);
  assert.equal([...new Set(result.problems.map((p) => p.ruleId))], ['no-server-example.com']);
});

test('the lint step can fail: a broken document is reported', async () => {
  const broken = structuredClone(doc) as OpenApiDocument;
  delete (broken.paths['/read_page']!.get as Json).responses;
  (broken.components.schemas.Page as Json).type = 'objeto';
  const result = await lint(broken);
  assert.ok(result.totals.errors >= 2, JSON.stringify(result.problems.map((p) => p.ruleId)));
});

test.run();
