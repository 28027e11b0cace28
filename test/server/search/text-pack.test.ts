/** Page texts read back from texts.txt by offset, cached within a byte bound. */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createIndexWriter } from '../../../build-scripts/search-index/index-writer.ts';
import { pageTerms } from '../../../build-scripts/search-index/page-terms.ts';
import { splitWords } from '../../../server/search/excerpt.ts';
import { INDEX_FILE, INDEX_FORMAT, readIndexedPages, readIndexFile, TEXTS_FILE } from '../../../formats/search/index-file.ts';
import { TextPack } from '../../../server/search/text-pack.ts';

const TEXTS = [
  'Fontanería en Málaga. ¿Tiene una fuga de agua? Reparamos tuberías “rápido” — 24 h, 90 €.',
  '',
  'uno',
  'dos  espacios seguidos y al final ',
  Array.from({ length: 3000 }, (_, i) => `palabra${i} ñandú`).join(' '),
  'Cerrajería 🔑 apertura de puertas',
];

let dir: string;
let offsets: Float64Array;

test.before(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-texts-'));
  const writer = createIndexWriter(dir);
  TEXTS.forEach((text, i) => writer.add(`/p${i}/`, { ...pageTerms({ path: `/p${i}/`, title: '', city: '', description: '', markdown: '' }), text }));
  writer.finish({ site_url: 'https://agentes.test', vocabulary: [['agua', 1]] });
  offsets = (await readIndexFile(dir)).textOffsets();
});

test.after(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

test('the writer stores each text as given, and the index tools read them back', async () => {
  assert.equal((await readIndexedPages(dir)).map((p) => p.text), TEXTS);
});

test('an index damaged or of another format is refused, saying so', async () => {
  const file = path.join(dir, INDEX_FILE);
  const good = await fs.readFile(file);
  try {
    const damaged = Buffer.from(good);
    damaged[damaged.length - 1] = damaged[damaged.length - 1]! ^ 1;
    await fs.writeFile(file, damaged);
    assert.match(String(await readIndexFile(dir).catch((e: Error) => e)), 'index.bin: damaged');
    const newer = Buffer.from(good);
    newer.writeUInt32LE(INDEX_FORMAT + 1, 8);
    await fs.writeFile(file, newer);
    assert.match(String(await readIndexFile(dir).catch((e: Error) => e)), `index.bin: format ${INDEX_FORMAT + 1}, this server reads format ${INDEX_FORMAT}: rebuild the read model`);
  } finally {
    await fs.writeFile(file, good);
  }
});

test('a text evicted from the cache is read back identically', () => {
  // Room for text 0 alone (2 bytes a character and 4 a word): reading text 5 evicts it.
  const bound = 2 * TEXTS[0]!.length + 4 * splitWords(TEXTS[0]!).starts.length + 10;
  const pack = new TextPack(path.join(dir, TEXTS_FILE), offsets, bound);
  try {
    const first = pack.words(0);
    assert.is(first.text, TEXTS[0]);
    assert.is(pack.words(0), first, 'kept while it fits');
    assert.is(pack.words(5).text, TEXTS[5]);
    assert.ok(pack.cachedBytes <= bound, `cache holds ${pack.cachedBytes} of ${bound} bytes`);
    const again = pack.words(0);
    assert.is.not(again, first, 'read again from the file');
    assert.is(again.text, TEXTS[0]);
    assert.equal(Array.from(again.starts), Array.from(first.starts));
    // A text larger than the whole bound is read every time, never kept.
    assert.is(pack.words(4).text, TEXTS[4]);
    assert.ok(pack.cachedBytes <= bound);
  } finally {
    pack.close();
  }
});

test('a closed pack refuses to read', () => {
  const pack = new TextPack(path.join(dir, TEXTS_FILE), offsets, 1);
  pack.close();
  assert.throws(() => pack.words(0), /closed/);
});

test.run();
