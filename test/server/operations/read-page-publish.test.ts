/**
 * read_page parts across a publish: a page changed between two part reads. A continuation that
 * carries the `version` of the first part is refused (REST 400 `agentes_page_changed`, an MCP tool
 * error, an MCP resources/read error), never answered with a part of the new text that does not
 * join the old one; without `version` an offset works as it always did; with the new version the
 * page reads whole again.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CONTINUATION_META } from '../../../server/mcp/resources.ts';
import { PageSchema, type Page } from '../../../formats/schemas/resources.ts';
import { assertError } from '../../helpers/assertions.ts';
import { qs, request } from '../../helpers/http.ts';
import { createReadModel, sharedReadModel, type ReadModelFixture } from '../../helpers/read-model.ts';
import { startTestServer, withTestServer, type TestServer } from '../../helpers/server.ts';
import { assertStructured, assertToolError, connectClient } from '../mcp/harness.ts';

/** A paragraph of 251 characters, inserted just under the guide's title. */
const INSERTED = `${'Antes de empezar, cierre la llave del gas y deje enfriar la caldera. '.repeat(4).slice(0, 249)}\n\n`;

function withInsertedParagraph(markdown: string): string {
  const afterTitle = markdown.indexOf('\n\n') + 2;
  return markdown.slice(0, afterTitle) + INSERTED + markdown.slice(afterTitle);
}

const restPart = async (api: TestServer, url: string, params: Record<string, string | number>) =>
  request(`${api.base}/read_page${qs({ url, ...params })}`);

const parsed = (res: Awaited<ReturnType<typeof request>>): Page => {
  assert.is(res.status, 200, res.text().slice(0, 300));
  return PageSchema.parse(res.json());
};

/** Every part of `url` over REST, each asked for with the version of the part before it. */
async function restWhole(api: TestServer, url: string): Promise<string> {
  let page = parsed(await restPart(api, url, {}));
  let text = page.markdown;
  while (page.next_offset != null) {
    page = parsed(await restPart(api, url, { offset: page.next_offset, version: page.version! }));
    text += page.markdown;
  }
  return text;
}

test('a page published again between two part reads: REST, MCP tool and MCP resource continuations are refused, not spliced', async () => {
  const fixture: ReadModelFixture = await createReadModel();
  const api = await startTestServer({ fixture, env: { RATE_LIMIT_ANONYMOUS: '100000' } });
  const { client } = await connectClient(api);
  try {
    const guide = fixture.longPage;
    const readTool = (await client.listTools()).tools.find((t) => t.name === 'read_page')!;
    const callTool = async (args: Record<string, unknown>) => (await client.callTool({ name: 'read_page', arguments: args })) as CallToolResult;

    // Part 1 over each transport, before the publish.
    const first = parsed(await restPart(api, guide.path, {}));
    assert.is(first.truncated, true);
    assert.match(String(first.version), /^[0-9a-f]{12}$/);
    const firstTool = assertStructured(readTool, await callTool({ url: guide.url })) as Page;
    assert.equal(firstTool, first, 'the tool returns the REST body');
    const firstResource = (await client.readResource({ uri: guide.url })).contents[0] as { _meta: Record<string, { next: string; version: string }> };
    const nextUri = firstResource._meta[CONTINUATION_META]!.next;
    assert.is(nextUri, `${guide.url}?offset=${first.next_offset}&version=${first.version}`);
    const unchanged = parsed(await restPart(api, 'fontaneria', {}));

    await createReadModel({
      dir: fixture.dir,
      buildId: 'republished',
      editPages: (pages) => pages.map((p) => (p.path === guide.path ? { ...p, markdown: withInsertedParagraph(p.markdown) } : p)),
    });
    assert.is(await api.running.reloadModel(), true, 'the new build is served');
    const newText = withInsertedParagraph(guide.markdown);

    // REST: the old version is refused, naming the parameter and where to start again.
    const stale = assertError(await restPart(api, guide.path, { offset: first.next_offset!, version: first.version! }), 400, 'agentes_page_changed');
    assert.match(stale.data.hint, /^version: .*offset=0/);
    // MCP tool: the same refusal as a tool error.
    assertToolError(await callTool({ url: guide.url, offset: first.next_offset, version: first.version }), /ha cambiado.*version: vuelva a leer la página desde offset=0/);
    // MCP resource: the continuation URI is an error, not text.
    const err = await client.readResource({ uri: nextUri }).then(() => null, (e: Error & { code?: number }) => e);
    assert.ok(err, 'the stale continuation URI is refused');
    assert.is(err!.code, -32602);
    assert.match(err!.message, /ha cambiado.*offset=0/);

    // Without `version`, an offset is read in the new text as before: the joined text repeats what moved.
    const unbound = parsed(await restPart(api, guide.path, { offset: first.next_offset! }));
    assert.is(unbound.offset, first.next_offset);
    assert.is.not(first.markdown + unbound.markdown, newText.slice(0, first.markdown.length + unbound.markdown.length));
    assert.is(newText.slice(first.next_offset!, first.next_offset! + INSERTED.length), first.markdown.slice(-INSERTED.length), 'the unbound part starts with text part 1 already had');

    // Starting again: a new version, whose parts join into the new text, over REST, the tool and the resource.
    const again = parsed(await restPart(api, guide.path, {}));
    assert.is.not(again.version, first.version);
    assert.is(await restWhole(api, guide.path), newText);
    const secondTool = assertStructured(readTool, await callTool({ url: guide.url, offset: again.next_offset, version: again.version })) as Page;
    assert.is(secondTool.offset, again.next_offset);
    assert.ok(newText.startsWith(again.markdown + secondTool.markdown));
    const parts: string[] = [];
    for (let uri: string | null = guide.url; uri !== null;) {
      const content = (await client.readResource({ uri })).contents[0] as { text: string; _meta: Record<string, { next: string | null }> };
      parts.push(content.text);
      uri = content._meta[CONTINUATION_META]!.next;
    }
    assert.is(parts.join(''), newText);

    // A page the publish did not change keeps its version: its continuations still hold.
    const still = parsed(await restPart(api, 'fontaneria', { offset: 5, version: unchanged.version! }));
    assert.is(still.version, unchanged.version);
    assert.is(still.markdown, unchanged.markdown.slice(5));
  } finally {
    await client.close();
    await api.close();
    await fixture.remove();
  }
});

test('version: malformed → 400 rest_invalid_param naming it; ignored at offset 0', () => withTestServer({ env: { RATE_LIMIT_ANONYMOUS: '100000' } }, async (api) => {
  const guide = (await sharedReadModel()).longPage;
  for (const bad of ['', 'abc', 'ZZZZZZZZZZZZ', '0123456789abc']) {
    assertError(await restPart(api, guide.path, { offset: 1, version: bad }), 400, 'rest_invalid_param', 'version');
  }
  const page = parsed(await restPart(api, guide.path, { version: '000000000000' }));
  assert.is(page.offset, 0, 'a read from the start needs no version');
}));

test.run();
