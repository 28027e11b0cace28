/**
 * The built /desarrolladores/ page against the OpenAPI document the server publishes (same
 * Config): every operation with its method and URL, every parameter with its required flag,
 * bounds, enumeration and default, every response status, the security, the versioning policy
 * at #versionado and the links to the discovery documents and the sandbox.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Element, Root } from 'hast';
import { select, selectAll } from 'hast-util-select';
import { toText } from 'hast-util-to-text';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseConfig } from '../../server/config.ts';
import { buildOpenApi } from '../../server/discovery/openapi.ts';
import { builtReadModel, builtSiteDir } from '../helpers/built-site.ts';

type Json = Record<string, any>;

const text = (node: Element | Root | undefined) => (node ? toText(node).replace(/\s+/g, ' ').trim() : '');

async function developersPage(): Promise<Root> {
  await builtReadModel();
  const file = path.join(builtSiteDir(), 'desarrolladores', 'index.html');
  return unified().use(rehypeParse).parse(fs.readFileSync(file, 'utf8'));
}

/** The text from the heading `#id` (an h2, or an h3 when `level` says so) to the next heading of its level or above. */
function sectionText(tree: Root, id: string, level: 'h2' | 'h3' = 'h2'): string {
  const main = select('main', tree)!;
  const start = main.children.findIndex((n) => n.type === 'element' && n.properties.id === id);
  assert.ok(start >= 0, `${level}#${id}`);
  const ends = level === 'h2' ? ['h2'] : ['h2', 'h3'];
  const parts: string[] = [];
  for (const node of main.children.slice(start + 1)) {
    if (node.type === 'element' && ends.includes(node.tagName)) break;
    if (node.type === 'element') parts.push(text(node));
  }
  return parts.join(' ');
}

const doc = buildOpenApi(parseConfig());
const operations = Object.entries(doc.paths).flatMap(([p, item]) =>
  Object.entries(item).map(([method, op]) => ({ path: p, method: method.toUpperCase(), op: op as Json })));

test('every operation of the OpenAPI document has its section, method, URL and security', async () => {
  const tree = await developersPage();
  assert.ok(operations.length >= 4);
  for (const { path: p, method, op } of operations) {
    const heading = select(`h3#${op.operationId}`, tree);
    assert.ok(heading, `heading #${op.operationId}`);
    const section = select(`section[aria-labelledby="${op.operationId}"]`, tree);
    assert.ok(section, `section of ${op.operationId}`);
    const body = text(section);
    assert.ok(body.includes(`${method} ${doc.servers[0]!.url}${p}`), `${op.operationId}: ${method} and URL`);
    assert.ok(body.includes(op.summary), `${op.operationId}: summary`);
    const scopes = (op.security as Json[]).flatMap((req) => Object.values(req).flat() as string[]);
    for (const scope of scopes) assert.ok(body.includes(scope), `${op.operationId}: scope ${scope}`);
    const anonymous = (op.security as Json[]).some((req) => Object.keys(req).length === 0);
    assert.ok(body.includes(anonymous ? 'Autenticación: opcional' : 'Autenticación: obligatoria'), `${op.operationId}: ${anonymous ? 'optional' : 'required'} token`);
    for (const status of Object.keys(op.responses)) {
      assert.ok(select(`tr[data-status="${status}"]`, section), `${op.operationId}: response ${status}`);
    }
  }
});

test('every parameter: name, required flag, type, bounds, enumeration and default', async () => {
  const tree = await developersPage();
  let count = 0;
  for (const { op } of operations) {
    const section = select(`section[aria-labelledby="${op.operationId}"]`, tree)!;
    const rows = selectAll('tr[data-param]', section);
    assert.is(rows.length, (op.parameters as Json[]).length, `${op.operationId}: one row per parameter`);
    for (const param of op.parameters as Json[]) {
      count++;
      const row = select(`tr[data-param="${param.name}"]`, section);
      assert.ok(row, `${op.operationId}: parameter ${param.name}`);
      const cells = selectAll('th, td', row!).map((c) => text(c));
      const [name, where, required, type, bounds, values, dflt] = cells;
      const s = param.schema as Json;
      assert.is(name, param.name);
      assert.is(where, param.in);
      assert.is(required, param.required ? 'sí' : 'no', `${param.name}: required`);
      assert.is(type, s.type, `${param.name}: type`);
      for (const key of ['minLength', 'maxLength', 'minimum', 'maximum']) {
        if (s[key] !== undefined) assert.ok(bounds!.includes(String(s[key])), `${param.name}: ${key} ${s[key]} in "${bounds}"`);
      }
      if (s.enum) assert.equal(values!.split(', '), s.enum.map(String), `${param.name}: enumeration`);
      else assert.is(values, '—');
      assert.is(dflt, s.default === undefined ? '—' : String(s.default), `${param.name}: default`);
    }
  }
  assert.ok(count >= 6, 'the document has the contract\'s parameters');
});

test('schemas, headers, scopes and OAuth endpoints of the document are on the page', async () => {
  const tree = await developersPage();
  const page = text(tree);
  for (const name of Object.keys(doc.components.schemas)) assert.ok(select(`#esquema-${name}`, tree), `schema ${name}`);
  for (const name of Object.keys(doc.components.headers as Json)) assert.ok(page.includes(name), `header ${name}`);
  const flow = (doc.components.securitySchemes as Json).oauth2.flows.clientCredentials;
  for (const scope of Object.keys(flow.scopes)) assert.ok(page.includes(scope), `scope ${scope}`);
  assert.ok(page.includes(flow.tokenUrl), 'token endpoint');
  for (const endpoint of ['/oauth/register', '/oauth/token', '/oauth/revoke', '/oauth/introspect', '/agent/identity']) {
    assert.ok(page.includes(endpoint), endpoint);
  }
});

test('#versionado states the policy; links to the discovery documents and the sandbox', async () => {
  const tree = await developersPage();
  const policy = sectionText(tree, 'versionado');
  for (const phrase of ['API-Version: 1', 'v2', '90 días', 'Deprecation', 'RFC 9745', 'Sunset', 'RFC 8594', 'deprecation', 'no hay ninguna versión en retirada']) {
    assert.ok(policy.includes(phrase), `versioning: "${phrase}"`);
  }
  assert.match(policy, /Deprecation: @\d+/);
  assert.match(policy, /Sunset: \w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT/);

  const hrefs = new Set(selectAll('main a[href]', tree).map((a) => String(a.properties.href)));
  for (const href of ['/openapi.json', '/agents.md', '/auth.md', '/.well-known/api-catalog', '/api/sandbox/']) {
    assert.ok(hrefs.has(href), `link to ${href}`);
  }
});

test('#pagefind: Pagefind\'s static bundle, outside the API and its quota, plain keyword search; search_pages for the best answers', async () => {
  const text = sectionText(await developersPage(), 'pagefind', 'h3');
  const script = `${parseConfig().siteUrl}/pagefind/pagefind.js`;
  for (const phrase of [script, `await import("${script}")`, 'pagefind.search("fontanero"', 'CDN', 'no pasa por la API ni gasta su cuota',
    'sin el léxico de la API', 'sinónimos, otros idiomas, erratas ni intenciones', 'usa search_pages']) {
    assert.ok(text.includes(phrase), `"${phrase}" in: ${text}`);
  }
});

test('#mcp: the revisions the endpoint speaks, the stateless one first, the pages as resources and what counts', async () => {
  const mcp = sectionText(await developersPage(), 'mcp');
  assert.match(mcp, 'Revisiones: 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26. Con 2026-07-28 no hay initialize: server/discover');
  assert.match(mcp, 'Mcp-Method');
  assert.match(mcp, /resources\/read de la URL de una página devuelve su Markdown como read_page/);
  assert.match(mcp, 'En la cuota de la API solo cuentan tools/call y resources/read');
  assert.match(mcp, 'cuentan en una ventana aparte del 2 × la cuota (políticas mcp-anonimo y mcp-identificado');
  assert.match(mcp, 'Un lote JSON-RPC (solo en 2025-03-26) lleva como mucho 20 mensajes');
});

test.run();
