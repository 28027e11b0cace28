/**
 * Pages as MCP resources, through the SDK's own client: the template, the paged list, and
 * resources/read returning read_page's Markdown (text/markdown) with its continuation, counted
 * on the caller's read_page window.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CONTINUATION_META, listPages, MARKDOWN } from '../../../server/mcp/resources.ts';
import { qs, request } from '../../helpers/http.ts';
import { createReadModel, sharedReadModel } from '../../helpers/read-model.ts';
import { startTestServer, withTestServer, type TestServer } from '../../helpers/server.ts';
import { waitUntil } from '../../helpers/wait.ts';
import { connectClient, rpc } from './harness.ts';

async function withClient(fn: (api: TestServer, client: Awaited<ReturnType<typeof connectClient>>['client']) => Promise<void>): Promise<void> {
  const api = await startTestServer({ env: { RATE_LIMIT_ANONYMOUS: '1000' } });
  const { client } = await connectClient(api);
  try {
    await fn(api, client);
  } finally {
    await client.close();
    await api.close();
  }
}

test('template and list: every page, paged, as text/markdown', () => withClient(async (api, client) => {
  const { resourceTemplates } = await client.listResourceTemplates();
  assert.is(resourceTemplates.length, 1);
  assert.is(resourceTemplates[0]!.uriTemplate, `${api.config.siteUrl}/{+path}`);
  assert.is(resourceTemplates[0]!.mimeType, MARKDOWN);
  const uris: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listResources(cursor === undefined ? {} : { cursor });
    uris.push(...page.resources.map((r) => r.uri));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  assert.equal(uris, api.model.current().pages.map((p) => p.url));
}));

test('resources/read: read_page\'s Markdown; a long page part by part through _meta; counted as read_page', () => withClient(async (api, client) => {
  const fixture = await sharedReadModel();
  const first = await client.readResource({ uri: fixture.longPage.url });
  const rest = (await request(`${api.base}/read_page${qs({ url: fixture.longPage.url })}`)).json();
  assert.is(first.contents[0]!.mimeType, MARKDOWN);
  assert.is((first.contents[0] as { text: string }).text, rest.markdown);
  const parts: string[] = [];
  for (let uri: string | null = fixture.longPage.url; uri !== null;) {
    const read = await client.readResource({ uri });
    const content = read.contents[0] as { text: string; _meta: Record<string, { next: string | null }> };
    parts.push(content.text);
    uri = content._meta[CONTINUATION_META]!.next;
  }
  assert.ok(parts.length > 1);
  assert.is(parts.join(''), fixture.longPage.markdown);

  const raw = await rpc(api, { jsonrpc: '2.0', id: 9, method: 'resources/read', params: { uri: fixture.longPage.url } });
  assert.match(String(raw.headers.ratelimit), /^"anonimo";r=\d+;t=\d+$/);
  assert.is(raw.json().result._meta['agentes/ratelimit'].limit, 1000);
}));

test('resources/read errors: -32602 with data {uri} for a page that does not exist (MCP 2026-07-28, and the SDK on every revision), -32602 for a bad URI or offset', () => withClient(async (api) => {
  const read = async (uri: string) => (await rpc(api, { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri } })).json().error;
  const missing = await read(`${api.config.siteUrl}/no-existe/`);
  assert.is(missing.code, -32602);
  assert.equal(missing.data, { uri: `${api.config.siteUrl}/no-existe/` });
  assert.match(missing.message, 'search_pages');
  assert.is((await read('no es una URI')).code, -32602);
  assert.is((await read(`${api.config.siteUrl}/servicios/fontaneria/?offset=abc`)).code, -32602);
  assert.is((await read(`${api.config.siteUrl}/servicios/fontaneria/?offset=999999`)).code, -32602);
}));

test('the page list is built once per build, and the next build\'s list is served once it is loaded', async () => {
  const fixture = await createReadModel({ zonePages: 150 });
  try {
    await withTestServer({ fixture, env: { RATE_LIMIT_ANONYMOUS: '1000', READ_MODEL_WATCH: 'on' } }, async (api) => {
      const model = api.model.current();
      for (const cursor of [undefined, '100']) assert.is(listPages(model, cursor), listPages(model, cursor), `start ${cursor ?? 0}: the same list`);
      const titleOf = async (slug: string) => {
        const { resources } = (await rpc(api, { jsonrpc: '2.0', id: 1, method: 'resources/list' })).json().result as { resources: { name: string; title: string }[] };
        return resources.find((r) => r.name === slug)?.title;
      };
      assert.is(await titleOf('fontaneria'), 'Fontanería');
      await createReadModel({ dir: fixture.dir, editPages: (pages) => pages.map((p) => (p.slug === 'fontaneria' ? { ...p, title: 'Fontanería urgente' } : p)) });
      await waitUntil('the new build loaded', () => api.model.current() !== model);
      assert.is(await titleOf('fontaneria'), 'Fontanería urgente');
    });
  } finally {
    await fixture.remove();
  }
});

test.run();
