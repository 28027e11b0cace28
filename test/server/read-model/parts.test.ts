import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isPartStart, partAt, sectionsOf } from '../../../server/read-model/parts.ts';

const para = (i: number) => `Párrafo ${i}. ` + 'Texto de relleno con palabras. '.repeat(10);
const doc = (n: number) => Array.from({ length: n }, (_, i) => para(i)).join('\n\n');

/** Every part from `start`, following `next` to the end. */
function partsFrom(md: string, start: number, max: number): string[] {
  const out: string[] = [];
  for (let at: number | null = start; at !== null;) {
    const part = partAt(md, at, max);
    assert.ok(part.text.length <= max, `a part of ${part.text.length} > ${max}`);
    assert.ok(part.next === null || isPartStart(md, part.next), `next ${part.next} is a part start`);
    out.push(part.text);
    at = part.next;
  }
  return out;
}

test('text within the cap is one part, whole', () => {
  const md = doc(3);
  assert.equal(partAt(md, 0, md.length), { text: md, next: null });
});

test('longer text comes in parts that end after a blank line and join into the whole text', () => {
  const md = doc(50);
  const parts = partsFrom(md, 0, 2000);
  assert.ok(parts.length > 5);
  assert.is(parts.join(''), md);
  for (const p of parts.slice(0, -1)) {
    assert.ok(p.endsWith('\n\n'), 'a part ends where a paragraph ends');
    assert.ok(p.length > 1000, `kept ${p.length}`);
  }
});

test('a part ends before a code block rather than inside it', () => {
  const md = para(1) + '\n\n' + para(2) + '\n\n' + para(3) + '\n\n```sh\n' + 'echo uno\n\necho dos\n\n'.repeat(20) + '```\n\nFin.';
  const first = partAt(md, 0, 1200);
  assert.ok(md.slice(first.next!).startsWith('```sh'), `the second part opens the block: ${md.slice(first.next!, first.next! + 20)}`);
  assert.is(partsFrom(md, 0, 1200).join(''), md);
});

test('a code block longer than half a part goes on in the next part', () => {
  const md = '~~~\n' + 'linea\n\n'.repeat(1000) + '~~~';
  const parts = partsFrom(md, 0, 1000);
  assert.ok(parts.length > 5);
  assert.ok(parts[0]!.startsWith('~~~\nlinea'));
  assert.is(parts.join(''), md);
});

test('without blank lines a part ends after a line break, then after a space', () => {
  const lines = Array.from({ length: 200 }, (_, i) => `- elemento ${i}`).join('\n');
  const byLine = partAt(lines, 0, 500);
  assert.ok(byLine.text.endsWith('\n') && lines.startsWith(byLine.text));
  assert.is(partsFrom(lines, 0, 500).join(''), lines);
  const words = 'palabra '.repeat(500);
  const bySpace = partAt(words, 0, 500);
  assert.ok(bySpace.text.endsWith('palabra ') && bySpace.text.length <= 500);
  assert.is(partsFrom(words, 0, 500).join(''), words);
});

test('one endless word is cut at the cap without splitting a surrogate pair', () => {
  const md = 'a'.repeat(999) + '😀'.repeat(10);
  const { text } = partAt(md, 0, 1000);
  assert.is(text.length, 999);
  assert.not.ok(/[\ud800-\udbff]$/.test(text));
  assert.is(partsFrom(md, 0, 1000).join(''), md);
});

test('sections: headings ## to ###### outside code blocks, each with the offset it starts at', () => {
  const md = '# Título\n\nIntro.\n\n## Causas\n\nTexto.\n\n```md\n## no es una sección\n```\n\n### Fuga bajo el fregadero ##\n\nMás.\n\n####### tampoco\n';
  const sections = sectionsOf(md);
  assert.equal(sections.map((s) => [s.title, s.level]), [['Causas', 2], ['Fuga bajo el fregadero', 3]]);
  for (const s of sections) assert.ok(md.startsWith('#'.repeat(s.level) + ' ' + s.title, s.offset), s.title);
  // Reading from a section gives its text first; from there the parts go on to the end.
  assert.is(partsFrom(md, sections[0]!.offset, 30).join(''), md.slice(sections[0]!.offset));
});

test('a part starts anywhere in the text but inside a surrogate pair', () => {
  const md = 'uno 😀 dos';
  assert.ok(isPartStart(md, 0) && isPartStart(md, 2) && isPartStart(md, 4) && isPartStart(md, 6));
  assert.not.ok(isPartStart(md, 5), 'between the halves of 😀');
  assert.not.ok(isPartStart(md, md.length), 'the end is not a start');
  assert.not.ok(isPartStart(md, -1));
});

test.run();
