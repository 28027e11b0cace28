/** build-scripts/files.ts: reading files back a piece at a time. */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eachLine } from '../../build-scripts/files.ts';

async function linesOf(content: string | Buffer): Promise<{ lines: string[]; ended: boolean }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-lines-'));
  try {
    const file = path.join(dir, 'x.ndjson');
    await fs.writeFile(file, content);
    const lines: string[] = [];
    const ended = eachLine(file, (line, i) => { assert.is(i, lines.length); lines.push(line); });
    return { lines, ended };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

test('eachLine: every line whole, also a character cut between two chunks of the read', async () => {
  // "ñ" is two bytes in UTF-8: its first one is the last byte of the first 1 MiB chunk.
  const first = 'a'.repeat((1 << 20) - 1) + 'ñandú';
  const { lines, ended } = await linesOf(`${first}\n€uro 💧\n\n`);
  assert.equal(lines.length, 3);
  assert.ok(lines[0] === first, 'the line across the chunks');
  assert.equal(lines.slice(1), ['€uro 💧', '']);
  assert.ok(ended);
});

test('eachLine: a last line without its line break is reported, not passed on', async () => {
  assert.equal(await linesOf('uno\ndos'), { lines: ['uno'], ended: false });
  assert.equal(await linesOf(''), { lines: [], ended: true });
  // The file ends inside a character: not a whole line either.
  assert.equal(await linesOf(Buffer.from([0x61, 0x0a, 0xc3])), { lines: ['a'], ended: false });
});

test.run();
