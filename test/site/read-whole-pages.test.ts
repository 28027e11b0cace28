/**
 * Every page of the built sample site read whole through read_page's parts, over REST and over
 * MCP: the parts joined are exactly the Markdown the page itself answers with
 * `Accept: text/markdown`; every section of the longest page reads from its offset.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PageSchema, type Page } from '../../formats/schemas/resources.ts';
import { qs, request } from '../helpers/http.ts';
import { withTestServer, type TestServer } from '../helpers/server.ts';
import { rpc, toolCall } from '../server/mcp/harness.ts';

const UNLIMITED = { RATE_LIMIT_ANONYMOUS: '1000000' };

const withBuilt = (fn: (api: TestServer) => Promise<void>) => withTestServer({ fixture: 'built', env: UNLIMITED }, fn);

/** Every part of `path` from `offset`, read with `readPart` until `next_offset` is null. */
async function readAll(readPart: (offset: number) => Promise<Page>, offset = 0): Promise<Page[]> {
  const parts: Page[] = [];
  for (let at: number | null | undefined = offset; at !== null && at !== undefined;) {
    const part = await readPart(at);
    assert.is(part.offset, at);
    parts.push(part);
    at = part.next_offset;
  }
  return parts;
}

const overRest = (api: TestServer, path: string) => async (offset: number) => {
  const res = await request(`${api.base}/read_page${qs({ url: path, offset })}`);
  assert.is(res.status, 200, `${path} @${offset}: ${res.text().slice(0, 200)}`);
  return PageSchema.strict().parse(res.json());
};

const overMcp = (api: TestServer, path: string) => async (offset: number) => {
  const res = (await rpc(api, toolCall('read_page', { url: path, offset }))).json();
  assert.not.ok(res.result.isError, JSON.stringify(res.result).slice(0, 200));
  return PageSchema.strict().parse(res.result.structuredContent);
};

test('every sample page, read part by part over REST, is its whole Markdown', () => withBuilt(async (api) => {
  const pages = api.model.current().pages;
  let cut = 0;
  for (const page of pages) {
    const markdown = await request(api.origin + page.path, { headers: { Accept: 'text/markdown' } });
    assert.is(markdown.status, 200, page.path);
    const parts = await readAll(overRest(api, page.path));
    if (parts.length > 1) cut++;
    for (const part of parts) assert.ok(part.markdown.length <= api.config.readPageMaxChars, `${page.path}: a part of ${part.markdown.length}`);
    assert.is(parts.map((p) => p.markdown).join(''), markdown.text(), page.path);
  }
  assert.ok(cut >= 3, `${cut} pages longer than one part`);
}));

test('the longest page over MCP: the same parts as REST; every section reads from its offset', () => withBuilt(async (api) => {
  const model = api.model.current();
  const texts = new Map(await Promise.all(model.pages.map(async (p) => [p, (await model.textOf(p)).markdown] as const)));
  const [longest, longestText] = [...texts].sort((a, b) => b[1].length - a[1].length)[0]!;
  const viaMcp = await readAll(overMcp(api, longest.path));
  const viaRest = await readAll(overRest(api, longest.path));
  assert.ok(viaMcp.length > 1);
  assert.equal(viaMcp, viaRest);
  assert.is(viaMcp.map((p) => p.markdown).join(''), longestText);

  const sections = viaRest[0]!.sections!;
  assert.ok(sections.length > 3, `${sections.length} sections`);
  for (const [i, section] of sections.entries()) {
    const parts = await readAll(overMcp(api, longest.path), section.offset);
    const text = parts.map((p) => p.markdown).join('');
    assert.ok(text.startsWith('#'.repeat(section.level) + ' ' + section.title), section.title);
    const end = sections[i + 1]?.offset ?? longestText.length;
    assert.ok(text.startsWith(longestText.slice(section.offset, end)), `${section.title}: the section whole`);
  }
}));

test.run();
