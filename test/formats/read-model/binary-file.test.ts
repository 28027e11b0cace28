/** Binary read-model files: sections read back where they lie; strings compared as JS compares them. */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { encodeStrings, readBinaryFile, StringColumn, writeBinaryFile } from '../../../formats/read-model/binary-file.ts';

const KIND = { magic: 'AGTEST01', format: 7 };
const STRINGS = ['', 'a', 'ab', 'abc', 'b', 'fontaneria', 'fontanería', 'fontanero', 'zeta', 'ñandú', 'é', 'z\u00e9', '\ud83d\udca7', '\uffff', 'A', 'año', 'ano'];

test('sections come back as written, typed views on them where they lie', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-binary-'));
  try {
    const file = path.join(dir, 'x.bin');
    const floats = Float64Array.from([0, 1.5, 2 ** 40]);
    const strings = encodeStrings(STRINGS);
    writeBinaryFile(file, KIND, [Buffer.from('{"n":3}'), new Uint8Array([1, 2, 3]), new Uint8Array(floats.buffer), strings.ends, strings.heap]);
    const s = await readBinaryFile(file, KIND);
    assert.is(s.count, 5);
    assert.equal([...s.bytes(1)], [1, 2, 3]);
    assert.equal([...s.f64(2, 3)], [...floats]);
    const column = new StringColumn(s.u32(3, STRINGS.length + 1), s.bytes(4), 'x.bin');
    assert.equal(Array.from({ length: column.size }, (_, i) => column.get(i)), STRINGS);
    assert.throws(() => s.f64(1), /3 bytes, not a whole number of items of 8/);
    assert.match(String(await readBinaryFile(file, { ...KIND, magic: 'AGOTHER1' }).catch((e: Error) => e)), 'not a AGOTHER1 file');
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('a string of a column compares with any string as `<` does, ASCII or not', () => {
  const { ends, heap } = encodeStrings(STRINGS);
  const column = new StringColumn(new Uint32Array(ends.buffer, ends.byteOffset, ends.length / 4), Buffer.from(heap), 'strings');
  const sign = (n: number) => Math.sign(n);
  STRINGS.forEach((a, i) => {
    for (const b of [...STRINGS, 'fontan', 'fontanerias', 'zz', '\u00e9a']) {
      assert.is(sign(column.compare(i, b)), a < b ? -1 : a > b ? 1 : 0, `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
    }
  });
});

test.run();
