/** Page texts read back from texts.txt by offset, cached within a byte bound. */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writeSidecarFiles } from '../../../build-scripts/pagefind/sidecar-files.ts';
import { splitWords } from '../../../server/search/excerpt.ts';
import { readIndexedPages, readSidecar, SIDECAR_FILE, TEXTS_FILE } from '../../../formats/search/sidecar.ts';
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
  await writeSidecarFiles(dir, {
    site_url: 'https://agentes.test',
    pages: TEXTS.map((text, i) => ({ id: `es_${i}`, path: `/p${i}/`, text, titleStems: [], headStems: [] })),
    vocabulary: [['agua', 1]],
  });
  offsets = (await readSidecar(dir)).textOffsets();
});

test.after(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

test('the writer stores each text as given, and the sidecar tools read them back', async () => {
  assert.equal((await readIndexedPages(dir)).map((p) => p.text), TEXTS);
});

test('a sidecar damaged or of another format is refused, saying so', async () => {
  const file = path.join(dir, SIDECAR_FILE);
  const good = await fs.readFile(file);
  try {
    const damaged = Buffer.from(good);
    damaged[damaged.length - 1] = damaged[damaged.length - 1]! ^ 1;
    await fs.writeFile(file, damaged);
    assert.match(String(await readSidecar(dir).catch((e: Error) => e)), 'sidecar.bin: damaged');
    const older = Buffer.from(good);
    older.writeUInt32LE(3, 8);
    await fs.writeFile(file, older);
    assert.match(String(await readSidecar(dir).catch((e: Error) => e)), 'sidecar.bin: format 3, this server reads format 4: rebuild the read model');
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
