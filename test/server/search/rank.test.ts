/**
 * Ranking and the precision rule (rank.ts, precision.ts) on hand-made matches: which pages are
 * answers, in which order, and how cities, intents, unknown words and body-only matches count.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Analysis, Term } from '../../../server/search/analyze.ts';
import type { MatchedIntent } from '../../../server/search/intents.ts';
import { HEADING, TITLE } from '../../../formats/search/match-flags.ts';
import { namedPages, neededTerms, rank, type RankDocs, type TermMatches } from '../../../server/search/rank.ts';
import { MIN_COVERAGE, TOPICAL } from '../../../server/search/precision.ts';
import type { CityFilter, CitySlug } from '../../../formats/schemas/cities.ts';

const PATHS: Array<[string, CitySlug | '']> = [
  ['/servicios/cerrajeria/', ''], ['/servicios/cerrajeria/vigo/', 'vigo'], ['/servicios/cerrajeria/madrid/', 'madrid'],
  ['/guias/cambiar-bombin/', ''], ['/guias/fuga/', ''], ['/ciudades/vigo/', 'vigo'], ['/precios/', ''], ['/preguntas-frecuentes/', ''],
  // Pages that match nothing, so that term weights are those of a real site.
  ...Array.from({ length: 40 }, (_, i): [string, ''] => [`/otra/${i}/`, '']),
];
const url = (p: string) => `https://x.test${p}`;
const byUrl = Int32Array.from(PATHS.keys()).sort((a, b) => (url(PATHS[a]![0]) < url(PATHS[b]![0]) ? -1 : 1));
const urlRank = new Int32Array(PATHS.length);
byUrl.forEach((d, k) => { urlRank[d] = k; });
const docs: RankDocs = { byPath: new Map(PATHS.map(([p], d) => [p, d])), city: PATHS.map(([, c]) => c), urlRank, byUrl };
const at = (path: string) => docs.byPath.get(path)!;

const term = (text: string): Term => ({ text, alternatives: [{ words: [text], weight: 1 }], stems: new Set([text]) });
interface Hit { weight: number; fields: number; body: number }
const hit = (where: 'title' | 'heading' | 'body', weight = 1): Hit =>
  ({ weight, fields: where === 'title' ? TITLE : where === 'heading' ? HEADING : 0, body: 0.5 });
function matches(entries: Array<[string, Hit]>): TermMatches {
  const n = PATHS.length;
  const m = { count: entries.length, weight: new Float64Array(n), fields: new Uint8Array(n), body: new Float64Array(n) };
  for (const [p, h] of entries) { m.weight[at(p)] = h.weight; m.fields[at(p)] = h.fields; m.body[at(p)] = h.body; }
  return m;
}

function analysis(parts: Partial<Analysis>): Analysis {
  return { cities: [], elsewhere: false, terms: [], soft: [], unknown: [], intents: [], runs: [], ...parts };
}
const intent = (parts: Partial<MatchedIntent>): MatchedIntent =>
  ({ paths: [], services: [], covers: [], size: 1, strong: true, direct: true, trade: false, ...parts });

function run(a: Analysis, terms: Array<Array<[string, Hit]>>, city: CityFilter = 'todas'): string[] {
  // Every page a term matched is a candidate: rank itself keeps the answers.
  const candidates = Int32Array.from(new Set(terms.flat().map(([p]) => at(p))));
  const named = namedPages(a, docs, city);
  return [...rank({ analysis: a, terms: terms.map(matches), soft: [], docs, pages: PATHS.length, city, named, candidates }, Infinity).pages].map((d) => PATHS[d]![0]);
}

test('a title match outranks a heading match, which outranks a body match', () => {
  const got = run(analysis({ terms: [term('cerrajero')] }), [[
    ['/guias/fuga/', hit('body')], ['/guias/cambiar-bombin/', hit('heading')], ['/servicios/cerrajeria/', hit('title')],
    ['/otra/1/', hit('body')], ['/otra/2/', hit('body')],
  ]]);
  assert.equal(got, ['/servicios/cerrajeria/', '/guias/cambiar-bombin/'], 'a body match of a common word alone is no answer');
});

test("a page's own words: every term in its text, one of them on a few pages only, make it an answer", () => {
  const common: Array<[string, Hit]> = [['/guias/fuga/', hit('body')], ...[1, 2, 3, 4].map((i): [string, Hit] => [`/otra/${i}/`, hit('body')])];
  const rare: Array<[string, Hit]> = [['/guias/fuga/', hit('body')], ['/otra/1/', hit('body')]];
  const both = analysis({ terms: [term('aglomerado'), term('mueble')] });
  assert.equal(run(both, [rare, common]).sort(), ['/guias/fuga/', '/otra/1/']);
  assert.equal(run(both, [rare, common.slice(1)]), ['/otra/1/'], 'a page without every term is no answer');
  assert.equal(run(analysis({ terms: [term('mueble')] }), [common]), [], 'nor is a common word alone');
  const withUnknown = analysis({ terms: [term('aglomerado'), term('mueble')], unknown: [{ text: 'coche', weight: 1.25 }] });
  assert.equal(run(withUnknown, [rare, common]), [], 'nor with a word nothing on the site answers');
});

test('a page must hold enough of the query: one incidental word is not enough', () => {
  // "cerrajero mudanza": mudanza names what the site does not offer.
  const withUnknown = analysis({ terms: [term('cerrajero')], unknown: [{ text: 'mudanza', weight: 1.25 }] });
  assert.equal(run(withUnknown, [[['/servicios/cerrajeria/', hit('title')]]]), []);
  // A real word the site does not use weighs less: beside a rare term in a title, the page stays.
  const aside = analysis({ terms: [term('cerrajero')], unknown: [{ text: 'pasillo', weight: 0.35 }] });
  assert.equal(run(aside, [[['/servicios/cerrajeria/', hit('title')]]]), ['/servicios/cerrajeria/']);
});

test('pages an intent names come first, and the intent covers the words of its phrase', () => {
  const a = analysis({
    terms: [term('bombin'), term('cambiar')],
    intents: [intent({ paths: ['/guias/cambiar-bombin/'], services: ['cerrajeria'], covers: [0, 1], size: 2 })],
  });
  const got = run(a, [[['/guias/fuga/', hit('title')]], [['/guias/fuga/', hit('title')]]]);
  assert.equal(got.slice(0, 2).sort(), ['/guias/cambiar-bombin/', '/servicios/cerrajeria/']);
  assert.is(got[2], '/guias/fuga/');
});

test("a city: that city's pages first, then the pages for every city, never another city's", () => {
  const terms: Array<Array<[string, Hit]>> = [[
    ['/servicios/cerrajeria/', hit('title')], ['/servicios/cerrajeria/vigo/', hit('title')],
    ['/servicios/cerrajeria/madrid/', hit('title')], ['/guias/cambiar-bombin/', hit('title')],
  ]];
  const named = run(analysis({ terms: [term('cerrajero')], cities: ['vigo'] }), terms);
  assert.is(named[0], '/servicios/cerrajeria/vigo/');
  assert.not.ok(named.includes('/servicios/cerrajeria/madrid/'));
  assert.equal(run(analysis({ terms: [term('cerrajero')] }), terms, 'vigo'), named, 'city=vigo is the same as naming Vigo');
  // A service intent names the page of the city asked for.
  const a = analysis({ terms: [term('cerrajero')], cities: ['madrid'], intents: [intent({ services: ['cerrajeria'], covers: [0] })] });
  assert.is(run(a, terms)[0], '/servicios/cerrajeria/madrid/');
});

test('a query that is only a city is its pages, the city page first; with an unknown word, nothing', () => {
  assert.equal(run(analysis({ cities: ['vigo'] }), []), ['/ciudades/vigo/', '/servicios/cerrajeria/vigo/']);
  assert.equal(run(analysis({ cities: ['vigo'], unknown: [{ text: 'gestoria', weight: 0.35 }] }), []), []);
  assert.equal(run(analysis({}), []), [], 'nothing to look for: nothing found');
});

test('a query naming only places the site does not serve finds nothing, unless it asks about the site itself', () => {
  const terms: Array<Array<[string, Hit]>> = [[
    ['/servicios/cerrajeria/', hit('title')], ['/servicios/cerrajeria/vigo/', hit('title')], ['/guias/cambiar-bombin/', hit('heading')],
  ]];
  const away = analysis({ terms: [term('cerrajero')], elsewhere: true, intents: [intent({ services: ['cerrajeria'], covers: [0], strong: false })] });
  assert.equal(run(away, terms), [], 'a trade there: nobody does it');
  assert.equal(run(analysis({ terms: [term('bombin')], elsewhere: true }), terms), [], 'a job there, no intent: nothing either');
  assert.equal(run(analysis({ elsewhere: true }), []), [], 'only such a place: nothing');
  const question = analysis({ terms: [term('tarifas')], elsewhere: true, intents: [intent({ paths: ['/precios/'], covers: [0] })] });
  assert.equal(run(question, [[['/precios/', hit('title')], ['/guias/fuga/', hit('title')]]]), ['/precios/'], "a question about the site: the general pages an intent names");
  assert.equal(run({ ...away, cities: ['vigo'] }, terms)[0], '/servicios/cerrajeria/vigo/', 'beside a served city, that city');
});

test("a page's own phrase answers and ranks first, even from its text alone", () => {
  // On five pages: no word of a page's own, so a match in the text alone is no answer.
  const elsewhere = [0, 1, 2].map((i): [string, Hit] => [`/otra/${i}/`, hit('body')]);
  const terms: Array<Array<[string, Hit]>> = [[['/servicios/cerrajeria/', hit('title')], ['/guias/fuga/', hit('body')], ...elsewhere]];
  const a = analysis({ terms: [term('correa')] });
  const candidates = Int32Array.from(terms[0]!.map(([p]) => at(p))).sort();
  const ranked = (phrase?: ReadonlySet<number>) => [...rank({ analysis: a, terms: terms.map(matches), soft: [], docs, pages: PATHS.length, city: 'todas', named: new Map(), candidates, phrase }, Infinity).pages].map((d) => PATHS[d]![0]);
  assert.equal(ranked(), ['/servicios/cerrajeria/']);
  assert.equal(ranked(new Set([at('/guias/fuga/')])), ['/guias/fuga/', '/servicios/cerrajeria/']);
});

test("with a city, a service's general page that answers stands for its page of that city, which ranks above it", () => {
  // The word is in the general page's headings only; Vigo's page does not repeat it.
  const terms: Array<Array<[string, Hit]>> = [[['/servicios/cerrajeria/', hit('heading')], ['/guias/fuga/', hit('heading')]]];
  assert.equal(run(analysis({ terms: [term('bombillo')] }), terms, 'vigo'), ['/servicios/cerrajeria/vigo/', '/guias/fuga/', '/servicios/cerrajeria/']);
  assert.equal(run(analysis({ terms: [term('bombillo')] }), terms), ['/guias/fuga/', '/servicios/cerrajeria/'], 'no city: no city page');
  assert.equal(run(analysis({ terms: [term('bombillo')], cities: ['madrid'] }), [[['/servicios/cerrajeria/madrid/', hit('title')], ['/servicios/cerrajeria/', hit('heading')]]])[0],
    '/servicios/cerrajeria/madrid/', 'an answer of its own keeps its own place');
});

test('a tradesman asked for: his service above guides; general pages answering the question stay above', () => {
  const terms: Array<Array<[string, Hit]>> = [[['/servicios/cerrajeria/', hit('title')]], [['/guias/cambiar-bombin/', hit('title')]]];
  const a = analysis({
    terms: [term('cerrajero'), term('bombin')],
    intents: [intent({ services: ['cerrajeria'], covers: [0], strong: false, trade: true }), intent({ paths: ['/guias/cambiar-bombin/'], covers: [1], size: 3 })],
  });
  assert.equal(run(a, terms), ['/servicios/cerrajeria/', '/guias/cambiar-bombin/']);
  assert.equal(run({ ...a, intents: [{ ...a.intents[0]!, trade: false }, a.intents[1]!] }, terms)[0], '/guias/cambiar-bombin/', 'the name of the trade alone does not');
  const billing = { ...a, intents: [...a.intents, intent({ paths: ['/preguntas-frecuentes/'], covers: [], size: 1 })] };
  assert.equal(run(billing, terms), ['/preguntas-frecuentes/', '/servicios/cerrajeria/', '/guias/cambiar-bombin/']);
});

test('ties break by URL, so the order is stable', () => {
  const got = run(analysis({ terms: [term('cerrajero')] }), [[
    ['/servicios/cerrajeria/vigo/', hit('title')], ['/servicios/cerrajeria/madrid/', hit('title')],
  ]]);
  assert.equal(got, ['/servicios/cerrajeria/madrid/', '/servicios/cerrajeria/vigo/']);
});


test('the first pages of a large candidate set are those of its full order, ties in URL order', () => {
  // 20,000 pages in a shuffled URL order, scores from few values so that most pages tie.
  const n = 20_000;
  const paths = Array.from({ length: n }, (_, i) => `/p/${(i * 7919) % n}/`);
  const byUrlBig = Int32Array.from(paths.keys()).sort((a, b) => (paths[a]! < paths[b]! ? -1 : 1));
  const urlRankBig = new Int32Array(n);
  byUrlBig.forEach((d, k) => { urlRankBig[d] = k; });
  const big: RankDocs = { byPath: new Map(paths.map((p, d) => [p, d])), city: paths.map(() => ''), urlRank: urlRankBig, byUrl: byUrlBig };
  const m = { count: n, weight: new Float64Array(n).fill(1), fields: new Uint8Array(n), body: new Float64Array(n) };
  for (let d = 0; d < n; d++) { m.fields[d] = d % 3 === 0 ? TITLE : HEADING; m.body[d] = ((d * 31) % 5) / 4; }
  const input = { analysis: analysis({ terms: [term('reforma')] }), terms: [m], soft: [], docs: big, pages: n, city: 'todas' as const, named: new Map(), candidates: Int32Array.from(big.byUrl).sort() };
  const full = rank(input, Infinity);
  assert.is(full.total, n);
  assert.is(full.pages.length, n);
  for (const k of [1, 25, 256, 4_999, 5_000, 5_001]) {
    const first = rank(input, k);
    assert.is(first.total, n);
    assert.equal([...first.pages], [...full.pages.subarray(0, k)], `first ${k}`);
  }
  // In the full order: title pages first, then by body score, equal scores by URL.
  for (let i = 1; i < n; i++) {
    const [a, b] = [full.pages[i - 1]!, full.pages[i]!];
    if (m.fields[a] === m.fields[b] && m.body[a] === m.body[b]) assert.ok(urlRankBig[a]! < urlRankBig[b]!);
  }
});
test('needed terms: the lightest terms, together short of a rule\'s share, are the ones left out', () => {
  // Shares of 5.93: TOPICAL 0.89, MIN_COVERAGE 1.48.
  const weights = [2, 0.01, 3, 0.02, 0.9];
  const total = weights.reduce((a, b) => a + b);
  assert.equal(neededTerms(weights, total), { topical: [true, false, true, false, true], covering: [true, false, true, false, false] });
  // A sum that reaches the share, to the rule's own tolerance, is never left out.
  const exact = [TOPICAL * 10, 10 - TOPICAL * 10];
  assert.equal(neededTerms(exact, 10).topical, [true, true]);
  const covering = [MIN_COVERAGE * 10 - 1e-10, 10 - MIN_COVERAGE * 10 + 1e-10];
  assert.equal(neededTerms(covering, 10).covering, [true, true]);
  assert.equal(neededTerms([], 0), { topical: [], covering: [] });
});

test.run();
