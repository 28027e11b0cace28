/**
 * Pagefind in sessions (build-scripts/pagefind/): the merged bundle of several sessions is the
 * bundle one session writes, file for file (decoded), and searches the same.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CborReader, CborWriter } from '../../../build-scripts/pagefind/cbor.ts';
import { fullHash, readPayload, writePayload } from '../../../build-scripts/pagefind/files.ts';
import { chunkBounds, compareBytes, createMerger, mergeSessions } from '../../../build-scripts/pagefind/merge.ts';
import { buildSearchIndex, indexSession } from '../../../build-scripts/pagefind/search-index.ts';
import type { ReadModelPage } from '../../../formats/schemas/read-model.ts';
import { openSearch } from '../../../server/search/engine.ts';
import { searchPages } from '../../../server/search/index.ts';
import { PAGEFIND_DIR } from '../../../formats/search/sidecar.ts';
import { SearchPagesParams } from '../../../server/schemas/params.ts';
import { FIXTURE_CURSOR_KEY, fixturePages, pageInfo, SITE } from '../../server/search/fixtures.ts';

let root: string;
let pages: ReadModelPage[];
let single: string;
let merged: string;

/** Deterministic words (so the index has several chunks and many variants), mulberry32. */
function wordsFor(seed: number, n: number): string {
  let a = seed >>> 0;
  const rand = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const parts = ['fon', 'ta', 'ne', 'rí', 'a', 'ce', 'rra', 'je', 'ro', 'ñu', 'lec', 'tri', 'ci', 'dad', 'ción', 'é'];
  return Array.from({ length: n }, () => Array.from({ length: 2 + Math.floor(rand() * 3) }, () => parts[Math.floor(rand() * parts.length)]).join('')).join(' ');
}

/** The fixture pages, plus clones with their own paths and words: enough for several index chunks. */
function manyPages(): ReadModelPage[] {
  const base = fixturePages();
  const clones = Array.from({ length: 160 }, (_, i) => {
    const p = base[i % base.length]!;
    const pathOf = `/zona-${i}${p.path}`;
    return { ...p, path: pathOf, url: SITE + pathOf, slug: `zona-${i}-${p.slug}`, markdown: `${p.markdown}\n\n${wordsFor(i + 1, 150)}.` };
  });
  return [...base, ...clones].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

interface Decoded {
  entry: { version: string; languages: Record<string, { page_count: number; wasm: string }> };
  meta: unknown[];
  words: unknown[];
  filters: unknown[];
  fragments: Map<string, string>;
  files: string[];
}

async function decode(dir: string): Promise<Decoded> {
  const entry = JSON.parse(await fs.readFile(path.join(dir, 'pagefind-entry.json'), 'utf8'));
  const lang = Object.keys(entry.languages)[0]!;
  const meta = new CborReader(await readPayload(path.join(dir, `pagefind.${entry.languages[lang].hash}.pf_meta`))).value() as unknown[];
  const words: unknown[] = [];
  for (const [, , hash] of meta[2] as string[][]) {
    words.push(...((new CborReader(await readPayload(path.join(dir, 'index', `${hash}.pf_index`))).value() as unknown[][])[0]!));
  }
  const filters: unknown[] = [];
  for (const [name, hash] of meta[3] as string[][]) {
    const [filter, values] = new CborReader(await readPayload(path.join(dir, 'filter', `${hash}.pf_filter`))).value() as [string, [string, number[]][]];
    // Pagefind writes filter values in hash-map order, which changes from run to run.
    filters.push([name, filter, values.sort((a, b) => compareBytes(a[0], b[0]))]);
  }
  const fragments = new Map<string, string>();
  for (const f of (await fs.readdir(path.join(dir, 'fragment'))).sort()) {
    fragments.set(f, (await readPayload(path.join(dir, 'fragment', f))).toString('utf8'));
  }
  const files = (await fs.readdir(dir)).filter((f) => !f.endsWith('.pf_meta')).sort();
  return { entry, meta, words, filters, fragments, files };
}

test.before(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-merge-'));
  pages = manyPages();
  single = path.join(root, 'single');
  merged = path.join(root, 'merged');
  await buildSearchIndex({ pages, outDir: single, siteUrl: SITE, sessionPages: 10_000 });
  // Uneven sessions: the last one is short.
  await buildSearchIndex({ pages, outDir: merged, siteUrl: SITE, sessionPages: 37 });
});

test.after(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

test('CBOR: every index, filter and meta file of a Pagefind bundle re-encodes to the same bytes', async () => {
  const dir = path.join(single, PAGEFIND_DIR);
  const files = [
    ...(await fs.readdir(dir)).filter((f) => f.endsWith('.pf_meta')).map((f) => path.join(dir, f)),
    ...(await fs.readdir(path.join(dir, 'index'))).map((f) => path.join(dir, 'index', f)),
    ...(await fs.readdir(path.join(dir, 'filter'))).map((f) => path.join(dir, 'filter', f)),
  ];
  assert.ok(files.length >= 4);
  for (const file of files) {
    const payload = await readPayload(file);
    const again = new CborWriter().value(new CborReader(payload).value()).bytes();
    assert.ok(again.equals(payload), path.basename(file));
    // Pagefind names its files by the hash of what they hold.
    assert.ok(path.basename(file).replace(/^pagefind\./, '').startsWith(`es_${fullHash(payload).slice(0, 7)}`), path.basename(file));
  }
});

test('the bundle merged from sessions is the bundle of one session', async () => {
  const a = await decode(path.join(single, PAGEFIND_DIR));
  const b = await decode(path.join(merged, PAGEFIND_DIR));
  assert.ok((a.meta[2] as unknown[]).length >= 3, 'the pages make several index chunks');
  assert.ok(a.words.some((w) => (w as unknown[][])[2]!.length > 0), 'and words with accented variants');
  assert.equal(b.files, a.files);
  assert.is(b.entry.languages.es!.page_count, pages.length);
  assert.equal(b.entry, { ...a.entry, languages: { es: { ...a.entry.languages.es!, hash: (b.entry.languages.es as unknown as { hash: string }).hash } } });
  assert.equal(b.meta[0], a.meta[0], 'version');
  assert.equal(b.meta[1], a.meta[1], 'pages: fragment names and word counts');
  assert.equal(b.meta[2], a.meta[2], 'index chunks: bounds and names');
  assert.equal(b.meta.slice(4), a.meta.slice(4), 'sorts and meta fields');
  assert.equal(b.words, a.words);
  assert.equal(b.filters.map((f) => (f as unknown[]).slice(1)), a.filters.map((f) => (f as unknown[]).slice(1)));
  assert.equal([...b.fragments], [...a.fragments]);
});

/** Every file under `dir` (recursive) and the SHA-256 of its bytes, by name. */
async function fileHashes(dir: string): Promise<[string, string][]> {
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true });
  const files = entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();
  return Promise.all(files.map(async (f): Promise<[string, string]> => [f, createHash('sha256').update(await fs.readFile(path.join(dir, f))).digest('hex')]));
}

test('pages read from a source as each session starts: the same files, byte for byte, as from an array', async () => {
  const dir = path.join(root, 'read');
  const reads: { from: number; to: number; indexedBefore: number }[] = [];
  let indexed = 0;
  await buildSearchIndex({
    pages: { length: pages.length, read: (from, to) => { reads.push({ from, to, indexedBefore: indexed }); return pages.slice(from, to); } },
    outDir: dir, siteUrl: SITE, sessionPages: 37, progress: (done) => { indexed = done; },
  });
  // One session at a time here: each session's pages are read once the sessions before it ended, not before.
  const expected = Array.from({ length: Math.ceil(pages.length / 37) }, (_, i) => ({ from: i * 37, to: Math.min(pages.length, i * 37 + 37), indexedBefore: i * 37 }));
  assert.equal(reads, expected);
  assert.equal(await fileHashes(dir), await fileHashes(merged));
});

test('sessions that end out of order: the same files, byte for byte, as one session after another', async () => {
  const dir = path.join(root, 'out-of-order');
  // Session 2k ends only once session 2k + 1 has: the merge takes them in order all the same,
  // and the sidecar stores each session's pages when the merge takes it.
  const count = Math.ceil(pages.length / 37);
  const ended = Array.from({ length: count }, () => {
    let resolve!: () => void;
    return { promise: new Promise<void>((r) => { resolve = r; }), resolve };
  });
  const order: number[] = [];
  await buildSearchIndex({
    pages, outDir: dir, siteUrl: SITE, sessionPages: 37, parallel: 2,
    runSession: async (task) => {
      const i = Number(path.basename(task.bundle));
      const result = await indexSession(task);
      if (i % 2 === 0 && i + 1 < count) await ended[i + 1]!.promise;
      order.push(i);
      ended[i]!.resolve();
      return result;
    },
  });
  assert.ok(order.some((i, k) => k > 0 && i < order[k - 1]!), `sessions ended in order: ${order.join(' ')}`);
  assert.equal(await fileHashes(dir), await fileHashes(merged));
});

test('pages from a source that is not in path order are refused', async () => {
  const reversed = [...pages].reverse();
  try {
    await buildSearchIndex({
      pages: { length: reversed.length, read: (from, to) => reversed.slice(from, to) },
      outDir: path.join(root, 'reversed'), siteUrl: SITE, sessionPages: 37,
    });
    assert.unreachable('built');
  } catch (err) {
    assert.match((err as Error).message, /pages to index must come in path order/);
  }
});

test('and searches the same: results, order and excerpts', async () => {
  const info = pageInfo(pages);
  const one = await openSearch(single, info, FIXTURE_CURSOR_KEY);
  const many = await openSearch(merged, info, FIXTURE_CURSOR_KEY);
  try {
    for (const query of ['fontanería', 'cerrajero vigo', 'electricidad', 'diferencial', 'ñu', 'fontane', 'ceción', 'reparaciones hogar']) {
      for (const extra of [{}, { city: 'vigo' }, { limit: 3 }]) {
        const input = SearchPagesParams.parse({ query, ...extra });
        const a = await searchPages(one, input);
        const b = await searchPages(many, input);
        assert.equal(b, a, `${query} ${JSON.stringify(extra)}`);
      }
    }
  } finally {
    await one.close();
    await many.close();
  }
});

test('chunk bounds: the shortest prefixes that tell neighbouring chunks apart', () => {
  assert.equal(chunkBounds([{ from: 'apple', to: 'apple' }, { from: 'apricot', to: 'banana' }, { from: 'peach', to: 'peach' }]), [
    { from: 'apple', to: 'apple' }, // "app" would sort before "apple"
    { from: 'apr', to: 'b' },
    { from: 'p', to: 'peach' },
  ]);
  assert.ok(compareBytes('z', 'é') < 0 && compareBytes('\u{ffff}', '\u{1f600}') < 0, 'UTF-8 byte order, not UTF-16');
});

test('sessions that end out of order are read in page order, each once those before it are in', async () => {
  const size = 37;
  const dirs: string[] = [];
  for (let i = 0; i * size < pages.length; i++) {
    dirs.push(path.join(root, 'unordered', String(i)));
    await indexSession({ pages: pages.slice(i * size, (i + 1) * size), bundle: dirs[i]! });
  }
  assert.ok(dirs.length >= 3);
  const fragmentsLeft = async (dir: string) => (await fs.readdir(path.join(dir, 'fragment'))).length;
  const out = path.join(root, 'unordered-merged');
  const merger = createMerger(dirs.length, out);
  merger.add(1, dirs[1]!);
  assert.ok(await fragmentsLeft(dirs[1]!) > 0, 'session 1 waits for session 0');
  merger.add(0, dirs[0]!);
  assert.is(await fragmentsLeft(dirs[1]!), 0, 'and is read right after it');
  for (const i of [...dirs.keys()].slice(2).reverse()) merger.add(i, dirs[i]!);
  assert.throws(() => merger.add(0, dirs[0]!), /session 0 added twice/);
  const result = await merger.finish();
  assert.is(result.pages, pages.length);
  const a = await decode(path.join(single, PAGEFIND_DIR));
  const b = await decode(out);
  assert.equal(b.meta.slice(0, 3), a.meta.slice(0, 3), 'version, pages, index chunks');
  assert.equal(b.words, a.words);
  assert.equal([...b.fragments], [...a.fragments]);
});

test('the merge is not written before every session is in', async () => {
  const merger = createMerger(2, path.join(root, 'incomplete'));
  const err = await merger.finish().then(() => null, (e: unknown) => e as Error);
  assert.match(err?.message ?? '', /2 of 2 Pagefind sessions were not merged/);
});

test('a fragment whose name an earlier session took is renamed from its own hash', async () => {
  // Two hand-made one-page sessions whose fragments were given the same name.
  const sessions = [path.join(root, 's0'), path.join(root, 's1')];
  const bundle = path.join(single, PAGEFIND_DIR);
  const entry = JSON.parse(await fs.readFile(path.join(bundle, 'pagefind-entry.json'), 'utf8'));
  const fragments = ['{"url":"/a/","content":"uno"}', '{"url":"/b/","content":"dos"}'].map((s) => Buffer.from(s));
  const taken = `es_${fullHash(fragments[0]!).slice(0, 7)}`;
  for (const [i, dir] of sessions.entries()) {
    for (const sub of ['index', 'filter', 'fragment']) await fs.mkdir(path.join(dir, sub), { recursive: true });
    await fs.copyFile(path.join(bundle, 'pagefind.js'), path.join(dir, 'pagefind.js'));
    await writePayload(path.join(dir, 'fragment', `${taken}.pf_fragment`), fragments[i]!);
    const meta = new CborWriter().value(['1.5.2', [[taken, 1]], [], [], [], ['title']]).bytes();
    const metaName = `es_${fullHash(meta).slice(0, 10)}`;
    await writePayload(path.join(dir, `pagefind.${metaName}.pf_meta`), meta);
    await fs.writeFile(path.join(dir, 'pagefind-entry.json'), JSON.stringify({ ...entry, languages: { es: { ...entry.languages.es, hash: metaName, page_count: 1 } } }));
  }
  const out = path.join(root, 'collided');
  const result = await mergeSessions(sessions, out);
  const decoded = await decode(out);
  const renamed = `es_${fullHash(fragments[1]!).slice(0, 7)}`;
  assert.equal(result, { pages: 2, renamed: [new Map(), new Map([[taken, renamed]])] }, 'the rename is reported for the session it happened in');
  assert.equal(decoded.meta[1], [[taken, 1], [renamed, 1]]);
  assert.is(decoded.fragments.get(`${renamed}.pf_fragment`), fragments[1]!.toString());
  assert.is(decoded.fragments.get(`${taken}.pf_fragment`), fragments[0]!.toString());
});

test('a bundle of another Pagefind format is refused, not misread', async () => {
  const dir = path.join(root, 'future');
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, 'pagefind-entry.json'), JSON.stringify({ version: '9.0.0', languages: { es: { hash: 'es_0', wasm: 'es', page_count: 0 } } }));
  const err = await mergeSessions([dir], path.join(root, 'never')).then(() => null, (e: unknown) => e as Error);
  assert.match(err?.message ?? '', /version 9\.0\.0 — the session merge reads Pagefind 1\.5\.2 bundles only/);
});

test.run();
