/**
 * A small but complete read model written to a temp folder, in the layout `npm run build`
 * publishes (current → builds/<id>/{manifest.json, pages/, company/, search/}), with the search
 * index the build's own search stage writes. Pages cover every kind, two cities, and one guide far longer than
 * READ_PAGE_MAX_CHARS for truncation.
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { contentId } from '../../build-scripts/content-id.ts';
import { createManifest } from '../../build-scripts/manifest.ts';
import { writePageFiles } from '../../build-scripts/page-index.ts';
import { buildPath, writePointer } from '../../formats/read-model/pointer.ts';
import type { ReadModelPage } from '../../formats/schemas/read-model.ts';
import { COMPANY_SECTION_FIELDS, COMPANY_SECTIONS, type CompanyInfo, type CompanySection } from '../../formats/schemas/resources.ts';
import { refuseInUnitTier } from '../tiers.ts';
import { buildSearchIndex } from '../../build-scripts/search-index/search-index.ts';

export const FIXTURE_SITE_URL = 'http://agentes.test';

export interface ReadModelFixture {
  /** READ_MODEL_DIR */
  dir: string;
  siteUrl: string;
  buildId: string;
  pages: ReadModelPage[];
  company: Record<CompanySection, CompanyInfo>;
  /** The guide longer than the default READ_PAGE_MAX_CHARS (20 000). */
  longPage: ReadModelPage;
  remove(): Promise<void>;
}

type PageSeed = Omit<ReadModelPage, 'url' | 'hash'>;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** A guide of ~40 000 characters in paragraphs, with a code block and a table. */
function longGuide(site: string): string {
  const parts: string[] = ['# Guía de mantenimiento de calderas', ''];
  for (let i = 1; i <= 60; i++) {
    parts.push(`## Paso ${i}`, '');
    parts.push(`Párrafo ${i}: revise la presión de la caldera, purgue los radiadores y compruebe la llama. `
      + 'El mantenimiento anual evita averías y reduce el consumo de gas en la vivienda. '.repeat(7), '');
    if (i % 15 === 0) parts.push('```sh', 'presion --comprobar', '', 'purga --radiadores', '```', '');
    if (i % 20 === 0) parts.push('| Pieza | Revisión |', '| --- | --- |', '| Quemador | Anual |', '| Vaso de expansión | Bienal |', '');
  }
  parts.push(`Más información en [calefacción](${site}/servicios/fontaneria/).`);
  return parts.join('\n');
}

function seeds(site: string): PageSeed[] {
  return [
    { path: '/', slug: 'inicio', title: 'Reparaciones y reformas del hogar', description: 'Solicite un profesional para su casa.', city: '', kind: 'home',
      markdown: `# Reparaciones y reformas del hogar\n\nSolicite fontanería, cerrajería y más en 21 ciudades. Vea [fontanería](${site}/servicios/fontaneria/).` },
    { path: '/servicios/fontaneria/', slug: 'fontaneria', title: 'Fontanería', description: 'Fontaneros para fugas, atascos y calentadores.', city: '', kind: 'service',
      markdown: '# Fontanería\n\nReparación de fugas de agua, desatascos de tuberías y cambio de calentadores y grifos.\n\nUn fontanero de la zona le llama para presupuestar.' },
    { path: '/servicios/fontaneria/madrid/', slug: 'fontaneria-madrid', title: 'Fontanería en Madrid', description: 'Fontaneros en Madrid.', city: 'madrid', kind: 'service-city',
      markdown: '# Fontanería en Madrid\n\nFontaneros en Madrid para fugas de agua, atascos y calentadores en todos los barrios.' },
    { path: '/servicios/fontaneria/vigo/', slug: 'fontaneria-vigo', title: 'Fontanería en Vigo', description: 'Fontaneros en Vigo.', city: 'vigo', kind: 'service-city',
      markdown: '# Fontanería en Vigo\n\nFontaneros en Vigo para fugas de agua, atascos y calentadores.' },
    { path: '/servicios/cerrajeria/', slug: 'cerrajeria', title: 'Cerrajería', description: 'Cerrajeros para aperturas de puertas y cambio de cerraduras.', city: '', kind: 'service',
      markdown: '# Cerrajería\n\nApertura de puertas, cambio de cerraduras y bombines de seguridad.' },
    { path: '/servicios/cerrajeria/madrid/', slug: 'cerrajeria-madrid', title: 'Cerrajería en Madrid', description: 'Cerrajeros en Madrid.', city: 'madrid', kind: 'service-city',
      markdown: '# Cerrajería en Madrid\n\nCerrajeros en Madrid: apertura de puertas y cambio de cerraduras.' },
    { path: '/servicios/cerrajeria/vigo/', slug: 'cerrajeria-vigo', title: 'Cerrajería en Vigo', description: 'Cerrajeros en Vigo.', city: 'vigo', kind: 'service-city',
      markdown: '# Cerrajería en Vigo\n\nCerrajeros en Vigo: apertura de puertas y cambio de cerraduras.' },
    { path: '/ciudades/madrid/', slug: 'madrid', title: 'Servicios en Madrid', description: 'Todos los servicios en Madrid.', city: 'madrid', kind: 'city',
      markdown: '# Servicios en Madrid\n\nFontanería, cerrajería y reformas en Madrid.' },
    { path: '/guias/mantenimiento-calderas/', slug: 'mantenimiento-calderas', title: 'Guía de mantenimiento de calderas', description: 'Cómo mantener una caldera.', city: '', kind: 'guide',
      markdown: longGuide(site) },
    { path: '/aviso-legal/', slug: 'aviso-legal', title: 'Aviso legal', description: 'Datos legales del sitio.', city: '', kind: 'info',
      markdown: '# Aviso legal\n\nTitular del sitio: Agentes Hogar S.L., NIF B00000000.' },
  ];
}

function companyInfo(site: string): Record<CompanySection, CompanyInfo> {
  const all: CompanyInfo = {
    brand: 'Agentes Hogar',
    website: site,
    legal_name: 'Agentes Hogar S.L.',
    tax_id: 'B00000000',
    address: 'Calle Mayor 1, 28013 Madrid',
    phone: '',
    email: 'hola@agentes.test',
    whatsapp: '',
    hours: 'Lunes a viernes, 9:00–19:00',
    coverage: '21 ciudades e islas de España',
    tax: 'Precios con IVA incluido salvo indicación',
    prices: 'Orientativos; el profesional presupuesta',
    service_model: {
      description: 'El sitio recibe la solicitud y la pasa a un profesional asociado.',
      online_booking: false,
      performed_by: 'El profesional asociado',
      quoted_by: 'El profesional asociado',
      invoiced_by: 'El profesional asociado',
      warranty: 'La da el profesional asociado',
    },
    services: [
      { name: 'Fontanería', url: `${site}/servicios/fontaneria/` },
      { name: 'Cerrajería', url: `${site}/servicios/cerrajeria/` },
    ],
    cities: [{ slug: 'madrid', name: 'Madrid', url: `${site}/ciudades/madrid/` }],
    pages: { aviso_legal: `${site}/aviso-legal/` },
  };
  const out = { all } as Record<CompanySection, CompanyInfo>;
  for (const section of COMPANY_SECTIONS) {
    if (section === 'all') continue;
    const picked: Record<string, unknown> = {};
    for (const field of COMPANY_SECTION_FIELDS[section]) if (all[field] !== undefined) picked[field] = all[field];
    out[section] = picked as CompanyInfo;
  }
  return out;
}

const SYLLABLES = ['ba', 'ce', 'di', 'fo', 'gu', 'la', 'me', 'ni', 'po', 'ru', 'sa', 'te', 'vi', 'zo', 'que', 'llo'];

/** The n-th made-up word: a different word for every n. */
function word(n: number): string {
  let w = '';
  for (let k = n + SYLLABLES.length; k > 0; k = Math.floor(k / SYLLABLES.length)) w += SYLLABLES[k % SYLLABLES.length];
  return w + 'ción';
}

function zoneSeeds(count: number): PageSeed[] {
  return Array.from({ length: count }, (_, i) => {
    const words = Array.from({ length: 40 }, (_, k) => word(i * 40 + k)).join(' ');
    return {
      path: `/servicios/fontaneria/zona-${i + 1}/`, slug: `fontaneria-zona-${i + 1}`, title: `Fontanería en la zona ${i + 1}`,
      description: `Fontaneros en la zona ${i + 1}.`, city: 'madrid', kind: 'service-city',
      markdown: `# Fontanería en la zona ${i + 1}\n\nFontaneros en la zona ${i + 1}: ${words}.`,
    };
  });
}

async function writeJson(file: string, value: unknown) {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, JSON.stringify(value));
}

export interface FixtureOptions {
  siteUrl?: string;
  /** Existing READ_MODEL_DIR to publish another build into (a new temp folder by default). */
  dir?: string;
  buildId?: string;
  /**
   * Extra pages, each with words of its own (a large site's vocabulary): `/servicios/fontaneria/zona-<n>/`.
   */
  zonePages?: number;
  /** Change the pages before they are written (e.g. edit a title for a reload test). */
  editPages?(pages: ReadModelPage[]): ReadModelPage[];
}

/** Writes and publishes one build. */
export async function createReadModel(options: FixtureOptions = {}): Promise<ReadModelFixture> {
  refuseInUnitTier('A read model with a search index');
  const siteUrl = options.siteUrl ?? FIXTURE_SITE_URL;
  const dir = options.dir ?? await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-rm-'));
  const buildId = options.buildId ?? `fixture-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const buildDir = buildPath(dir, buildId);

  let pages: ReadModelPage[] = [...seeds(siteUrl), ...zoneSeeds(options.zonePages ?? 0)].map((p) => ({ ...p, url: siteUrl + p.path, hash: sha256(`${p.title}\n${p.markdown}`) }));
  // An edited page gets the hash of its new content, as a build would write.
  if (options.editPages) pages = options.editPages(pages).map((p) => ({ ...p, hash: sha256(`${p.title}\n${p.markdown}`) }));
  const company = companyInfo(siteUrl);

  writePageFiles(buildDir, pages);
  await Promise.all(COMPANY_SECTIONS.map((s) => writeJson(path.join(buildDir, 'company', `${s}.json`), company[s])));
  await buildSearchIndex({ pages, outDir: path.join(buildDir, 'search'), siteUrl });
  const id = await contentId({ siteUrl, pages, company, searchDir: path.join(buildDir, 'search') });
  const manifest = createManifest({ buildId, contentId: id, siteUrl, pages, timings: {} });
  await writeJson(path.join(buildDir, 'manifest.json'), manifest);
  await writePointer(dir, buildId);

  return {
    dir,
    siteUrl,
    buildId,
    pages,
    company,
    longPage: pages.find((p) => p.kind === 'guide')!,
    remove: () => fs.rm(dir, { recursive: true, force: true }),
  };
}

let shared: Promise<ReadModelFixture> | null = null;

/**
 * One fixture per test process, for tests that only read it. Removed when the process exits.
 */
export function sharedReadModel(): Promise<ReadModelFixture> {
  if (!shared) {
    shared = createReadModel();
    void shared.then((f) => process.once('exit', () => rmSync(f.dir, { recursive: true, force: true })));
  }
  return shared;
}
