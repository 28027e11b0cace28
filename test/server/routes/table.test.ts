/**
 * The front door's table, without a server: the kind and label of each kind of target, the order
 * (exact entries before the prefixes that would also match), unknown paths, and one match per target.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OPERATIONS } from '../../../server/operations/index.ts';
import { createRouteTable, type RouteMatch } from '../../../server/routes/table.ts';

const routes = createRouteTable({ operations: OPERATIONS });
const B = '/wp-json/agentes/v1';
/** What a test reads of a match: kind, labels, operation name, host check. */
const seen = (m: RouteMatch) => [m.kind, `${m.label.transport}/${m.label.operation}`, m.op?.name ?? null, m.hostChecked];

test('each kind: probes (before the Host check), REST, MCP, OAuth, identity, discovery, site', () => {
  assert.equal(seen(routes.match('/healthz')), ['probe', 'web/healthz', null, false]);
  assert.equal(seen(routes.match('/readyz?verbose')), ['probe', 'web/readyz', null, false]);
  assert.equal(seen(routes.match(`${B}/read_page?url=/`)), ['rest', 'rest/read_page', 'read_page', true]);
  assert.equal(seen(routes.match(`${B}/quota/`)), ['rest', 'rest/get_quota', 'get_quota', true]);
  assert.equal(seen(routes.match('/mcp')), ['mcp', 'mcp/null', null, true]);
  assert.equal(seen(routes.match('/oauth/token')), ['oauth', 'web/oauth_token', null, true]);
  assert.equal(seen(routes.match('/oauth/authorize?client_id=x')), ['oauth', 'web/oauth_authorize', null, true]);
  assert.equal(seen(routes.match('/agent/identity')), ['identity', 'web/agent_identity', null, true]);
  assert.equal(seen(routes.match('/openapi.json')), ['discovery', 'web/discovery', null, true]);
  assert.equal(seen(routes.match('/.well-known/oauth-protected-resource/mcp')), ['discovery', 'web/discovery', null, true]);
  assert.equal(seen(routes.match('/precios/')), ['site', 'web/site', null, true]);
  // The search results page is the site's, counted apart.
  assert.equal(seen(routes.match('/buscar/?q=grifo')), ['site', 'web/search_page', null, true]);
});

test('order: an exact entry wins over a prefix that also matches it', () => {
  // The MCP server card is a discovery document, not the MCP endpoint.
  assert.equal(seen(routes.match('/mcp/server-card')), ['discovery', 'web/discovery', null, true]);
  // Under /.well-known/, the named documents and the unknown ones are all discovery.
  assert.equal(seen(routes.match('/.well-known/unheard-of')), ['discovery', 'web/discovery', null, true]);
  const kinds = routes.entries.map((e) => e.kind);
  assert.equal(kinds.slice(0, 2), ['probe', 'probe'], 'the probes come first: they skip the Host check');
  assert.is(kinds.at(-1), 'site', 'the site is the last entry and takes everything');
  assert.ok(routes.entries.at(-1)!.prefix);
});

test('unknown paths: under the API, an unknown operation; elsewhere, the site', () => {
  for (const url of [B, `${B}/`, `${B}?x=1`, `${B}/nope`, `${B}/read_page/extra`, `${B}/read_page#x`]) {
    assert.equal(seen(routes.match(url)), ['rest', 'rest/unknown', null, true], url);
  }
  // Only begins like the base: the site's 404, counted with the API's unknown paths.
  assert.equal(seen(routes.match(`${B}x`)), ['site', 'rest/unknown', null, true]);
  for (const url of ['/', '/healthz/', '/MCP', '/oauth/token/', '/agent/identity/x', '*', 'http://host/healthz']) {
    assert.equal(seen(routes.match(url)), ['site', 'web/site', null, true], url);
  }
});

test('a match carries the path and query string, and one target is matched once', () => {
  const m = routes.match(`${B}/search_pages?query=fuga&limit=2`);
  assert.is(m.path, `${B}/search_pages`);
  assert.is(m.search, 'query=fuga&limit=2');
  assert.is(routes.match(`${B}/search_pages?query=fuga&limit=2`), m, 'remembered');
  // Labels are shared objects, one per value, so a meter can key on them.
  assert.is(routes.match(`${B}/read_page`).label, routes.match(`${B}/read_page/?url=/`).label);
  assert.is(routes.match('/nowhere').label, routes.match('/precios/').label);
});

test.run();
