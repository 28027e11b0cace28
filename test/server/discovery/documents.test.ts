/**
 * agents.md, auth.md, llms.txt and llms-full.txt: written from the Config (non-default limits
 * show through), every code and operation named, every link on this server alive, the llmstxt.org
 * shape, and llms*.txt following a new read-model build.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CLIENT_IDLE_SECONDS } from '../../../server/auth/clients.ts';
import { TOKEN_TTL_SECONDS } from '../../../server/auth/tokens.ts';
import { parseConfig } from '../../../server/config.ts';
import { buildAgentsMd } from '../../../server/discovery/agents-md.ts';
import { API_CODES } from '../../../server/errors.ts';
import { DISCOVERY_PATHS } from '../../../server/discovery/links.ts';
import { BUNDLE_SCRIPT } from '../../../formats/pagefind-bundle.ts';
import type { OpenedModel } from '../../../server/read-model/holder.ts';
import { LIMITS as OAUTH_LIMITS } from '../../../server/auth/oauth-limits.ts';
import { createReadModel } from '../../helpers/read-model.ts';
import { request } from '../../helpers/http.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

const ENV = { RATE_LIMIT_ANONYMOUS: '45', RATE_LIMIT_IDENTIFIED: '450', RATE_LIMIT_WINDOW: '30', READ_PAGE_MAX_CHARS: '12345' };

let site: TestServer;
let agents = '';
let auth = '';
test.before(async () => {
  site = await startTestServer({ env: ENV, siteUrlIsOrigin: true });
  agents = (await request(`${site.origin}/agents.md`)).text();
  auth = (await request(`${site.origin}/auth.md`)).text();
});
test.after(async () => { await site.close(); });

const urlsIn = (text: string, origin: string) =>
  [...new Set([...text.matchAll(/https?:\/\/[^\s)`"'<>|]+/g)].map((m) => m[0].replace(/[.,:;]+$/, '')))].filter((u) => u.startsWith(origin));

/** The paths this test server answers (no built Astro site, no MCP yet). */
function servedHere(url: string): boolean {
  const path = new URL(url).pathname;
  return (Object.values(DISCOVERY_PATHS) as string[]).includes(path) && path !== DISCOVERY_PATHS.openidConfiguration;
}

test('agents.md: what the site is and is not, in Spanish, from the live limits', () => {
  assert.match(agents, /^# agents\.md — 127\.0\.0\.1:\d+\n/);
  for (const phrase of ['solo lectura', 'no cobra', 'no se paga nada en línea', 'profesional colaborador', 'Producción es el sandbox', 'No reserva']) {
    assert.ok(agents.includes(phrase), phrase);
  }
  assert.ok(agents.includes('45 peticiones cada 30 segundos por dirección IP'), 'anonymous quota from the Config');
  assert.ok(agents.includes('450 peticiones cada 30 segundos por `client_id`'), 'identified quota from the Config');
  assert.ok(agents.includes('RateLimit-Policy: "anonimo";q=45;w=30'));
  assert.ok(agents.includes('Una página de más de 12345 caracteres llega en partes'), 'part size from the Config');
  assert.not.ok(/\b60 peticiones|\b600 peticiones/.test(agents), 'no default number typed by hand');
});

test('agents.md: the normal flow, every operation, every error code, 429 handling, MCP and the discovery links', () => {
  const s = site.origin;
  const base = site.config.baseUrl;
  const flow = ['search_pages', 'read_page', 'get_company_info'].map((op) => agents.indexOf(`${base}/${op}`));
  assert.ok(flow.every((i) => i > 0) && flow[0]! < flow[1]! && flow[1]! < flow[2]!, 'search → read → company, in that order');
  for (const code of Object.values(API_CODES)) assert.ok(agents.includes(`\`${code}\``), code);
  assert.ok(agents.includes('Retry-After'));
  assert.ok(agents.includes(`POST ${s}/mcp`));
  assert.ok(agents.includes('revisiones `2026-07-28`, `2025-11-25`, `2025-06-18`, `2025-03-26`: `2026-07-28` sin `initialize`, con `server/discover`'), 'the MCP revisions');
  for (const tool of ['search_pages', 'read_page', 'get_company_info', 'get_quota']) assert.ok(agents.includes(`- \`${tool}\``), tool);
  for (const link of [`${s}/openapi.json`, `${s}/auth.md`, `${s}/.well-known/oauth-authorization-server`, `${s}/.well-known/oauth-protected-resource/wp-json/agentes/v1`,
    `${s}/.well-known/api-catalog`, `${s}/desarrolladores/#versionado`, `${s}/llms.txt`]) {
    assert.ok(agents.includes(link), link);
  }
  assert.ok(agents.includes('Ninguna versión está anunciada como obsoleta.'));
  assert.ok(agents.includes('## In English'));
});

test('agents.md and llms.txt: Pagefind\'s static bundle, outside the API and its quota, without its lexicon', async () => {
  const script = `${site.origin}${BUNDLE_SCRIPT}`;
  const llms = (await request(`${site.origin}/llms.txt`)).text();
  for (const [name, text] of [['agents.md', agents], ['llms.txt', llms]] as const) {
    assert.ok(text.includes(script), `${name}: ${script}`);
    assert.match(text, /(?:no pasa|sin pasar) por la API ni (?:gasta|gastar) su cuota/, `${name}: outside the API and its quota`);
    for (const phrase of ['CDN', 'sinónimos', 'otros idiomas', 'erratas', 'intenciones', 'search_pages']) assert.ok(text.includes(phrase), `${name}: "${phrase}"`);
  }
  const english = agents.slice(agents.indexOf('## In English'));
  assert.ok(english.includes(`${script} (Pagefind) is the site's plain keyword search`), 'agents.md, in English');
  assert.ok(english.includes('for the best answers use `search_pages`'), 'agents.md, in English: search_pages');
});

test('agents.md announces a configured deprecation with its dates', () => {
  const md = buildAgentsMd(parseConfig({ API_DEPRECATED_AT: '2030-01-01T00:00:00Z', API_SUNSET_AT: '2030-06-01T00:00:00Z' }));
  assert.ok(md.includes('**v1 está anunciada como obsoleta** desde Tue, 01 Jan 2030 00:00:00 GMT; se retira el Sat, 01 Jun 2030 00:00:00 GMT.'));
  assert.not.ok(md.includes('Ninguna versión está anunciada como obsoleta.'));
});

test('auth.md: H1 names auth.md; registration → token → use → revoke; default scope; limits from the OAuth modules', () => {
  assert.match(auth, /^# auth\.md — /);
  const steps = ['## 1. Registrarse', '## 2. Pedir un token', '## 3. Usar el token', '## 6. Revocar'].map((h) => auth.indexOf(h));
  assert.ok(steps.every((i, k) => i > 0 && (k === 0 || i > steps[k - 1]!)), 'steps in order');
  assert.ok(auth.includes('una petición sin `scope` recibe todos los alcances registrados del cliente (`content:read quota:read`'));
  assert.ok(auth.includes(`caduca a los ${TOKEN_TTL_SECONDS} segundos`));
  assert.ok(auth.includes(`| Registro | ${OAUTH_LIMITS.register.max} por hora, por IP |`));
  assert.ok(auth.includes(`| Endpoint de tokens | ${OAUTH_LIMITS.token.max} por minuto, por IP |`));
  assert.ok(auth.includes(`${CLIENT_IDLE_SECONDS / 86400} días`));
  assert.ok(auth.includes('de 45 a 450 peticiones cada 30 segundos'));
  assert.ok(auth.includes('en las herramientas y en los recursos (las páginas): `tools/call` y `resources/read` cuentan'), 'MCP resources use the token too');
  assert.ok(auth.includes(`RateLimit-Limit: 450`));
  for (const e of ['invalid_request', 'invalid_client', 'invalid_client_metadata', 'unsupported_grant_type', 'invalid_scope', 'invalid_target', 'rate_limited']) {
    assert.ok(auth.includes(`\`${e}\``), e);
  }
  const blocks = [...auth.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  assert.ok(blocks.length >= 6);
  for (const line of blocks.flatMap((b) => b.trim().split('\n'))) {
    assert.match(line, /^(curl |echo |[A-Z_]+=\$\()/, `machine-runnable line: ${line}`);
  }
});

test('every link in agents.md, auth.md and llms.txt to a document of this server answers 200', async () => {
  const llms = (await request(`${site.origin}/llms.txt`)).text();
  const urls = [agents, auth, llms].flatMap((t) => urlsIn(t, site.origin)).filter(servedHere);
  assert.ok(urls.length >= 8, urls.join('\n'));
  for (const url of new Set(urls)) assert.is((await request(url)).status, 200, url);
});

test('llms.txt: llmstxt.org shape; every key page linked once, pages per city under Optional; each link is a published page', async () => {
  const text = (await request(`${site.origin}/llms.txt`)).text();
  const lines = text.split('\n');
  assert.is(lines[0], '# Agentes Hogar', 'H1: the brand from the read model');
  assert.is(lines[1], '');
  assert.match(lines[2]!, /^> \S/);
  const sections = lines.filter((l) => l.startsWith('## '));
  assert.ok(sections.includes('## Servicios') && sections.includes('## Guías de averías'));
  assert.is(sections[sections.length - 1], '## Optional');
  assert.ok(lines.every((l) => !l.startsWith('# ') || l === lines[0]), 'one H1');
  const linkLine = /^- \[([^\]]+)\]\((https?:\/\/[^)\s]+)\)(: .+)?$/;
  for (const l of lines.filter((x) => x.startsWith('- '))) assert.match(l, linkLine);

  const model = site.running.deps.model.current();
  const optional = text.slice(text.indexOf('## Optional'));
  for (const page of model.pages) {
    const count = text.split(`](${page.url})`).length - 1;
    assert.is(count, 1, `${page.path} linked once`);
    assert.is(optional.includes(`](${page.url})`), page.kind === 'service-city', `${page.path} in Optional iff service-city`);
    const res = await request(`${site.config.baseUrl}/read_page?url=${encodeURIComponent(page.url)}`);
    assert.is(res.status, 200, `${page.url} is readable with read_page`);
  }
});

test('llms-full.txt: the full Markdown of the key pages, not the per-city pages', async () => {
  const text = (await request(`${site.origin}/llms-full.txt`)).text();
  assert.match(text, /^# Agentes Hogar — texto completo\n/);
  const model = site.running.deps.model.current();
  for (const page of model.pages) {
    const included = text.includes((await model.textOf(page)).markdown.trim());
    assert.is(included, page.kind !== 'service-city', page.path);
    if (included) assert.ok(text.includes(`URL: ${page.url}`), page.path);
  }
  const long = model.pages.find((p) => p.kind === 'guide')!;
  const longText = (await model.textOf(long)).markdown;
  assert.ok(longText.length > 12345 && text.includes(longText.trim()), 'never cut, unlike read_page');
});

test('llms.txt and llms-full.txt follow a new read-model build', async () => {
  const fixture = await createReadModel();
  const own = await startTestServer({ fixture, siteUrlIsOrigin: true });
  try {
    const before = await request(`${own.origin}/llms.txt`);
    const full = await request(`${own.origin}/llms-full.txt`);
    await createReadModel({
      dir: fixture.dir,
      editPages: (pages) => pages.map((p) => (p.slug === 'fontaneria'
        ? { ...p, title: 'Fontanería urgente', markdown: p.markdown + '\n\nServicio urgente las 24 horas.' }
        : p)),
    });
    await (own.running.deps.model as OpenedModel).reload();
    const after = await request(`${own.origin}/llms.txt`, { headers: { 'if-none-match': String(before.headers.etag) } });
    assert.is(after.status, 200, 'the old ETag no longer matches');
    assert.ok(after.text().includes('[Fontanería urgente]('));
    assert.not.ok(before.text().includes('[Fontanería urgente]('));
    const fullAfter = await request(`${own.origin}/llms-full.txt`);
    assert.ok(fullAfter.text().includes('Servicio urgente las 24 horas.'));
    assert.is.not(fullAfter.headers.etag, full.headers.etag);
  } finally {
    await own.close();
    await fixture.remove();
  }
});

test.run();
