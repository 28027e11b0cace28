/**
 * Search against the built sample site's own index: Spanish queries, accented and not,
 * singular and plural, find the right pages, through the same engine the server opens.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseConfig } from '../../server/config.ts';
import { loadModel } from '../../server/read-model/holder.ts';
import type { LoadedModel } from '../../server/read-model/types.ts';
import { SearchPagesParams } from '../../server/schemas/params.ts';
import { searchPages } from '../../server/search/index.ts';
import { builtReadModel } from '../helpers/built-site.ts';
import fs from 'node:fs/promises';
import path from 'node:path';
import { readIndexedPages } from '../../formats/search/index-file.ts';

const search = suite('search on the built sample site');
let model: LoadedModel;

let buildDir: string;

search.before(async () => {
  const config = parseConfig();
  buildDir = await builtReadModel();
  model = await loadModel(config, buildDir);
});
search.after(async () => { await model?.close(); });

const pathOf = (url: string) => new URL(url).pathname;
async function paths(query: string, extra: Record<string, unknown> = {}): Promise<string[]> {
  const res = await searchPages(model.search, SearchPagesParams.parse({ query, limit: 25, ...extra }));
  return res.results.map((r) => pathOf(r.url));
}

// [query, a path that must be among the first results, how many first results to look at]
const CASES: [string, string, number][] = [
  ['fontanería', '/servicios/fontaneria/', 25],
  ['fontaneria', '/servicios/fontaneria/', 25],
  ['fontaneros', '/servicios/fontaneria/', 25],
  ['electricista', '/servicios/electricidad/', 25],
  ['cerrajero en vigo', '/servicios/cerrajeria/vigo/', 1],
  ['cerrajro vigo', '/servicios/cerrajeria/vigo/', 1],
  ['fuga de agua bajo el fregadero', '/guias/fuga-agua-fregadero/', 3],
  ['salta el diferencial', '/guias/salta-el-diferencial/', 3],
  ['humedad en las paredes', '/guias/humedad-en-paredes/', 5],
  ['humedades paredes', '/guias/humedad-en-paredes/', 5],
  ['persiana atascada', '/guias/persiana-atascada/', 3],
  ['persianas atascadas', '/guias/persiana-atascada/', 3],
  ['aire acondicionado gotea', '/guias/aire-acondicionado-gotea/', 3],
  ['reforma de baño', '/servicios/reformas-bano/', 1],
  ['reforma de bano', '/servicios/reformas-bano/', 1],
  ['cuánto cuesta reformar el baño', '/guias/presupuesto-reforma-bano/', 25],
  ['presupuesto reforma de baño', '/guias/presupuesto-reforma-bano/', 1],
  ['cisterna pierde agua', '/guias/cisterna-pierde-agua/', 1],
  ['fontanero Málaga', '/servicios/fontaneria/malaga/', 1],
  ['fontanero malaga', '/servicios/fontaneria/malaga/', 1],
  ['a coruña', '/ciudades/a-coruna/', 10],
];

for (const [query, expected, top] of CASES) {
  search(`"${query}" finds ${expected} in the first ${top}`, async () => {
    const found = await paths(query);
    assert.ok(found.slice(0, top).includes(expected), `first results: ${found.slice(0, top).join(', ')}`);
  });
}

search('accents, case and plurals do not change the results', async () => {
  const base = await paths('fontanería');
  assert.ok(base.length > 0);
  assert.equal(await paths('FONTANERIA'), base);
  assert.equal(await paths('fontaneros'), await paths('fontanero'), 'a plural is its singular');
  assert.equal([...await paths('fontaneros')].sort(), [...base].sort(), 'the trade and the tradesman find the same pages');
});

search('words that are not on the site match nothing (no prefix junk)', async () => {
  for (const q of ['dentista', 'abogado', 'xyzzy', 'en de la']) assert.equal(await paths(q), [], q);
});

search('what the site does not offer finds nothing, even beside a city, a price word or a site word', async () => {
  for (const q of ['mudanza en madrid', 'mudanzas baratas', 'gestoría en sevilla', 'reparación de coches', 'barato', 'urgente', 'casa', 'piso barato']) {
    const res = await searchPages(model.search, SearchPagesParams.parse({ query: q, limit: 25 }));
    assert.equal([res.total, res.next_cursor], [0, null], q);
  }
  // A city alone (with filler or not) is that city's pages, its city page first.
  assert.is((await paths('urgente en madrid'))[0], '/ciudades/madrid/');
  // A word naming what the site does not offer does not hide what it does.
  assert.ok((await paths('cambiar la cerradura tras la mudanza')).slice(0, 2).includes('/servicios/cerrajeria/'));
});

search('symptoms, synonyms, English, business questions', async () => {
  for (const [q, expected] of [
    ['la lavadora hace un ruido raro al centrifugar', '/guias/lavadora-no-centrifuga/'],
    ['se ha ido la luz en el baño', '/guias/salta-el-diferencial/'],
    ['el retrete no para de echar agua', '/guias/cisterna-pierde-agua/'],
    ['emergency plumber Seville', '/servicios/fontaneria/sevilla/'],
    ['how much does a locksmith cost in Bilbao', '/servicios/cerrajeria/bilbao/'],
    ['¿quién factura el trabajo?', '/preguntas-frecuentes/'],
  ] as const) {
    assert.ok((await paths(q)).slice(0, 3).includes(expected), `${q} → ${expected}: ${(await paths(q)).slice(0, 3).join(', ')}`);
  }
});

search("city filter: that city's pages first, then pages for every city, never another city", async () => {
  const res = await searchPages(model.search, SearchPagesParams.parse({ query: 'fontanero', city: 'sevilla', limit: 25 }));
  assert.is(pathOf(res.results[0]!.url), '/servicios/fontaneria/sevilla/');
  const cities = res.results.map((r) => r.city);
  assert.ok(cities.every((c) => c === 'sevilla' || c === ''), cities.join());
  assert.ok(cities.lastIndexOf('sevilla') < cities.indexOf(''), 'the city first');
  // A problem with a city still reaches the guide that answers it.
  const leak = await paths('fuga de agua bajo el fregadero', { city: 'sevilla' });
  assert.ok(leak.includes('/guias/fuga-agua-fregadero/'), leak.join());
});

search('lists of links are not indexed, so they neither match nor give excerpts', async () => {
  const madrid = (await readIndexedPages(path.join(buildDir, 'search'))).find((p) => p.path === '/servicios/fontaneria/madrid/')!;
  assert.not.match(madrid.text, /Más servicios cerca de ti|Fontanería en Valladolid|Guías de fontanería/);
  assert.match(madrid.text, /Trabajos de fontanería más pedidos en Madrid/, 'the rest of the page is');
});

search.run();
