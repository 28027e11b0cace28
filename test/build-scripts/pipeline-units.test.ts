/** Small parts of the build: progress output, the slug rule, build ids. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createReporter } from '../../build-scripts/progress.ts';
import { slugOf } from '../../build-scripts/stages/extract.ts';
import { newBuildId } from '../../build-scripts/build-id.ts';

function sink() {
  let out = '';
  const stream = { write: (s: string) => { out += s; return true; }, isTTY: false } as unknown as NodeJS.WriteStream;
  return { stream, text: () => out };
}

test('without a terminal: a line at every 10 %, stage lines in between', () => {
  const s = sink();
  const r = createReporter(s.stream, false);
  for (let i = 0; i <= 200; i++) r.progress({ stage: 'markdown', done: i, total: 200 });
  r.log('✓ markdown');
  const lines = s.text().trimEnd().split('\n');
  assert.is(lines.length, 12);
  assert.is(lines[0], 'markdown: 1/200 (0 %)');
  assert.is(lines[1], 'markdown: 20/200 (10 %)');
  assert.is(lines[10], 'markdown: 200/200 (100 %)');
  assert.is(lines[11], '✓ markdown');
});

test('without a terminal and without a total: a line per hundred', () => {
  const s = sink();
  const r = createReporter(s.stream, false);
  for (let i = 0; i <= 250; i++) r.progress({ stage: 'astro', done: i, total: undefined });
  assert.is(s.text(), 'astro: 100\nastro: 200\n');
});

test('on a terminal: one line rewritten in place and cleared before other output', () => {
  const s = sink();
  const r = createReporter(s.stream, true);
  r.progress({ stage: 'crawl', done: 1, total: 2 });
  r.log('warning: x');
  r.progress({ stage: 'crawl', done: 2, total: 2 });
  r.done();
  assert.is(s.text(), '\r\x1b[Kcrawl: 1/2 (50 %)\r\x1b[Kwarning: x\n\r\x1b[Kcrawl: 2/2 (100 %)\r\x1b[K');
});

test('slugs follow the rule of the read-model schema', () => {
  assert.is(slugOf('/'), 'inicio');
  assert.is(slugOf('/servicios/'), 'servicios');
  assert.is(slugOf('/servicios/fontaneria/'), 'fontaneria');
  assert.is(slugOf('/servicios/fontaneria/a-coruna/'), 'fontaneria-a-coruna');
  assert.is(slugOf('/ciudades/las-palmas/'), 'las-palmas');
  assert.is(slugOf('/guias/salta-el-diferencial/'), 'salta-el-diferencial');
  assert.is(slugOf('/aviso-legal/'), 'aviso-legal');
  assert.is(slugOf('/api/sandbox/'), 'api-sandbox');
});

test('build ids sort by creation time', () => {
  const a = newBuildId(new Date('2025-01-02T03:04:05.006Z'));
  const b = newBuildId(new Date('2025-01-02T03:04:05.007Z'));
  assert.match(a, /^20250102T030405006Z-[0-9a-f]{6}$/);
  assert.ok(a < b);
});

test.run();
