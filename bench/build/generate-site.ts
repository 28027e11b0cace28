/**
 * A large built site for the read-model benchmark: the sample site's own output (its Astro layout,
 * header/nav/footer markers, `data-pagefind-*` attributes, meta tags) copied into a temp folder,
 * plus cloned service×city pages up to `pages` in total. Each clone gets its own path, title,
 * canonical URL and a paragraph of generated Spanish-looking words, so the Pagefind vocabulary
 * grows with the site as a real one does. Hub pages (`/zonas/<n>/`) link every clone and the home
 * page links the hubs, so the crawler reaches all of them by links; the sitemap lists them too.
 *
 * The sample site's own content files (src/content) still describe it: the clones are extra pages
 * of known kinds and cities, which the company stage does not list.
 */
import fs from 'node:fs/promises';
import path from 'node:path';

export interface GeneratedSite {
  distDir: string;
  pages: number;
  bytes: number;
}

const PER_HUB = 100;
const SYLLABLES = ['ba', 'ca', 'da', 'fe', 'go', 'la', 'ma', 'ne', 'pi', 'ro', 'sa', 'te', 'vi', 'zo', 'que', 'lla', 'rra', 'cho', 'ñu', 'gue', 'tri', 'blo', 'cre', 'dul'];
const ENDINGS = ['ción', 'miento', 'ero', 'ería', 'ista', 'ado', 'able', 'oso', 'al', 'ez'];

/** Deterministic PRNG (mulberry32): the same site on every run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makeWord(rand: () => number): string {
  let w = '';
  const n = 2 + Math.floor(rand() * 3);
  for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
  return w + ENDINGS[Math.floor(rand() * ENDINGS.length)];
}

async function copyTree(from: string, to: string): Promise<string[]> {
  const pages: string[] = [];
  const entries = await fs.readdir(from, { withFileTypes: true, recursive: true });
  for (const e of entries) {
    if (!e.isFile() || e.name.endsWith('.gz') || e.name.endsWith('.br')) continue;
    const rel = path.relative(from, path.join(e.parentPath, e.name));
    await fs.mkdir(path.join(to, path.dirname(rel)), { recursive: true });
    await fs.copyFile(path.join(from, rel), path.join(to, rel));
    if (e.name === 'index.html') pages.push('/' + path.dirname(rel).split(path.sep).filter((s) => s !== '.').map((s) => s + '/').join(''));
  }
  return pages;
}

/** The paths the sample site's own sitemap lists: pages it leaves out (404, the search shell) stay out. */
async function listedPaths(sourceDir: string, siteUrl: string): Promise<string[]> {
  const xml = await fs.readFile(path.join(sourceDir, 'sitemap-0.xml'), 'utf8');
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!, siteUrl).pathname);
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Writes `site` (`dist/client`-shaped) with `total` pages, cloned from the built sample site in `sourceDir`. */
export async function generateSite(sourceDir: string, outDir: string, total: number, siteUrl = 'http://localhost:4321'): Promise<GeneratedSite> {
  await fs.rm(outDir, { recursive: true, force: true });
  await fs.mkdir(outDir, { recursive: true });
  const existing = await copyTree(sourceDir, outDir);
  const templates = existing.filter((p) => /^\/servicios\/[a-z0-9-]+\/[a-z0-9-]+\/$/.test(p)).sort();
  if (templates.length === 0) throw new Error(`${sourceDir}: no service×city pages to clone (is the sample site built?)`);
  const homeHtml = await fs.readFile(path.join(outDir, 'index.html'), 'utf8');

  const rand = prng(42);
  const vocabulary = Array.from({ length: 20_000 }, () => makeWord(rand));
  const clones = Math.max(0, total - existing.length);
  const hubs = Math.ceil(clones / (PER_HUB + 1));
  const cloneCount = Math.max(0, clones - hubs);
  const cache = new Map<string, string>();
  const hubLinks: string[][] = Array.from({ length: hubs }, () => []);
  let bytes = 0;

  for (let i = 0; i < cloneCount; i++) {
    const source = templates[i % templates.length]!;
    const variant = `zona-${Math.floor(i / templates.length) + 1}`;
    const [, , service, city] = source.split('/');
    const target = `/servicios/${service}-${variant}/${city}/`;
    let html = cache.get(source);
    if (html === undefined) {
      html = await fs.readFile(path.join(sourceDir, source, 'index.html'), 'utf8');
      cache.set(source, html);
    }
    const zone = `${makeWord(rand)} ${makeWord(rand)}`;
    const words = Array.from({ length: 60 }, () => vocabulary[Math.floor(rand() * vocabulary.length)]).join(' ');
    const out = html
      .replace(new RegExp(escapeRe(siteUrl + source), 'g'), siteUrl + target)
      .replace(/<title>([^<]*?) \|/, (_, t: string) => `<title>${t} (${zone}) |`)
      .replace(/(<h1[^>]*>)([^<]*)(<\/h1>)/, (_, open: string, t: string, close: string) =>
        `${open}${t} (${zone})${close}<p>Zona ${zone}: ${words}.</p>`);
    const file = path.join(outDir, target, 'index.html');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, out);
    bytes += out.length;
    hubLinks[i % hubs]!.push(target);
  }

  // Hubs: a copy of the home page's layout whose main content lists the clones.
  for (let h = 0; h < hubs; h++) {
    const hubPath = `/zonas/${h + 1}/`;
    const list = hubLinks[h]!.map((p) => `<li><a href="${p}">${p}</a></li>`).join('');
    const main = `<main id="contenido" data-pagefind-body><h1 data-pagefind-meta="title">Zona ${h + 1}</h1><ul>${list}</ul></main>`;
    const html = homeHtml
      .replace(/<main[\s\S]*<\/main>/, main)
      .replace(/<title>[^<]*<\/title>/, `<title>Zona ${h + 1} | Aviso Hogar</title>`)
      .replace(new RegExp(`(rel="canonical" href=")${escapeRe(siteUrl)}/"`), `$1${siteUrl}${hubPath}"`)
      .replace(/<meta name="agentes:kind" content="[^"]*">/, '<meta name="agentes:kind" content="info">');
    await fs.mkdir(path.join(outDir, hubPath), { recursive: true });
    await fs.writeFile(path.join(outDir, hubPath, 'index.html'), html);
  }
  if (hubs > 0) {
    const nav = `<nav data-pagefind-ignore="all"><ul>${Array.from({ length: hubs }, (_, h) => `<li><a href="/zonas/${h + 1}/">Zona ${h + 1}</a></li>`).join('')}</ul></nav>`;
    await fs.writeFile(path.join(outDir, 'index.html'), homeHtml.replace('</main>', `</main>${nav}`));
  }

  const all = [...await listedPaths(sourceDir, siteUrl), ...hubLinks.flat(), ...Array.from({ length: hubs }, (_, h) => `/zonas/${h + 1}/`)].sort();
  const urlset = all.map((p) => `<url><loc>${siteUrl}${p}</loc></url>`).join('');
  await fs.writeFile(path.join(outDir, 'sitemap-0.xml'),
    `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urlset}</urlset>`);
  await fs.writeFile(path.join(outDir, 'sitemap-index.xml'),
    `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${siteUrl}/sitemap-0.xml</loc></sitemap></sitemapindex>`);
  return { distDir: outDir, pages: existing.length + cloneCount + hubs, bytes };
}
