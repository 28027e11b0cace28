/**
 * What the site adds for people and search engines stays out of the read model: the call and
 * WhatsApp bar, the icons, the at-a-glance box of service pages and the JSON-LD are on the built
 * pages, and no page's Markdown carries any of them. The tables the guides wrap in a scrolling
 * box are still Markdown tables.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { selectAll } from 'hast-util-select';
import { toString } from 'hast-util-to-string';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseHtml } from '../../build-scripts/markdown/index.ts';
import { ReadModelPageSchema, type ReadModelPage } from '../../formats/schemas/read-model.ts';
import { builtReadModel, builtSiteDir } from '../helpers/built-site.ts';

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

async function pages(): Promise<{ page: ReadModelPage; html: string }[]> {
  const dir = await builtReadModel();
  const names = await fs.readdir(path.join(dir, 'pages'));
  return Promise.all(names.map(async (name) => {
    const page = ReadModelPageSchema.parse(JSON.parse(await fs.readFile(path.join(dir, 'pages', name), 'utf8')));
    const html = await fs.readFile(path.join(builtSiteDir(), ...page.path.split('/').filter(Boolean), 'index.html'), 'utf8');
    return { page, html };
  }));
}

test('the contact bar, icons, at-a-glance box and JSON-LD are on the pages and never in their Markdown', async () => {
  let glances = 0;
  for (const { page, html } of await pages()) {
    const tree = parseHtml(html);
    // The bar's links as the Markdown would write them: [Llamar +34 …](tel:…), [WhatsApp](https://wa.me/…).
    const bar = selectAll('.cta a', tree).map((a) => `[${collapse(toString(a))}](${String(a.properties.href)})`);
    assert.is(bar.length, 2, `${page.path}: the contact bar`);
    for (const link of bar) assert.not.ok(collapse(page.markdown).includes(link), `${page.path}: ${link} is in the Markdown`);
    assert.ok(html.includes('application/ld+json'), `${page.path}: no JSON-LD`);
    for (const mark of ['schema.org', '@context', '@type', 'ld+json', 'iconos.svg']) {
      assert.not.ok(page.markdown.includes(mark), `${page.path}: "${mark}" is in the Markdown`);
    }
    for (const glance of selectAll('main .glance', tree)) {
      glances++;
      for (const item of selectAll('p, li', glance)) {
        const text = collapse(toString(item));
        assert.not.ok(collapse(page.markdown).includes(text), `${page.path}: the glance's "${text}" is in the Markdown`);
      }
    }
  }
  assert.ok(glances > 300, `${glances} pages with the at-a-glance box`);
});

test('a guide table in its scrolling box is still a Markdown table', async () => {
  const guides = (await pages()).filter(({ html }) => html.includes('<div class="table-wrap" tabindex="0"><table>'));
  assert.ok(guides.length >= 5, `${guides.length} guides with tables`);
  for (const { page } of guides) assert.match(page.markdown, /^\| .+ \|\n\| ?[-:]+/m, page.path);
});

test.run();
