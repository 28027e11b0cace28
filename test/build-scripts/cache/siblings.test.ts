/**
 * The site's compressed siblings through the cache: a file placed again gets the cache's siblings
 * linked, not compressed again; a damaged entry is made again; a sibling no smaller than its file
 * is not placed, as without the cache.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { siblingKey, type SiblingCache } from '../../../build-scripts/cache/siblings.ts';
import { entryFile } from '../../../build-scripts/cache/store.ts';
import { writeWithSiblings } from '../../../build-scripts/stages/site.ts';

const text = Buffer.from(`<!doctype html><p>${'Fontanería y reparaciones en Madrid. '.repeat(80)}</p>`);

function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentes-siblings-'));
  const cache: SiblingCache = { dir: path.join(dir, 'cache'), newDir: path.join(dir, 'cache'), used: new Set() };
  return { dir, cache, out: (name: string) => path.join(dir, name) };
}

test('siblings come from the cache once made, as the bytes compressing would give', () => {
  const { dir, cache, out } = setup();
  try {
    assert.is(writeWithSiblings(out('a.html'), text), 2, 'without the cache');
    assert.is(writeWithSiblings(out('b.html'), text, cache), 2, 'made into the cache');
    assert.is(writeWithSiblings(out('c.html'), text, cache), 2, 'from the cache');
    for (const ext of ['.gz', '.br']) {
      const made = fs.readFileSync(out(`a.html${ext}`));
      assert.ok(fs.readFileSync(out(`c.html${ext}`)).equals(made), `${ext}: the same bytes`);
      assert.is(fs.statSync(out(`c.html${ext}`)).ino, fs.statSync(entryFile(cache.dir, siblingKey(text), ext)).ino, `${ext}: linked, not written`);
    }
    assert.equal([...cache.used], [siblingKey(text)]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a damaged entry is made again; a sibling no smaller than its file is not placed', () => {
  const { dir, cache, out } = setup();
  try {
    writeWithSiblings(out('a.html'), text, cache);
    const br = entryFile(cache.dir, siblingKey(text), '.br');
    fs.rmSync(br);
    fs.writeFileSync(br, zlib.brotliCompressSync(Buffer.from('otra página')));
    writeWithSiblings(out('b.html'), text, cache);
    assert.ok(zlib.brotliDecompressSync(fs.readFileSync(out('b.html.br'))).equals(text), 'the sibling holds the file');

    // Random bytes do not compress: neither sibling would be smaller.
    const noise = randomBytes(4096);
    assert.is(writeWithSiblings(out('n.html'), noise), 0, 'none without the cache');
    assert.is(writeWithSiblings(out('m.html'), noise, cache), 0, 'none with it');
    assert.is(writeWithSiblings(out('k.html'), noise, cache), 0, 'none from its entries either');
    for (const ext of ['.gz', '.br']) assert.not.ok(fs.existsSync(out(`k.html${ext}`)), ext);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a shared file is linked with the siblings it has; one it lacks is made', () => {
  const { dir, cache, out } = setup();
  try {
    writeWithSiblings(out('old.html'), text, cache);
    fs.rmSync(out('old.html.br'));
    assert.is(writeWithSiblings(out('new.html'), text, cache, out('old.html')), 2);
    assert.is(fs.statSync(out('new.html')).ino, fs.statSync(out('old.html')).ino, 'the file: linked');
    assert.is(fs.statSync(out('new.html.gz')).ino, fs.statSync(out('old.html.gz')).ino, 'its gzip sibling: linked');
    assert.ok(zlib.brotliDecompressSync(fs.readFileSync(out('new.html.br'))).equals(text), 'the missing brotli sibling: made');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
