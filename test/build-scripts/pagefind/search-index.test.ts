/** The search stage: Pagefind's bundle and the sidecar, from read-model pages. */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as pagefind from 'pagefind';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildSearchIndex, endSessions, indexedText, indexSession } from '../../../build-scripts/pagefind/search-index.ts';
import { pagefindChildren, pagefindChildrenGone } from '../../helpers/processes.ts';
import { PAGEFIND_DIR, readIndexedPages, readSidecar as readSidecarFile } from '../../../formats/search/sidecar.ts';
import { fold, words } from '../../../formats/search/text.ts';
import { headingText } from '../../../formats/search/plain-text.ts';
import { stem } from '../../../formats/search/stem-es.ts';
import { familyStems, Vocabulary } from '../../../formats/search/vocabulary.ts';
import { ROOT } from '../../../server/config.ts';
import { POSTINGS_FILE } from '../../../formats/search/postings-format.ts';
import { fixturePages, SITE, stageFixtureIndex } from '../../server/search/fixtures.ts';

let built: Awaited<ReturnType<typeof stageFixtureIndex>>;
const readSidecar = async (dir: string) => {
  const file = await readSidecarFile(dir);
  return { site_url: file.siteUrl, vocabulary: [...file.vocabulary()].map(([w, n]) => [w, n] as const), pages: await readIndexedPages(dir) };
};
let sidecar: Awaited<ReturnType<typeof readSidecar>>;

test.before(async () => {
  built = await stageFixtureIndex();
  sidecar = await readSidecar(built.dir);
});

test.after(async () => {
  await built?.remove();
});

test('every page is indexed once, under its Pagefind id', async () => {
  assert.is(built.indexed, built.pages.length);
  assert.equal(sidecar.pages.map((p) => p.path).sort(), built.pages.map((p) => p.path).sort());
  assert.is(new Set(sidecar.pages.map((p) => p.id)).size, sidecar.pages.length);
  const fragments = (await fs.readdir(path.join(built.dir, PAGEFIND_DIR, 'fragment'))).map((f) => f.replace(/\.pf_fragment$/, ''));
  for (const p of sidecar.pages) assert.ok(fragments.includes(p.id), `fragment of ${p.path}`);
  assert.is(sidecar.site_url, SITE);
  assert.equal((await fs.readdir(built.dir)).filter((f) => f.startsWith('.')), [], 'no session folders or texts left');
});

test('the bundle holds what Node search needs, and no browser UI', async () => {
  const files = await fs.readdir(path.join(built.dir, PAGEFIND_DIR));
  for (const f of ['pagefind.js', 'pagefind-entry.json', 'wasm.es.pagefind']) assert.ok(files.includes(f), f);
  assert.ok(files.some((f) => f.endsWith('.pf_meta')));
  assert.not.ok(files.some((f) => /ui|highlight|worker/.test(f)), files.join(', '));
  const entry = JSON.parse(await fs.readFile(path.join(built.dir, PAGEFIND_DIR, 'pagefind-entry.json'), 'utf8'));
  assert.equal(Object.keys(entry.languages), ['es']);
});

test('indexed text: plain, single-spaced, description first when the body does not say it', () => {
  for (const p of sidecar.pages) {
    assert.not.match(p.text, /\s{2}|[\n\t]|\*\*|\]\(|^#|<\/?[a-z]/, p.path);
    assert.is(p.text, p.text.trim());
  }
  const plumbing = built.pages.find((p) => p.path === '/servicios/fontaneria/madrid/')!;
  const text = sidecar.pages.find((p) => p.path === plumbing.path)!.text;
  assert.ok(text.startsWith(plumbing.description + ' '));
  assert.ok(text.includes('Fontanería en Madrid. ¿Tiene una fuga de agua,'));
  assert.is(indexedText({ description: 'Uno dos.', markdown: 'Uno dos. Tres.' }), 'Uno dos. Tres.');
  assert.is(indexedText({ description: '', markdown: '# Hola' }), 'Hola.');
});

test('vocabulary: folded words of titles and texts with their page counts', () => {
  const df = new Map(sidecar.vocabulary);
  assert.ok(df.has('fontaneria'));
  assert.not.ok(df.has('fontanería'));
  for (const word of ['cerrajeria', 'vigo', 'diferencial']) {
    const expected = sidecar.pages.filter((p) => {
      const page = built.pages.find((x) => x.path === p.path)!;
      return words(`${page.title} ${p.text}`).includes(word);
    }).length;
    assert.is(df.get(word), expected, word);
  }
  assert.equal(sidecar.vocabulary.map(([w]) => w), [...df.keys()].sort());
});

test('the sidecar holds each page\'s title stems and heading stems (headings and description), and each word\'s stem', async () => {
  const file = await readSidecarFile(built.dir);
  const { titles, heads } = file.stems();
  const probes = ['fontanero', 'fontanería', 'cerrajero', 'electricista', 'vigo', 'málaga', 'palmas', 'precio', 'funciona', 'presupuesto', 'agua', 'zzz'];
  for (let i = 0; i < file.size; i++) {
    const page = built.pages.find((p) => p.path === file.path(i))!;
    const titleSet = new Set(words(page.title).map(stem));
    const headSet = new Set(words(`${headingText(page.markdown)} ${page.description}`).map(stem));
    for (const q of probes) {
      const family = familyStems(fold(q));
      assert.is(titles.hasAny(i, family), [...family].some((s) => titleSet.has(s)), `${q} in the title of ${page.path}`);
      assert.is(heads.hasAny(i, family), [...family].some((s) => headSet.has(s)), `${q} in the headings of ${page.path}`);
    }
  }
  for (const [word, , wordStem] of file.vocabulary()) assert.is(wordStem, stem(word), word);
});

test('the vocabulary as the sidecar lays it out answers as one made from its words', async () => {
  const file = await readSidecarFile(built.dir);
  const laidOut = new Vocabulary(file.vocabularyData(), file.size);
  const made = new Vocabulary([...file.vocabulary()].map(([w, n]) => [w, n] as const), file.size);
  assert.equal(laidOut.words(), made.words());
  const probes = [...made.words(), 'fontanero', 'fontaneros', 'fontanro', 'cerrajro', 'electrisista', 'vigo', 'bigo', 'zzzzzz', 'a', ''];
  for (const w of probes) {
    assert.is(laidOut.pages(w), made.pages(w), `pages ${w}`);
    assert.equal(laidOut.family(w), made.family(w), `family ${w}`);
    assert.is(laidOut.familyPages(w), made.familyPages(w), `familyPages ${w}`);
    assert.is(laidOut.correct(w), made.correct(w), `correct ${w}`);
  }
});

test('a rebuild replaces the folder', async () => {
  const dir = built.dir;
  await fs.writeFile(path.join(dir, 'stale.txt'), 'old');
  const pages = fixturePages().slice(0, 3);
  const { indexed } = await buildSearchIndex({ pages, outDir: dir, siteUrl: SITE });
  assert.is(indexed, 3);
  const again = await readSidecar(dir);
  assert.is(again.pages.length, 3);
  assert.not.ok((await fs.readdir(dir)).includes('stale.txt'));
});

test("two sessions of one thread at once share its Pagefind process, which runs on until endSessions", async () => {
  const before = pagefindChildren({ zombies: true });
  // The build's pool hands a worker a second task while one runs, so two sessions can meet there.
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-sessions-'));
  try {
    // A short session beside a long one (its records go in several windows): the short one ends first.
    const pages = fixturePages();
    const many = Array.from({ length: 8 }, (_, copy) => pages.map((p) => ({ ...p, path: `${p.path}copia-${copy}/` }))).flat();
    const [a, b] = await Promise.all([
      indexSession({ pages: pages.slice(0, 2), bundle: path.join(dir, 'a') }),
      indexSession({ pages: many, bundle: path.join(dir, 'b') }),
    ]);
    assert.is(a.texts.length, 2);
    assert.is(b.texts.length, many.length);
    for (const [bundle, count] of [['a', 2], ['b', many.length]] as const) {
      const entry = JSON.parse(await fs.readFile(path.join(dir, bundle, 'pagefind-entry.json'), 'utf8'));
      assert.is(entry.languages.es.page_count, count, bundle);
    }
    const [process] = pagefindChildren();
    assert.ok(process, 'the Pagefind process outlives the sessions');
    const c = await indexSession({ pages: pages.slice(0, 1), bundle: path.join(dir, 'c') });
    assert.is(c.texts.length, 1);
    assert.equal(pagefindChildren(), [process], 'the next session uses the same process');
    await endSessions();
    // At once: a worker thread ends as soon as endSessions returns, and an exit it did not
    // collect would stay a zombie of the build.
    assert.equal(pagefindChildren({ zombies: true }).filter((pid) => !before.includes(pid)), [], 'endSessions returns once the process has exited and its exit is collected');
  } finally {
    await endSessions();
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('the Pagefind processes are stopped once the last session ends, before the bundle is merged and the postings written', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-sessions-'));
  try {
    let running = 0;
    let ended = 0;
    const seen: { running: number; ended: number; merged: boolean; postings: boolean }[] = [];
    const exists = (file: string) => fs.access(file).then(() => true, () => false);
    await buildSearchIndex({
      pages: fixturePages(), outDir: dir, siteUrl: SITE, sessionPages: 2, parallel: 2,
      runSession: async (task) => {
        running++;
        try { return await indexSession(task); } finally { running--; ended++; }
      },
      endSessions: async () => {
        seen.push({ running, ended, merged: await exists(path.join(dir, PAGEFIND_DIR, 'pagefind-entry.json')), postings: await exists(path.join(dir, POSTINGS_FILE)) });
        await endSessions();
        assert.equal(pagefindChildren(), [], 'stopped');
      },
    });
    assert.equal(seen, [{ running: 0, ended: Math.ceil(fixturePages().length / 2), merged: false, postings: false }]);
  } finally {
    await endSessions();
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('an index built in this thread stops its Pagefind process when done', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-sessions-'));
  try {
    await buildSearchIndex({ pages: fixturePages(), outDir: dir, siteUrl: SITE, sessionPages: 2 });
    assert.ok(await pagefindChildrenGone());
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

/** The environment of this process's running Pagefind child, from Linux's /proc; null when none runs. */
function pagefindChildEnv(): Map<string, string> | null {
  for (const pid of pagefindChildren()) {
    let environ: string[];
    try { environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean); } catch { continue; }
    return new Map(environ.map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
  }
  return null;
}

test("Pagefind's process asks jemalloc for transparent huge pages; a configuration the user set is kept", async () => {
  // The service starts with the first call and runs until close().
  const created = await pagefind.createIndex({ forceLanguage: 'es' });
  try {
    const env = pagefindChildEnv();
    assert.ok(env, 'a Pagefind process runs');
    assert.is(env.get('_RJEM_MALLOC_CONF'), 'thp:always,metadata_thp:always');
  } finally {
    await created.index?.deleteIndex();
    await pagefind.close();
  }
  const own = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e',
    "await import('./build-scripts/pagefind/search-index.ts'); process.stdout.write(process.env._RJEM_MALLOC_CONF ?? 'unset')"],
  { cwd: ROOT, env: { ...process.env, _RJEM_MALLOC_CONF: 'narenas:1' }, encoding: 'utf8' });
  assert.is(own.status, 0, own.stderr);
  assert.is(own.stdout, 'narenas:1');
});

test.run();
