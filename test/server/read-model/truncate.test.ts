import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { truncateMarkdown } from '../../../server/read-model/truncate.ts';

const para = (i: number) => `Párrafo ${i}. ` + 'Texto de relleno con palabras. '.repeat(10);
const doc = (n: number) => Array.from({ length: n }, (_, i) => para(i)).join('\n\n');

test('text within the cap is returned whole', () => {
  const md = doc(3);
  assert.equal(truncateMarkdown(md, md.length), { text: md, truncated: false });
});

test('longer text is cut at the last paragraph boundary that fits', () => {
  const md = doc(50);
  const max = 2000;
  const { text, truncated } = truncateMarkdown(md, max);
  assert.ok(truncated);
  assert.ok(text.length <= max && text.length > max / 2, `kept ${text.length}`);
  assert.ok(md.startsWith(text), 'a prefix of the original');
  assert.ok(/^ *\n\n/.test(md.slice(text.length)), 'ends where a paragraph ends');
});

test('a cut never leaves a code fence open', () => {
  const md = para(1) + '\n\n' + para(2) + '\n\n```sh\n' + 'echo uno\n\necho dos\n\n'.repeat(100) + '```\n\nFin.';
  const { text } = truncateMarkdown(md, 1200);
  const fences = text.split('\n').filter((l) => l.startsWith('```')).length;
  assert.is(fences % 2, 0, `balanced fences in: …${text.slice(-80)}`);
  assert.ok(text.length <= 1200);
});

test('a page that opens with a huge code block keeps its start and closes the fence', () => {
  const md = '~~~\n' + 'linea\n\n'.repeat(1000) + '~~~';
  const { text, truncated } = truncateMarkdown(md, 1000);
  assert.ok(truncated);
  assert.ok(text.length <= 1000);
  assert.ok(text.startsWith('~~~\nlinea') && text.endsWith('\n~~~'));
});

test('without blank lines it falls back to a line break, then a space', () => {
  const lines = Array.from({ length: 200 }, (_, i) => `- elemento ${i}`).join('\n');
  const byLine = truncateMarkdown(lines, 500).text;
  assert.ok(lines.startsWith(byLine) && lines[byLine.length] === '\n');
  const words = 'palabra '.repeat(500);
  const bySpace = truncateMarkdown(words, 500).text;
  assert.ok(bySpace.endsWith('palabra') && bySpace.length <= 500);
});

test('one endless word is cut at the cap without splitting a surrogate pair', () => {
  const md = 'a'.repeat(999) + '😀'.repeat(10);
  const { text } = truncateMarkdown(md, 1000);
  assert.is(text.length, 999);
  assert.not.ok(/[\ud800-\udbff]$/.test(text));
});

test.run();
