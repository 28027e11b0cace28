/**
 * Markdown → indexed plain text. The converter is line-based for speed; it is checked against
 * a real GFM parse (remark) of every Markdown fixture of the read-model writer: same words.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Nodes } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { headingText, inline, markdownToText, REWRITES, withoutLinkLists } from '../../../formats/search/plain-text.ts';
import { words } from '../../../formats/search/text.ts';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'build-scripts', 'markdown', 'fixtures');
const parser = unified().use(remarkParse).use(remarkGfm);

/** Words a reader sees in the parsed document (no link targets, no images, no raw HTML). */
function parsedWords(markdown: string): string[] {
  const out: string[] = [];
  const visit = (n: Nodes): void => {
    if (n.type === 'text' || n.type === 'inlineCode' || n.type === 'code') { out.push(n.value); return; }
    if (n.type === 'image' || n.type === 'html' || n.type === 'imageReference' || n.type === 'definition') return;
    if ('children' in n) for (const c of n.children) { visit(c as Nodes); out.push(' '); }
  };
  visit(parser.parse(markdown));
  return words(out.join(''));
}

test('same words as a GFM parse, for every writer fixture', () => {
  const cases = fs.readdirSync(FIXTURES).filter((n) => fs.existsSync(path.join(FIXTURES, n, 'output.md')));
  assert.ok(cases.length >= 8);
  for (const name of cases) {
    const md = fs.readFileSync(path.join(FIXTURES, name, 'output.md'), 'utf8');
    assert.equal(words(markdownToText(md)), parsedWords(md), name);
  }
});

test('syntax goes, text stays, blocks end as sentences', () => {
  const md = [
    '# Fontanería _urgente_ en **Madrid**',
    '',
    'Llame al [910 000 000](tel:+34910000000) o escriba a <hola@ejemplo.es>. Vea <https://ejemplo.es/precios>.',
    '',
    '- Fugas de agua',
    '- Desatascos: `sin obra`',
    '1. Primero',
    '2) Segundo!',
    '',
    '| Trabajo | Precio |',
    '| --- | ---: |',
    '| Cambiar grifo \\| monomando | 45 € |',
    '',
    '> Cita con ~~tachado~~ y snake_case y 2 \\* 3',
    '',
    '![foto del baño](/img/bano.jpg)',
    '',
    '---',
    '',
    '```sh',
    'purga --radiadores',
    '```',
    '',
    'Fin &amp; punto&nbsp;final &#8364;',
  ].join('\n');
  assert.is(markdownToText(md),
    'Fontanería urgente en Madrid. Llame al 910 000 000 o escriba a hola@ejemplo.es. Vea https://ejemplo.es/precios. '
    + 'Fugas de agua. Desatascos: sin obra. Primero. Segundo! Trabajo. Precio. Cambiar grifo | monomando. 45 €. '
    + 'Cita con tachado y snake_case y 2 * 3 purga --radiadores Fin & punto final €');
});

test('one line, single spaces, no invisible characters', () => {
  const text = markdownToText('a\u00adb  c\u200bd\n\n\te\u00a0f\r\ng');
  assert.is(text, 'ab cd e f g');
  assert.not.match(markdownToText('# T\n\nUno\n\n\n\nDos'), /\s{2}|\n/);
});

test('each inline rewrite skipped for want of its characters is one that would change nothing', () => {
  const unguarded = (text: string) => REWRITES.reduce((s, [, pattern, to]) => s.replace(pattern, to), text);
  // Markdown's inline syntax, entities, the held-escape markers, letters and spaces.
  const piece = fc.constantFrom('\\', '`', '!', '[', ']', '(', ')', '<', '>', '*', '_', '~', '&', '#', ';', 'x', '1', 'amp', 'nbsp', 'http:', '@', '"', ' ', 'a', 'ñ', '\uE000', '\uE001');
  const seed = Number(process.env.FC_SEED) || Date.now();
  fc.assert(fc.property(fc.array(piece, { maxLength: 40 }).map((p) => p.join('')), (s) => inline(s) === unguarded(s)), { seed, numRuns: 20_000 });
});

test('lists of links go, with the heading of a section that held only them; text and mixed lists stay', () => {
  const md = [
    '# Fontanería en Madrid', '', 'Texto del servicio.', '',
    '## Guías de fontanería', '', '- [Cisterna que pierde agua](https://x.test/guias/cisterna/)', '- [Olor a desagüe](https://x.test/guias/olor/).', '',
    '## Trabajos', '', '- Cambio de grifos', '- Ver [precios](https://x.test/precios/) antes', '',
    '## Más servicios', '', '1. [Desatascos en Madrid](https://x.test/desatascos/madrid/)', '',
  ].join('\n');
  const text = markdownToText(withoutLinkLists(md));
  assert.is(text, 'Fontanería en Madrid. Texto del servicio. Trabajos. Cambio de grifos. Ver precios antes.');
  assert.is(headingText(md), 'Fontanería en Madrid Guías de fontanería Trabajos Más servicios');
});

test.run();
