/**
 * A small, realistic site for the search tests: fontanería, cerrajería and electricidad pages in
 * Madrid, Vigo, Málaga and Las Palmas, service and city overviews, and two guides — the kind of
 * Spanish text the real site has, with headings, lists, tables, links and emphasis. Built into a
 * temp folder by the real search stage.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { compileLexicon } from '../../../build-scripts/lexicon/compile.ts';
import { buildSearchIndex } from '../../../build-scripts/search-index/search-index.ts';
import { ROOT } from '../../../server/config.ts';
import type { CompiledLexicon } from '../../../formats/schemas/lexicon.ts';
import type { ReadModelPage } from '../../../formats/schemas/read-model.ts';
import type { PageInfo } from '../../../server/search/index.ts';
import { cursorKey } from '../../../server/search/cursor.ts';

export const SITE = 'https://agentes.test';

type Seed = Omit<ReadModelPage, 'url' | 'hash' | 'slug'>;

const CITIES = {
  madrid: 'Madrid',
  vigo: 'Vigo',
  malaga: 'Málaga',
  'las-palmas': 'Las Palmas de Gran Canaria',
} as const;
type City = keyof typeof CITIES;

const SERVICES = {
  fontaneria: {
    name: 'Fontanería',
    pro: 'fontaneros',
    intro: (c: string) => `¿Tiene una **fuga de agua**, un atasco o el calentador no enciende? Nuestros fontaneros colaboradores en ${c} reparan tuberías, grifos, cisternas y desagües.`,
    list: ['Reparación de fugas de agua y tuberías rotas', 'Desatascos de fregaderos, lavabos e inodoros', 'Cambio de grifos, cisternas y calentadores'],
    extra: 'Un fontanero revisa la instalación, localiza la avería y le da un presupuesto cerrado antes de empezar.',
  },
  cerrajeria: {
    name: 'Cerrajería',
    pro: 'cerrajeros',
    intro: (c: string) => `Si se ha quedado en la calle o quiere más seguridad, los cerrajeros colaboradores en ${c} abren puertas sin romper la cerradura y cambian bombines.`,
    list: ['Apertura de puertas cerradas o con la llave puesta', 'Cambio de cerraduras y bombines de seguridad', 'Instalación de cerrojos y puertas blindadas'],
    extra: 'El cerrajero le confirma el precio de la apertura por teléfono antes de desplazarse.',
  },
  electricidad: {
    name: 'Electricidad',
    pro: 'electricistas',
    intro: (c: string) => `Electricistas autorizados en ${c} para averías eléctricas, cuadros que saltan, enchufes quemados y boletines.`,
    list: ['Reparación de averías y cortocircuitos', 'Cambio de cuadros eléctricos y diferenciales', 'Boletín eléctrico y certificados de instalación'],
    extra: 'Un electricista comprueba el cuadro y la toma de tierra y le explica qué hace falta.',
  },
} as const;
type Service = keyof typeof SERVICES;

function servicePage(service: Service, city?: City): Seed {
  const s = SERVICES[service];
  const where = city ? CITIES[city] : 'su ciudad';
  const title = city ? `${s.name} en ${CITIES[city]}` : s.name;
  return {
    path: city ? `/servicios/${service}/${city}/` : `/servicios/${service}/`,
    title,
    description: `${s.name} a domicilio${city ? ` en ${CITIES[city]}` : ''}: ${s.pro} de confianza, presupuesto sin compromiso.`,
    city: city ?? '',
    kind: city ? 'service-city' : 'service',
    markdown: [
      `# ${title}`,
      '',
      s.intro(where),
      '',
      '## Qué hacemos',
      '',
      ...s.list.map((l) => `- ${l}`),
      '',
      '## Cómo funciona',
      '',
      `${s.extra} Puede ver _precios orientativos_ en la [página de precios](${SITE}/precios/).`,
      '',
      '| Servicio | Precio orientativo |',
      '| --- | --- |',
      `| ${s.list[0]} | desde 60 € |`,
      `| ${s.list[1]} | desde 80 € |`,
    ].join('\n'),
  };
}

function cityPage(city: City): Seed {
  const name = CITIES[city];
  return {
    path: `/ciudades/${city}/`,
    title: `Reparaciones del hogar en ${name}`,
    description: `Servicios del hogar en ${name}.`,
    city,
    kind: 'city',
    markdown: `# Reparaciones del hogar en ${name}\n\nEn ${name} trabajamos con profesionales de la zona: reformas, pintura, climatización y reparaciones urgentes. Si no puede aguantar más con una avería, pida una visita en el día.\n\n## Barrios\n\nAtendemos todos los barrios y municipios cercanos.`,
  };
}

const GUIDES: Seed[] = [
  {
    path: '/guias/puerta-cerrada-llave-dentro/',
    title: 'Puerta cerrada con la llave dentro: qué hacer',
    description: 'Qué hacer si la puerta se cierra con la llave dentro de casa.',
    city: '',
    kind: 'guide',
    markdown: [
      '# Puerta cerrada con la llave dentro: qué hacer',
      '',
      'Le ha pasado a casi todo el mundo: sale un momento al rellano, la corriente cierra la puerta y las llaves se quedan dentro. Antes de nada, mantenga la calma y compruebe si alguien tiene una copia.',
      '',
      '## Primeros pasos',
      '',
      '1. Compruebe si la puerta está solo **resbalada** (sin echar la llave).',
      '2. Llame a quien tenga una copia de las llaves.',
      '3. Si no hay copia, pida una apertura: un cerrajero abre sin dañar la cerradura en la mayoría de los casos.',
      '',
      'Evite forzar la puerta con tarjetas o destornilladores: puede romper el resbalón y encarecer la reparación.',
    ].join('\n'),
  },
  {
    path: '/guias/salta-el-diferencial/',
    title: 'Salta el diferencial: por qué ocurre',
    description: 'Cómo encontrar el aparato que hace saltar el diferencial.',
    city: '',
    kind: 'guide',
    markdown: [
      '# Salta el diferencial: por qué ocurre',
      '',
      'Te quedas sin luz, vas al cuadro eléctrico y ves la palanca del interruptor diferencial bajada. El diferencial corta la corriente cuando detecta una fuga hacia tierra.',
      '',
      '## Cómo encontrar la avería',
      '',
      '- Baje todos los automáticos (PIA) y suba el diferencial.',
      '- Suba los automáticos uno a uno hasta que vuelva a saltar.',
      '- Desenchufe los aparatos de ese circuito y pruebe de nuevo.',
      '',
      'Si salta sin nada conectado, llame a un electricista autorizado: puede haber humedad en una caja o un cable dañado.',
    ].join('\n'),
  },
];

export function fixturePages(): ReadModelPage[] {
  const seeds: Seed[] = [
    {
      path: '/', title: 'Reparaciones y reformas del hogar', description: 'Pida un profesional para su casa.', city: '', kind: 'home',
      markdown: '# Reparaciones y reformas del hogar\n\nFontanería, cerrajería y electricidad en 21 ciudades. Cuéntenos qué necesita y le llama un profesional de la zona.',
    },
    ...(['fontaneria', 'cerrajeria', 'electricidad'] as const).flatMap((service) => [
      servicePage(service),
      ...(['madrid', 'vigo', 'malaga', 'las-palmas'] as const).map((city) => servicePage(service, city)),
    ]),
    ...(['madrid', 'vigo', 'malaga', 'las-palmas'] as const).map(cityPage),
    ...GUIDES,
  ];
  return seeds.map((s) => {
    const slug = s.path === '/' ? 'inicio' : s.path.split('/').filter((p) => p && !['servicios', 'ciudades', 'guias'].includes(p)).join('-');
    return {
      ...s,
      slug,
      url: SITE + s.path,
      hash: createHash('sha256').update(`${s.title}\n${s.markdown}`).digest('hex'),
    };
  });
}

export const pageInfo = (pages: readonly ReadModelPage[]): Map<string, PageInfo> =>
  new Map(pages.map((p) => [p.path, { title: p.title, url: p.url, city: p.city, description: p.description }]));

/** The cursor key of a fixture build (a real build derives it from its content id). */
export const FIXTURE_CURSOR_KEY = cursorKey('', 'fixture content');

export interface BuiltIndex {
  dir: string;
  pages: ReadModelPage[];
  remove(): Promise<void>;
}

type IndexWriter = (opts: { pages: ReadModelPage[]; outDir: string; siteUrl: string; lexicon: CompiledLexicon }) => Promise<unknown>;

async function fixtureIndex(pages: ReadModelPage[], write: IndexWriter): Promise<BuiltIndex> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-search-'));
  const dir = path.join(root, 'search');
  // The site's own lexicon (its targets are the sample site's pages: those missing here are passed over).
  const lexicon = compileLexicon({ contentDir: path.join(ROOT, 'src', 'content') });
  await write({ pages, outDir: dir, siteUrl: SITE, lexicon });
  return { dir, pages, remove: () => fs.rm(root, { recursive: true, force: true }) };
}

/** Runs the real search stage on the fixture pages into a fresh temp folder: for tests of the stage. */
export async function stageFixtureIndex(pages = fixturePages()): Promise<BuiltIndex & { indexed: number }> {
  let indexed = 0;
  const built = await fixtureIndex(pages, async (opts) => { indexed = (await buildSearchIndex(opts)).indexed; });
  return { ...built, indexed };
}

/** The search stage's output for the fixture pages, in a fresh temp folder: for tests of what reads an index. */
export function buildFixtureIndex(pages = fixturePages()): Promise<BuiltIndex> {
  return fixtureIndex(pages, buildSearchIndex);
}
