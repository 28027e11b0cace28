/**
 * Mini sites for the build tests: built-looking HTML folders (as Astro writes them to
 * dist/client) plus the content files the company stage reads, in a fresh temp folder.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export const SITE_URL = 'http://fixture.test';

export interface PageSpec {
  /** `<h1>`; omit for a page without one. */
  h1?: string;
  /** `<title>`; defaults to the h1. */
  title?: string;
  kind?: string;
  city?: string;
  /** Extra HTML inside `<main>`. */
  body?: string;
  /** Internal links placed in the page's `<main>`. */
  links?: string[];
}

const NAV = ['/', '/servicios/', '/ciudades/', '/contacto/'];

export function pageHtml(spec: PageSpec, pagePath: string): string {
  const title = spec.title ?? spec.h1;
  const meta = [
    title !== undefined ? `<title>${title} | Casa Fixture</title>` : '',
    `<meta name="description" content="Descripción de ${spec.h1 ?? pagePath}">`,
    `<link rel="canonical" href="${SITE_URL}${pagePath}">`,
    spec.kind ? `<meta name="agentes:kind" content="${spec.kind}">` : '',
    spec.city !== undefined ? `<meta name="agentes:city" content="${spec.city}">` : '',
  ].join('');
  const links = (spec.links ?? []).map((href) => `<li><a href="${href}">Enlace a ${href}</a></li>`).join('');
  return `<!doctype html><html lang="es"><head><meta charset="utf-8">${meta}</head><body>
<header data-pagefind-ignore="all"><a href="/">Casa Fixture</a><nav>${NAV.map((h) => `<a href="${h}">Menú ${h}</a>`).join(' ')}</nav></header>
<main data-pagefind-body>${spec.h1 !== undefined ? `<h1 data-pagefind-meta="title">${spec.h1}</h1>` : ''}
<p>Texto de la página ${pagePath} con fontanería y reparaciones.</p>${spec.body ?? ''}${links ? `<ul>${links}</ul>` : ''}</main>
<aside data-pagefind-ignore="all">Publicidad lateral</aside>
<footer data-pagefind-ignore="all"><p>Pie de Casa Fixture</p><a href="/aviso-legal/">Aviso legal</a></footer>
</body></html>`;
}

/** A complete small site: home, hubs, one service, one city, their service-city page, legal page. */
export function basePages(): Record<string, PageSpec> {
  return {
    '/': { h1: 'Casa Fixture', kind: 'home', city: '', links: ['/servicios/fontaneria/', '/guias/fuga/'] },
    '/servicios/': { h1: 'Servicios', kind: 'info', city: '', links: ['fontaneria/'] },
    '/servicios/fontaneria/': {
      h1: 'Fontanería', kind: 'service', city: '', links: ['madrid/', '../../guias/fuga/'],
      body: '<h2 id="precios">Precios</h2><p>Desde 45 €.</p>',
    },
    '/servicios/fontaneria/madrid/': {
      h1: 'Fontanería en Madrid', kind: 'service-city', city: 'madrid',
      links: ['/ciudades/madrid/', '../', 'mailto:hola@fixture.test', 'tel:+34900000000', 'https://otro.example/x/', '#precios', '/wp-json/agentes/v1/search_pages?query=fuga'],
      body: '<h2 id="precios">Precios</h2><table><tr><th>Trabajo</th><th>Precio</th></tr><tr><td>Grifo</td><td>45 €</td></tr></table>',
    },
    '/ciudades/': { h1: 'Ciudades', kind: 'info', city: '', links: ['/ciudades/madrid/'] },
    '/ciudades/madrid/': { h1: 'Madrid', kind: 'city', city: 'madrid', links: ['/servicios/fontaneria/madrid/'] },
    '/guias/fuga/': { h1: 'Fuga de agua', kind: 'guide', city: '', links: ['/servicios/fontaneria/#precios'] },
    '/contacto/': { h1: 'Contacto', kind: 'info', city: '' },
    '/aviso-legal/': { h1: 'Aviso legal', kind: 'info', city: '' },
  };
}

export interface FixtureSite {
  root: string;
  distDir: string;
  outDir: string;
  contentDir: string;
  writePage(pagePath: string, spec: PageSpec): Promise<void>;
  removePage(pagePath: string): Promise<void>;
  writeSitemap(paths: string[]): Promise<void>;
  cleanup(): Promise<void>;
}

export async function createFixtureSite(pages: Record<string, PageSpec> = basePages()): Promise<FixtureSite> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-build-'));
  const distDir = path.join(root, 'dist', 'client');
  const contentDir = path.join(root, 'content');
  const site: FixtureSite = {
    root,
    distDir,
    outDir: path.join(root, 'read-model'),
    contentDir,
    async writePage(pagePath, spec) {
      const dir = path.join(distDir, ...pagePath.split('/').filter(Boolean));
      await fs.mkdir(dir, { recursive: true });
      await fs.writeFile(path.join(dir, 'index.html'), pageHtml(spec, pagePath));
    },
    async removePage(pagePath) {
      await fs.rm(path.join(distDir, ...pagePath.split('/').filter(Boolean), 'index.html'));
    },
    async writeSitemap(paths) {
      const urls = paths.map((p) => `<url><loc>${SITE_URL}${p}</loc></url>`).join('');
      await fs.writeFile(path.join(distDir, 'sitemap-0.xml'), `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`);
      await fs.writeFile(path.join(distDir, 'sitemap-index.xml'), `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${SITE_URL}/sitemap-0.xml</loc></sitemap></sitemapindex>`);
    },
    cleanup: () => fs.rm(root, { recursive: true, force: true }),
  };
  await fs.mkdir(contentDir, { recursive: true });
  await fs.writeFile(path.join(contentDir, 'company.json'), JSON.stringify({
    brand: 'Casa Fixture',
    legal_name: 'Casa Fixture S.L.',
    phone: '+34 900 000 000',
    email: 'hola@fixture.test',
    hours: 'De lunes a viernes de 8:00 a 20:00',
    coverage: 'Madrid',
    tax: 'IVA 21 %',
    prices: 'Desde 45 €',
    service_model: { description: 'Pasamos la solicitud a un profesional.', online_booking: false, performed_by: 'El profesional' },
    pages: { contacto: '/contacto/', aviso_legal: '/aviso-legal/', precios_fontaneria: '/servicios/fontaneria/#precios' },
  }));
  await fs.writeFile(path.join(contentDir, 'services.json'), JSON.stringify([{ id: 'fontaneria', name: 'Fontanería' }]));
  await fs.writeFile(path.join(contentDir, 'cities.json'), JSON.stringify([{ id: 'madrid', name: 'Madrid' }]));
  for (const [p, spec] of Object.entries(pages)) await site.writePage(p, spec);
  await fs.mkdir(path.join(distDir, '_astro'), { recursive: true });
  await fs.writeFile(path.join(distDir, '_astro', 'site.css'), `body{margin:0}\n${'.x{color:red}\n'.repeat(200)}`);
  await fs.writeFile(path.join(distDir, 'robots.txt'), 'User-agent: *\nAllow: /\n');
  await site.writeSitemap(Object.keys(pages));
  return site;
}
