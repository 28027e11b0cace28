/**
 * The check after `astro build` (content-check.ts) against stores written by Astro's own
 * MutableDataStore: it passes a site built from the sources as they are, and names the page of
 * the first source the site does not reflect.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import xxhash from 'xxhash-wasm';
import { findStaleContent } from '../../build-scripts/content-check.ts';
import { checkedFile, clearContentStore } from '../../build-scripts/astro-store.ts';
import { renderGuideFile } from '../../src/lib/guide-markdown.ts';
import { astroStoreClass, storeDir, storeFile, type AstroStore } from '../helpers/astro-store.ts';

const GUIDES: Record<string, string> = {
  'fuga-de-agua.md': '---\ntitle: "Fuga de agua"\ndescription: "Qué hacer."\nservice: fontaneria\n---\n\nCierra la llave de paso.\n',
  'tragaluz.md': '---\ntitle: "Tragaluz"\ndescription: "Goteras."\nservice: tejados\n---\n\nRevisa el sellado.\n',
};
const SERVICES = [{ id: 'fontaneria', name: 'Fontanería', prices: [{ min: 45, max: 90 }] }, { id: 'tejados', name: 'Tejados' }];
const CITIES = [{ id: 'madrid', name: 'Madrid' }];
const COMPANY = { brand: 'Casa', pages: { contacto: '/contacto/' } };

const rendered = (text: string) => `<p>${text.split('---\n').at(-1)!.trim()}</p>`;

interface Project {
  root: string;
  contentDir: string;
  distDir: string;
  guide(name: string): string;
  /**
   * What `astro build` would leave: the store from the sources now, and the guides' pages from it
   * (unless `pages` is false); with `ownRender`, as the site's loader and pages make them (no HTML
   * in the store, each page rendering its file).
   */
  build(options?: { chunked?: boolean; pages?: boolean; ownRender?: boolean }): Promise<void>;
}

async function project(): Promise<Project> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-content-check-'));
  const contentDir = path.join(root, 'src', 'content');
  const distDir = path.join(root, 'dist', 'client');
  await fs.mkdir(path.join(contentDir, 'guides'), { recursive: true });
  for (const [name, text] of Object.entries(GUIDES)) await fs.writeFile(path.join(contentDir, 'guides', name), text);
  await fs.writeFile(path.join(contentDir, 'services.json'), JSON.stringify(SERVICES));
  await fs.writeFile(path.join(contentDir, 'cities.json'), JSON.stringify(CITIES));
  await fs.writeFile(path.join(contentDir, 'company.json'), JSON.stringify(COMPANY));
  const { h64ToString } = await xxhash();
  const Store = await astroStoreClass();
  const p: Project = {
    root, contentDir, distDir,
    guide: (name) => path.join(contentDir, 'guides', name),
    async build(options = {}) {
      await fs.rm(path.join(root, 'node_modules', '.astro', 'data-store.json'), { force: true });
      await fs.rm(path.join(root, 'node_modules', '.astro', 'data-store'), { recursive: true, force: true });
      const store: AstroStore = options.chunked
        ? await Store.fromDir(storeDir(root), 64, console) // chunks smaller than an entry: entries span files
        : await Store.fromFile(storeFile(root));
      const readJson = async (file: string) => JSON.parse(await fs.readFile(path.join(contentDir, file), 'utf8')) as Record<string, unknown>[];
      // The schema's key order, not the file's: the check must not care.
      for (const s of await readJson('services.json')) store.scopedStore('services').set({ id: String(s.id), data: Object.fromEntries(Object.entries(s).reverse()) });
      for (const c of await readJson('cities.json')) store.scopedStore('cities').set({ id: String(c.id), data: c });
      store.scopedStore('company').set({ id: 'empresa', data: JSON.parse(await fs.readFile(path.join(contentDir, 'company.json'), 'utf8')) as Record<string, unknown> });
      for (const name of await fs.readdir(path.join(contentDir, 'guides'))) {
        const text = await fs.readFile(p.guide(name), 'utf8');
        const id = name.slice(0, -3);
        const filePath = `src/content/guides/${name}`;
        const html = options.ownRender ? await renderGuideFile(filePath, root) : rendered(text);
        store.scopedStore('guides').set(options.ownRender
          ? { id, data: { title: id }, filePath, digest: h64ToString(text) }
          : { id, data: { title: id }, body: text, filePath, digest: h64ToString(text), rendered: { html, metadata: {} } });
        if (options.pages === false) continue;
        await fs.mkdir(path.join(distDir, 'guias', id), { recursive: true });
        await fs.writeFile(path.join(distDir, 'guias', id, 'index.html'), `<!doctype html><main><h1>${id}</h1><div class="prose">${html}</div></main>`);
      }
      await store.waitUntilSaveComplete();
    },
  };
  return p;
}

function projectTest(name: string, fn: (p: Project) => Promise<void>): void {
  test(name, async () => {
    const p = await project();
    try {
      await fn(p);
    } finally {
      await fs.rm(p.root, { recursive: true, force: true });
    }
  });
}

const check = (p: Project) => findStaleContent({ root: p.root, contentDir: p.contentDir, distDir: p.distDir });

projectTest('a site built from the sources as they are passes, single-file and chunked stores alike', async (p) => {
  await p.build();
  assert.is(await check(p), null);
  await p.build({ chunked: true });
  assert.is(await check(p), null);
});

projectTest('a guide edited after the store was written: its page is named, with both digests', async (p) => {
  await p.build();
  await fs.appendFile(p.guide('tragaluz.md'), '\n## Si gotea el tragaluz\n\nRevisa las tejas de alrededor.\n');
  const stale = await check(p);
  assert.is(stale?.page, '/guias/tragaluz/');
  assert.match(stale!.detail, /^Astro's content store holds an older src\/content\/guides\/tragaluz\.md \(digest [0-9a-f]{16}, the file's is [0-9a-f]{16}\)$/);
});

projectTest('a page that does not hold its entry as the store renders it is named', async (p) => {
  await p.build({ chunked: true });
  const page = path.join(p.distDir, 'guias', 'fuga-de-agua', 'index.html');
  await fs.writeFile(page, (await fs.readFile(page, 'utf8')).replace('Cierra la llave de paso.', 'Texto de ayer.'));
  assert.equal(await check(p), { page: '/guias/fuga-de-agua/', detail: 'the built page does not hold src/content/guides/fuga-de-agua.md as it renders' });
});

projectTest('a store without the guides\' HTML: each page must hold its file rendered as the page renders it', async (p) => {
  await p.build({ ownRender: true });
  assert.is(await check(p), null);
  const page = path.join(p.distDir, 'guias', 'tragaluz', 'index.html');
  assert.ok((await fs.readFile(page, 'utf8')).includes('<p>Revisa el sellado.</p>'));
  await fs.writeFile(page, (await fs.readFile(page, 'utf8')).replace('Revisa el sellado.', 'Texto de ayer.'));
  await fs.rm(checkedFile(p.root), { force: true });
  assert.equal(await check(p), { page: '/guias/tragaluz/', detail: 'the built page does not hold src/content/guides/tragaluz.md as it renders' });
});

projectTest('once checked, only the pages of the guides changed since are read again; clearing the store clears that record', async (p) => {
  await p.build();
  assert.is(await check(p), null);
  const page = path.join(p.distDir, 'guias', 'fuga-de-agua', 'index.html');
  const good = await fs.readFile(page, 'utf8');
  await fs.writeFile(page, good.replace('Cierra la llave de paso.', 'Texto de ayer.'));
  assert.is(await check(p), null, 'an unchanged guide\'s page is not read');
  await fs.appendFile(p.guide('fuga-de-agua.md'), 'Y llama al fontanero.\n');
  await p.build({ pages: false });
  assert.is((await check(p))?.detail, 'the built page does not hold src/content/guides/fuga-de-agua.md as it renders');
  await fs.writeFile(page, good);
  await p.build();
  assert.is(await check(p), null);
  await fs.writeFile(page, good);
  await clearContentStore(p.root);
  await p.build({ pages: false });
  assert.is((await check(p))?.page, '/guias/fuga-de-agua/', 'without the record every page is read');
});

projectTest('a guide added or deleted since the store was written is named', async (p) => {
  await p.build();
  await fs.writeFile(p.guide('nueva.md'), GUIDES['tragaluz.md']!);
  assert.equal(await check(p), { page: '/guias/nueva/', detail: 'src/content/guides/nueva.md is not in Astro\'s content store' });
  await fs.rm(p.guide('nueva.md'));
  await fs.rm(p.guide('tragaluz.md'));
  assert.equal(await check(p), { page: '/guias/tragaluz/', detail: 'Astro\'s content store still holds src/content/guides/tragaluz.md, which is gone' });
});

projectTest('a changed, added or removed item of a JSON collection is named by its collection\'s page', async (p) => {
  await p.build();
  await fs.writeFile(path.join(p.contentDir, 'services.json'), JSON.stringify([{ ...SERVICES[0], prices: [{ min: 50, max: 90 }] }, SERVICES[1]]));
  assert.equal(await check(p), { page: '/servicios/', detail: 'Astro\'s content store holds an older entry fontaneria of src/content/services.json' });
  await fs.writeFile(path.join(p.contentDir, 'cities.json'), JSON.stringify([...CITIES, { id: 'sevilla', name: 'Sevilla' }]));
  await fs.writeFile(path.join(p.contentDir, 'services.json'), JSON.stringify(SERVICES));
  assert.equal(await check(p), { page: '/ciudades/', detail: 'Astro\'s content store lacks the entry sevilla of src/content/cities.json' });
  await fs.writeFile(path.join(p.contentDir, 'cities.json'), JSON.stringify(CITIES));
  await fs.writeFile(path.join(p.contentDir, 'services.json'), JSON.stringify(SERVICES.slice(0, 1)));
  assert.equal(await check(p), { page: '/servicios/', detail: 'Astro\'s content store holds 2 entries of src/content/services.json, which has 1' });
});

projectTest('guides without a store to check them against fail the check; a project without guides or store passes', async (p) => {
  assert.equal(await check(p), { page: '/guias/fuga-de-agua/', detail: `Astro's content store is not in ${path.join(p.root, 'node_modules', '.astro')}: the pages cannot be checked against src/content` });
  await fs.rm(path.join(p.contentDir, 'guides'), { recursive: true });
  assert.is(await check(p), null);
});

test.run();
