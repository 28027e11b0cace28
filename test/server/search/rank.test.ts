/**
 * Ranking and the precision rule (rank.ts, precision.ts) on hand-made matches: which pages are
 * answers, in which order, and how cities, intents, unknown words and body-only matches count.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Analysis, Term } from '../../../server/search/analyze.ts';
import type { MatchedIntent } from '../../../server/search/intents.ts';
import { rank, type RankDoc, type TermMatch } from '../../../server/search/rank.ts';
import type { CityFilter } from '../../../server/schemas/cities.ts';

const doc = (path: string, city: RankDoc['city'] = ''): RankDoc => ({ path, url: `https://x.test${path}`, city });
const DOCS = [
  doc('/servicios/cerrajeria/'), doc('/servicios/cerrajeria/vigo/', 'vigo'), doc('/servicios/cerrajeria/madrid/', 'madrid'),
  doc('/guias/cambiar-bombin/'), doc('/guias/fuga/'), doc('/ciudades/vigo/', 'vigo'), doc('/precios/'),
  // Pages that match nothing, so that term weights are those of a real site.
  ...Array.from({ length: 40 }, (_, i) => doc(`/otra/${i}/`)),
];
const docs = new Map(DOCS.map((d) => [d.path, d]));
const at = (path: string) => docs.get(path)!;

const term = (text: string): Term => ({ text, alternatives: [{ words: [text], weight: 1 }], stems: new Set([text]) });
const hit = (where: 'title' | 'heading' | 'body', weight = 1): TermMatch =>
  ({ weight, title: where === 'title', heading: where === 'heading', body: 0.5, positions: [[3]] });
const matches = (entries: Array<[string, TermMatch]>) => new Map(entries.map(([p, m]) => [at(p), m]));

function analysis(parts: Partial<Analysis>): Analysis {
  return { cities: [], terms: [], soft: [], unknown: [], intents: [], ...parts };
}
const intent = (parts: Partial<MatchedIntent>): MatchedIntent =>
  ({ paths: [], services: [], covers: [], size: 1, strong: true, direct: true, ...parts });

function run(a: Analysis, terms: Array<Array<[string, TermMatch]>>, city: CityFilter = 'todas'): string[] {
  return rank({ analysis: a, terms: terms.map(matches), soft: [], docs, pages: docs.size, city }).map((r) => r.doc.path);
}

test('a title match outranks a heading match, which outranks a body match', () => {
  const got = run(analysis({ terms: [term('cerrajero')] }), [[
    ['/guias/fuga/', hit('body')], ['/guias/cambiar-bombin/', hit('heading')], ['/servicios/cerrajeria/', hit('title')],
  ]]);
  assert.equal(got, ['/servicios/cerrajeria/', '/guias/cambiar-bombin/'], 'a body match alone is no answer');
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
  const terms: Array<Array<[string, TermMatch]>> = [[
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

test('ties break by URL, so the order is stable', () => {
  const got = run(analysis({ terms: [term('cerrajero')] }), [[
    ['/servicios/cerrajeria/vigo/', hit('title')], ['/servicios/cerrajeria/madrid/', hit('title')],
  ]]);
  assert.equal(got, ['/servicios/cerrajeria/madrid/', '/servicios/cerrajeria/vigo/']);
});

test.run();
