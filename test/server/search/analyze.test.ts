/**
 * Query analysis (analyze.ts) with a small lexicon compiled by the build's own compiler from
 * content files: rewrites, places, synonyms, filler, unknown real words, typos, intents.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileLexicon, LexiconError } from '../../../build-scripts/lexicon/compile.ts';
import { realWordsFilters } from '../../../build-scripts/lexicon/real-words.ts';
import { analyze, normalizeQuery, SYNONYM_WEIGHT, UNKNOWN_WEIGHTS } from '../../../server/search/analyze.ts';
import { BloomFilter } from '../../../formats/search/bloom.ts';
import { Lexicon } from '../../../server/search/lexicon.ts';
import { stem } from '../../../formats/search/stem-es.ts';
import { Vocabulary } from '../../../formats/search/vocabulary.ts';

function contentDir(files: Record<string, unknown>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lexicon-'));
  fs.mkdirSync(path.join(dir, 'lexicon'));
  for (const [name, value] of Object.entries(files)) {
    fs.writeFileSync(path.join(dir, /(?:cities|services)\.json$/.test(name) ? name : path.join('lexicon', name)), JSON.stringify(value));
  }
  return dir;
}

const FILES = {
  'synonyms.json': { groups: [{ words: ['inodoro', 'WC', 'váter', 'retrete'] }, { words: ['cuadro eléctrico', 'cuadro de luces'] }, { words: ['wallbox', 'cargador del coche'] }] },
  'rewrites.json': { rewrites: [{ from: ['xq', 'pq'], to: 'porque' }, { from: ['plumber'], to: 'fontanero' }] },
  'intents.json': { intents: [{ phrases: ['se ha ido la luz', 'no hay luz'], guides: ['salta-el-diferencial'], services: ['electricidad'] }, { phrases: ['recarga coche'], services: ['electricidad'] }] },
  'places.json': { cities: { 'a-coruna': ['La Coruña'], sevilla: ['Seville'] }, demonyms: { sevilla: ['sevillano'] }, unserved: ['Donostia', 'San Sebastián'], ignore: ['Centro'] },
  'not-offered.json': { topics: [{ words: ['movers', 'moving company', 'limpiar cristales'] }, { words: ['coche'], thing: true }] },
  'filler.json': { categories: { function: ['de', 'del', 'en', 'la', 'el', 'se', 'ha', 'porque', 'hay', 'un', 'mi', 'para'], negation: ['no'], price: ['barato', 'precios'], generic: ['casa'], 'function-clause': ['porque', 'pero'] } },
  'cities.json': [{ id: 'sevilla', name: 'Sevilla', districts: ['Triana', 'Centro'], nearby: ['Dos Hermanas'] }, { id: 'las-palmas', name: 'Las Palmas de Gran Canaria', island: 'Gran Canaria', districts: ['Triana'] }],
};
const PATHS = new Set(['/guias/salta-el-diferencial/', '/servicios/electricidad/']);

const vocabulary = new Vocabulary([
  ['fontanero', 30], ['fontaneria', 40], ['inodoro', 12], ['wc', 3], ['cuadro', 20], ['electrico', 25], ['luz', 30],
  ['casa', 300], ['barato', 2], ['cristal', 10], ['recarga', 4], ['cargador', 4], ['coche', 3], ['cambiar', 60], ['cerrajero', 20], ['pintura', 40], ['reparacion', 100], ['de', 400], ['precios', 30], ['para', 90],
]);
const lexiconOf = (files: Record<string, unknown>, paths: ReadonlySet<string>) =>
  new Lexicon(compileLexicon({ contentDir: contentDir(files), paths: new Set(paths) }), { spanish: BloomFilter.from(realWordsFilters().spanish), english: BloomFilter.from(realWordsFilters().english) }, stem);
const lexicon = lexiconOf(FILES, PATHS);
const plan = (q: string) => analyze(normalizeQuery(q), lexicon, vocabulary);

test('rewrites and places: English and SMS become Spanish, local names and districts name cities', () => {
  const a = plan('Plumber in Seville');
  assert.equal(a.cities, ['sevilla']);
  assert.equal(a.terms.map((t) => t.text), ['fontanero']);
  assert.equal(plan('fontanero en La Coruña').cities, ['a-coruna']);
  assert.equal(plan('fontanero triana').cities, ['las-palmas', 'sevilla'], 'a district of two cities names both');
  assert.equal(plan('fontanero triana sevilla').cities, ['sevilla'], 'and the one the query also names otherwise');
  assert.equal(plan('fontanero dos hermanas').cities, ['sevilla']);
  assert.equal(plan('fontanero centro').cities, [], 'an ignored district word names nothing');
  assert.equal(plan('fontanero sevila').cities, ['sevilla'], 'one typo in a place name');
});

test('demonyms name their city in any form; a place not served names none, and is noted', () => {
  assert.equal(plan('fontanero sevillanas').cities, ['sevilla']);
  const away = plan('fontanero en San Sebastián');
  assert.equal([away.cities, away.elsewhere, away.terms.map((t) => t.text)], [[], true, ['fontanero']]);
  assert.is(plan('fontanero donostian').elsewhere, true, 'a case ending, as a one-letter typo');
  assert.is(plan('fontanero sevilla').elsewhere, false);
});

test('filler alone is no topic: a price, an urgency or a function word finds nothing by itself', () => {
  for (const q of ['precios', 'barato', 'urgente', 'para']) assert.equal(analyze(normalizeQuery(q), lexicon, vocabulary).terms, [], q);
  assert.equal(analyze(normalizeQuery('precios fontanero'), lexicon, vocabulary).terms.map((t) => t.text), ['fontanero'], 'beside a topic it ranks only');
});

test('synonyms: the word typed at full weight, the others below; phrases as one term', () => {
  const [t] = plan('retrete').terms;
  assert.is(t!.text, 'retrete');
  assert.equal(t!.alternatives.map((a) => [a.words.join(' '), a.weight]), [['inodoro', SYNONYM_WEIGHT]],
    'váter and retrete are not on the site, and wc is too short to look up');
  const [wc] = plan('WC').terms;
  assert.equal(wc!.alternatives, [{ words: ['inodoro'], weight: SYNONYM_WEIGHT }], 'a short word stands for its synonyms');
  assert.equal(plan('no ya 18').terms, [], 'other short words and numbers are not looked up');
  const cuadro = plan('cuadro de luces').terms;
  assert.equal(cuadro.map((x) => x.text), ['cuadro de luces']);
  assert.equal(cuadro[0]!.alternatives.map((a) => a.words), [['cuadro', 'electrico']]);
});

test('filler is soft, real unknown words are kept as unknown, typos of non-words are corrected', () => {
  const a = plan('fontanero barato en casa');
  assert.equal(a.terms.map((t) => t.text), ['fontanero']);
  assert.equal(a.soft.map((t) => t.text), ['barato', 'casa']);
  assert.equal(plan('mudanza en sevilla').unknown, [{ text: 'mudanza', weight: UNKNOWN_WEIGHTS.spanish }]);
  assert.equal(plan('house movers').unknown, [{ text: 'house', weight: UNKNOWN_WEIGHTS.english }, { text: 'movers', weight: UNKNOWN_WEIGHTS.notOffered }],
    'an English word weighs less; a word of not-offered.json counts fully');
  assert.equal(plan('movres').unknown, [{ text: 'movers', weight: UNKNOWN_WEIGHTS.notOffered }], 'a typo of a not-offered word is not offered either');
  assert.equal(plan('mudanza en sevilla').terms, []);
  assert.equal(plan('fontanro').terms.map((t) => t.text), ['fontanero'], 'not a word: corrected');
  assert.match(plan('cerrajeras').terms.map((t) => t.text).join(), /^cerrajer/, 'an inflection: the same family');
  assert.equal(plan('gestoria').terms, [], 'a real word one edit from nothing on the site stays unknown');
  assert.equal(plan('gestoria').unknown.map((u) => u.text), ['gestoria']);
  assert.equal(plan('xkzqv').terms, [], 'not a word and nothing near: dropped');
  assert.equal(plan('xkzqv').unknown, []);
});

test('a not-offered phrase holds its words in either number and across filler, and beats the trade word in it', () => {
  assert.equal(plan('cambiar el cristal').terms.map((t) => t.text), ['cambiar', 'cristal']);
  const cleaning = plan('limpiar el cristal');
  assert.equal([cleaning.terms, cleaning.unknown], [[], [{ text: 'limpiar el cristal', weight: UNKNOWN_WEIGHTS.notOffered }]]);
  assert.equal([plan('coches').unknown, plan('coches').terms.map((t) => t.text)], [[], ['coches']], 'one word only as written');
});

test('a thing the site never works on takes the query with it, unless an intent names it', () => {
  const glass = plan('cambiar el cristal del coche');
  assert.equal([glass.terms, glass.intents], [[], []]);
  assert.equal(glass.unknown.map((u) => u.text).sort(), ['cambiar', 'coche', 'cristal']);
  const charger = plan('recarga para el coche');
  assert.equal([charger.terms.map((t) => t.text), charger.unknown, charger.intents.length], [['recarga'], [], 1], 'served in that sense: it weighs nothing');
  assert.equal(plan('wallbox para el coche').unknown, [], 'and so when a synonym of a word typed names it');
});

test('a thing takes only its own clause: another clause keeps its words and intents', () => {
  const garage = plan('no puedo sacar el coche porque se ha ido la luz del cuadro');
  const topics = garage.terms.map((t) => t.text);
  assert.ok(topics.includes('luz') && topics.includes('cuadro'), `the words after "porque" stay topics: ${topics.join(', ')}`);
  assert.not.ok(topics.includes('sacar'), 'the thing\'s clause is its parts');
  assert.ok(garage.unknown.some((u) => u.text === 'coche'), 'the thing still weighs as not offered');
  assert.is(garage.intents.length, 1, 'an intent of the other clause is matched');
  const glass = plan('se ha roto el cristal del coche pero no el de casa');
  assert.not.ok(glass.terms.some((t) => t.text === 'cristal'), 'the thing\'s own clause is still its parts');
});

test('English words the lexicon lacks weigh one unknown Spanish word at most, all together', () => {
  const many = plan('plumber needed urgently please tomorrow morning').unknown;
  assert.ok(many.length >= 4, JSON.stringify(many));
  const sum = many.reduce((a, u) => a + u.weight, 0);
  assert.ok(Math.abs(sum - UNKNOWN_WEIGHTS.spanish) < 1e-9, `sum ${sum}`);
  assert.equal(plan('plumber needed').unknown, [{ text: 'needed', weight: UNKNOWN_WEIGHTS.english }], 'one alone keeps its weight');
});

test('intents: every meaningful word of a phrase, in any order', () => {
  const a = plan('xq se ha ido la luz en mi casa');
  assert.equal(a.intents.length, 1);
  assert.equal(a.intents[0]!.paths, ['/guias/salta-el-diferencial/']);
  assert.equal(a.intents[0]!.services, ['electricidad']);
  assert.equal(a.intents[0]!.covers.map((k) => a.terms[k]!.text), ['ido', 'luz']);
  assert.equal(plan('luz del baño').intents, [], 'one word of the phrase is not the phrase');
  assert.equal(plan('no tengo luz').intents.length, 1, 'function words aside, negations kept');
});

/** With a service, its page, a question about the site, and a setting the work may happen in. */
const SERVICE_FILES = {
  ...FILES,
  'services.json': [{ id: 'fontaneria', name: 'Fontanería', pro: 'fontanero' }],
  'intents.json': { intents: [...FILES['intents.json'].intents, { phrases: ['trabajáis en'], pages: ['/cobertura/'] }, { phrases: ['cambiar grifo'], services: ['fontaneria'] }] },
  'not-offered.json': { topics: [...FILES['not-offered.json'].topics, { words: ['busco trabajo'] }, { words: ['vender piso'], setting: true }] },
};
const withServices = lexiconOf(SERVICE_FILES, new Set([...PATHS, '/servicios/fontaneria/', '/cobertura/']));
const serviceWords = new Vocabulary([['fontaneria', 40], ['fontanero', 30], ['trabajos', 50], ['trabajo', 60], ['cambiar', 60], ['grifo', 20], ['piso', 80], ['de', 400], ['para', 90]]);
const withService = (q: string) => analyze(normalizeQuery(q), withServices, serviceWords);

test('a question about the site told by one word, beside a trade\'s own name, does not outrank the trade', () => {
  const coverage = (q: string) => withService(q).intents.find((i) => i.paths.includes('/cobertura/'));
  assert.is(coverage('trabajáis en sevilla')?.strong, true);
  assert.is(coverage('trabajos de fontanería')?.strong, false, 'the other sense of the word: the trade ranks first');
  assert.is(coverage('fontanero para un trabajo')?.strong, false);
});

test('a setting is not offered alone, and weighs nothing beside a job a service does; other phrases beat the trade', () => {
  assert.equal(withService('vender mi piso').unknown.map((u) => u.text), ['vender mi piso']);
  assert.equal(withService('cambiar grifo para vender el piso').unknown, [], 'where the job is');
  assert.equal(withService('busco trabajo de fontanero').unknown.map((u) => u.text), ['busco trabajo'], 'employment is no setting');
});

test('the compiler refuses what would break search', () => {
  assert.throws(() => compileLexicon({ contentDir: contentDir({ ...FILES, 'intents.json': { intents: [{ phrases: ['x'], guides: ['no-such-guide'] }] } }), paths: PATHS }),
    (e: unknown) => e instanceof LexiconError && /no-such-guide.*not a published page/.test((e as Error).message));
  assert.throws(() => compileLexicon({ contentDir: contentDir({ ...FILES, 'synonyms.json': { groups: [{ words: ['solo'] }] } }) }),
    (e: unknown) => e instanceof LexiconError && /synonyms\.json/.test((e as Error).message));
  const empty = compileLexicon();
  assert.equal(empty.places.find(([w]) => w.join(' ') === 'a coruna')?.[1], ['a-coruna'], 'the city slugs name their cities without any content');
});

test('normalized queries fold and collapse', () => {
  assert.is(normalizeQuery('  ¡Fontanería,  MÁLAGA!  '), 'fontaneria malaga');
});

test.run();
