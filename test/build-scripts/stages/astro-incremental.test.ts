/**
 * Astro's incremental build on a small copy of the site (one project for the whole suite, each
 * test building on what the one before left): an unchanged build renders no keyed page again; an
 * edit renders again exactly the pages that show it; `--full` and a damaged cache render them all,
 * and the pages reused are byte for byte those a full build writes.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createAstroProject, type AstroProject } from '../../helpers/astro-project.ts';
import type { AstroResult } from '../../../build-scripts/stages/astro.ts';

const SITE_URL = 'http://incremental.test';
const OTHER_SITE_URL = 'http://otra-direccion.test';
const EDITED = 'cisterna-pierde-agua';
const SIBLING = 'fuga-agua-fregadero';
const OTHER_SERVICE = 'goteras-en-el-techo';
const CITIES = ['madrid', 'sevilla'];

/** Pages of getStaticPaths routes, which carry a cacheKey; every other page is rendered on each build. */
const KEYED = /^\/(?:guias\/[^/]+|servicios\/[^/]+(?:\/[^/]+)?|ciudades\/[^/]+)\/index\.html$/;
const keyed = (result: AstroResult) => result.rendered.filter((p) => KEYED.test(p)).sort();

interface Context {
  project: AstroProject;
  siteUrl: string;
  /** Every keyed page of the site, as the first build wrote them. */
  all: string[];
}

const incremental = suite<Context>('astro incremental build');

async function keyedPages(distDir: string): Promise<string[]> {
  const files = await fs.readdir(distDir, { recursive: true });
  return files.map((f) => `/${f.split(path.sep).join('/')}`).filter((p) => KEYED.test(p)).sort();
}

async function contents(project: AstroProject, pages: string[]): Promise<Record<string, string>> {
  return Object.fromEntries(await Promise.all(pages.map(async (p) => [p, await project.page(p)] as const)));
}

const build = (ctx: Context, options: { full?: boolean; lines?: string[] } = {}) => ctx.project.build({ siteUrl: ctx.siteUrl, ...options });

/** Edits a file of the project, builds, and checks every keyed page was rendered again and shows `shown`. */
async function everyPageShows(ctx: Context, rel: string, edit: (text: string) => string, shown: string): Promise<void> {
  await ctx.project.write(rel, edit(await ctx.project.read(rel)));
  const result = await build(ctx);
  assert.equal(keyed(result), ctx.all);
  for (const page of ctx.all) assert.match(await ctx.project.page(page), shown, page);
}

incremental.before(async (ctx) => {
  ctx.project = await createAstroProject({ guides: [EDITED, SIBLING, OTHER_SERVICE], cities: CITIES, siteUrl: SITE_URL });
  ctx.siteUrl = SITE_URL;
  const lines: string[] = [];
  const first = await build(ctx, { lines });
  ctx.all = await keyedPages(ctx.project.distDir);
  assert.equal(keyed(first), ctx.all, 'the first build renders every page');
  assert.ok(lines.includes('astro: no incremental cache yet: every page rendered'), lines.join('\n'));
  // 21 cities, 16 services, each in two cities, three guides.
  assert.is(ctx.all.length, 21 + 16 + 16 * CITIES.length + 3);
});

incremental.after(async (ctx) => {
  await ctx.project?.remove();
});

incremental('an unchanged build renders no keyed page and writes the same bytes; what the last output held besides is gone, and nothing is left beside it', async (ctx) => {
  const before = await contents(ctx.project, ctx.all);
  const outDir = path.dirname(ctx.project.distDir);
  const beside = async () => (await fs.readdir(path.dirname(outDir))).filter((n) => n.includes(path.basename(outDir))).sort();
  const around = await beside();
  await fs.writeFile(path.join(ctx.project.distDir, 'left-over.html'), '<p>old</p>');
  const lines: string[] = [];
  const result = await build(ctx, { lines });
  assert.equal(keyed(result), []);
  assert.equal(lines, [], 'nothing to say');
  assert.equal(await contents(ctx.project, ctx.all), before);
  assert.not.ok(await fs.access(path.join(ctx.project.distDir, 'left-over.html')).then(() => true, () => false), 'the old output is gone');
  assert.equal(await beside(), around);
});

incremental('an edited guide body renders its own page again, and no other', async (ctx) => {
  const rel = `src/content/guides/${EDITED}.md`;
  await ctx.project.write(rel, `${await ctx.project.read(rel)}\n## Si gotea el tragaluz\n\nSella el marco del tragaluz con silicona neutra.\n`);
  const result = await build(ctx);
  assert.equal(keyed(result), [`/guias/${EDITED}/index.html`]);
  assert.match(await ctx.project.page(`/guias/${EDITED}/index.html`), 'Sella el marco del tragaluz con silicona neutra.');
});

incremental('an edited guide title renders again the pages that list it: its service\'s pages and guides', async (ctx) => {
  const rel = `src/content/guides/${EDITED}.md`;
  await ctx.project.write(rel, (await ctx.project.read(rel)).replace(/^title: ".*"$/m, 'title: "La cisterna no para de perder agua"'));
  const result = await build(ctx);
  assert.equal(keyed(result), [
    `/guias/${EDITED}/index.html`, `/guias/${SIBLING}/index.html`, '/servicios/fontaneria/index.html',
    ...CITIES.map((c) => `/servicios/fontaneria/${c}/index.html`),
  ].sort());
  for (const page of [`/guias/${SIBLING}/index.html`, '/servicios/fontaneria/madrid/index.html']) {
    assert.match(await ctx.project.page(page), 'La cisterna no para de perder agua', page);
  }
});

/** A guide of plumbing whose title sorts after the sample's own guides. */
const manyGuide = (n: number) => [`src/content/guides/zz-guia-${n}.md`, `---\ntitle: "Zz guía ${String(n).padStart(2, '0')}"\ndescription: "Guía de prueba ${n}."\nservice: fontaneria\n---\n\nEl fontanero revisa la instalación ${n}.\n`] as const;

incremental('a service with many guides lists six; one guide added renders its page and its nearest guides, no service page', async (ctx) => {
  for (let n = 0; n < 10; n++) await ctx.project.write(...manyGuide(n));
  await build(ctx);
  ctx.all = await keyedPages(ctx.project.distDir);
  const servicePage = await ctx.project.page('/servicios/fontaneria/madrid/index.html');
  assert.is((servicePage.match(/href="\/guias\/[a-z0-9-]+\/"/g) ?? []).length, 6, 'six guides listed');
  assert.match(servicePage, '>Todas las guías<');

  await ctx.project.write(...manyGuide(10));
  const added = keyed(await build(ctx));
  assert.ok(added.includes('/guias/zz-guia-10/index.html'), added.join('\n'));
  assert.ok(added.every((p) => p.startsWith('/guias/')), `no service page: ${added.join(', ')}`);
  assert.ok(added.length <= 7, `its page and its nearest guides: ${added.join(', ')}`);
  assert.match(await ctx.project.page('/guias/zz-guia-9/index.html'), 'href="/guias/zz-guia-10/"', 'its neighbour lists it');

  for (let n = 0; n <= 10; n++) await fs.rm(path.join(ctx.project.root, manyGuide(n)[0]));
  await build(ctx);
  ctx.all = await keyedPages(ctx.project.distDir);
});

incremental('--full renders every page, each as the incremental builds before had left it; the next build reuses them', async (ctx) => {
  const before = await contents(ctx.project, ctx.all);
  // A Markdown plugin changed in a way that leaves its output alone: --full takes it into account.
  const plugin = 'src/lib/rehype-scroll-tables.ts';
  await ctx.project.write(plugin, `${await ctx.project.read(plugin)}\n// v2\n`);
  const lines: string[] = [];
  const result = await build(ctx, { full: true, lines });
  assert.equal(keyed(result), ctx.all);
  assert.equal(lines, ['astro: full build: Astro\'s caches cleared, every page rendered']);
  assert.equal(await contents(ctx.project, ctx.all), before);
  assert.equal(keyed(await build(ctx)), []);
});

incremental('a service renamed in services.json renders again every page, each showing the new name', async (ctx) => {
  await everyPageShows(ctx, 'src/content/services.json', (text) => text.replace('"name": "Cristalería"', '"name": "Cristalería y espejos"'), 'Cristalería y espejos');
});

incremental('a city\'s text changed in cities.json renders again every page: each lists every city', async (ctx) => {
  const rel = 'src/content/cities.json';
  const cities = JSON.parse(await ctx.project.read(rel)) as { id: string; intro: string }[];
  cities.find((c) => c.id === 'sevilla')!.intro = 'Sevilla, con su calor de verano, castiga toldos y aires acondicionados.';
  await ctx.project.write(rel, JSON.stringify(cities, null, 2));
  const result = await build(ctx);
  assert.equal(keyed(result), ctx.all);
  assert.match(await ctx.project.page('/ciudades/sevilla/index.html'), 'castiga toldos y aires acondicionados');
});

incremental('a company phone changed in company.json renders again every page, each showing it', async (ctx) => {
  const phone = '+34 910 000 999';
  await everyPageShows(ctx, 'src/content/company.json', (text) => JSON.stringify({ ...JSON.parse(text) as object, phone }, null, 2), phone);
});

incremental('a layout change renders again every page', async (ctx) => {
  await everyPageShows(ctx, 'src/layouts/BaseLayout.astro',
    (text) => text.replace('<meta name="theme-color"', '<meta name="agentes:layout" content="v2" />\n    <meta name="theme-color"'),
    '<meta name="agentes:layout" content="v2">');
});

incremental('another SITE_URL renders again every page, each addressed by it', async (ctx) => {
  ctx.siteUrl = OTHER_SITE_URL;
  const result = await build(ctx);
  assert.equal(keyed(result), ctx.all);
  for (const page of ctx.all) assert.match(await ctx.project.page(page), `<link rel="canonical" href="${OTHER_SITE_URL}/`, page);
});

incremental('a copy in the incremental cache that lost bytes: every page rendered, one line saying why', async (ctx) => {
  const copy = path.join(ctx.project.root, 'node_modules', '.astro', 'dist', 'client', 'ciudades', 'madrid', 'index.html');
  await fs.writeFile(copy, (await fs.readFile(copy, 'utf8')).slice(0, 100));
  const lines: string[] = [];
  const result = await build(ctx, { lines });
  assert.equal(keyed(result), ctx.all);
  assert.equal(lines, ['astro: the incremental cache\'s copy of client/ciudades/madrid/index.html changed since it was written: every page rendered']);
  assert.match(await ctx.project.page('/ciudades/madrid/index.html'), '</html>');
});

incremental.run();
