/**
 * The cache folders builds keep: one folder per code version, emptied for a full build, and pruned
 * to the keys a build used, with what an interrupted write left.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { adoptEntries, entryFile, pruneEntries, versionFolder, writeEntry } from '../../../build-scripts/cache/store.ts';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'agentes-cache-store-'));
const files = (dir: string) => fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();

test('pruning keeps the entries named and nothing else; another code version\'s folder is dropped', () => {
  const dir = tmp();
  try {
    const keys = ['aa11', 'aa22', 'bb33'];
    const lines: string[] = [];
    const log = (l: string) => lines.push(l);
    const v1 = versionFolder(dir, 'v1', { full: false, what: 'every page read', log });
    for (const key of keys) writeEntry(entryFile(v1, key, '.br'), key);
    writeEntry(entryFile(v1, keys[1]!, '.gz'), 'gz');
    fs.writeFileSync(path.join(v1, 'aa', '22.br.123.tmp'), 'half');
    assert.is(pruneEntries(v1, new Set([keys[1]!])), 3);
    assert.equal(files(v1), ['aa/22.br', 'aa/22.gz'], 'every file of the entries kept, nothing else');
    const v2 = versionFolder(dir, 'v2', { full: false, what: 'every page read', log });
    assert.equal(fs.readdirSync(dir), ['v2']);
    assert.equal(lines, ['cache: none yet, every page read afresh', 'cache: the build code changed, every page read afresh']);
    writeEntry(entryFile(v2, keys[0]!, '.json'), '{}');
    versionFolder(dir, 'v2', { full: true, what: 'every page read', log });
    assert.equal(files(path.join(dir, 'v2')), [], 'a full build starts empty');
    assert.is(lines.at(-1), 'cache: full build, every page read afresh');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a build\'s new entries join the cache whole, replacing older ones, and their folder goes', () => {
  const dir = tmp();
  try {
    const cache = { dir: path.join(dir, 'cache'), newDir: path.join(dir, 'staging', '.new') };
    writeEntry(entryFile(cache.dir, 'cc44', '.json'), 'old');
    writeEntry(entryFile(cache.newDir, 'cc44', '.json'), 'new');
    writeEntry(entryFile(cache.newDir, 'dd55', '.json'), 'added');
    adoptEntries(cache);
    assert.equal(files(cache.dir), ['cc/44.json', 'dd/55.json']);
    assert.is(fs.readFileSync(entryFile(cache.dir, 'cc44', '.json'), 'utf8'), 'new');
    assert.not.ok(fs.existsSync(cache.newDir));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
