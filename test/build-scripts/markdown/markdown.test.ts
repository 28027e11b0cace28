/**
 * HTML → Markdown conversion, one fixture folder per concern:
 * fixtures/<case>/input.html converts (as a page at BASE_URL) to output.md exactly.
 * Every expected output must also round-trip: parsed as GFM it holds no raw HTML, and written
 * back with the same settings it comes out unchanged. The one allowed difference: addresses in
 * text (`info@…`, `https://…`, `www.…`) are left unescaped on purpose, so GFM reads them as
 * literal autolinks; such links, whose source is exactly their text, are turned back into text.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { htmlToMarkdown } from '../../../build-scripts/markdown/index.ts';
import { stringifyOptions } from '../../../build-scripts/markdown/stringify-options.ts';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const BASE_URL = 'http://localhost:4321/servicios/fontaneria/madrid/';

const markdown = unified().use(remarkParse).use(remarkGfm, { tablePipeAlign: false }).use(remarkStringify, stringifyOptions);

const cases = fs.readdirSync(FIXTURES).filter((name) => fs.existsSync(path.join(FIXTURES, name, 'input.html'))).sort();

test('the fixture set covers every concern', () => {
  for (const name of ['tables', 'nested-lists', 'links', 'images', 'headings', 'entities', 'chrome-removal', 'pagefind-ignore']) {
    assert.ok(cases.includes(name), `missing fixture ${name}`);
  }
});

for (const name of cases) {
  const input = fs.readFileSync(path.join(FIXTURES, name, 'input.html'), 'utf8');
  const expected = fs.readFileSync(path.join(FIXTURES, name, 'output.md'), 'utf8');

  test(`${name}: converts to output.md`, () => {
    assert.fixture(htmlToMarkdown(input, { baseUrl: BASE_URL }), expected);
  });

  test(`${name}: output.md is clean GFM that round-trips`, () => {
    const tree = markdown.parse(expected) as Root;
    const html: string[] = [];
    visit(tree, 'html', (node) => { html.push(node.value); });
    assert.equal(html, [], 'raw HTML in the Markdown');
    visit(tree, 'link', (node, index, parent) => {
      const source = expected.slice(node.position!.start.offset, node.position!.end.offset);
      const text = node.children.map((c) => ('value' in c ? c.value : '')).join('');
      if (!parent || index === undefined || source !== text) return;
      parent.children.splice(index, 1, { type: 'text', value: source });
    });
    assert.fixture(String(markdown.stringify(tree)), expected);
  });
}

test('the h1 heads the page as "# Title"', () => {
  for (const name of cases) {
    const expected = fs.readFileSync(path.join(FIXTURES, name, 'output.md'), 'utf8');
    assert.match(expected, /^# \S/, `${name} does not start with its h1`);
  }
});

test('relative links resolve against the page URL, not the site root', () => {
  const md = htmlToMarkdown('<main><h1>T</h1><p><a href="../">arriba</a> <a href="x/">abajo</a></p></main>', {
    baseUrl: 'https://hogar.example/servicios/fontaneria/',
  });
  assert.ok(md.includes('[arriba](https://hogar.example/servicios/)'), md);
  assert.ok(md.includes('[abajo](https://hogar.example/servicios/fontaneria/x/)'), md);
});

test('one converter serves many pages: no state leaks from one page to the next', () => {
  const a = htmlToMarkdown('<main><h1>A</h1><p><a href="/x/">x</a></p></main>', { baseUrl: 'https://a.example/' });
  const b = htmlToMarkdown('<main><h1>B</h1><p><a href="/x/">x</a></p></main>', { baseUrl: 'https://b.example/' });
  assert.ok(a.includes('https://a.example/x/') && b.includes('https://b.example/x/'));
});

test.run();
