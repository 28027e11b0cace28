/**
 * The search lexicon as shipped: it compiles against the sample site's content (every target a
 * page the site publishes, checked in the build) and holds nothing the lint warns about; demonyms,
 * places not served and tradesmen compile as the search needs them; and the lint finds what it is
 * for.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileLexicon, LexiconError } from '../../../build-scripts/lexicon/compile.ts';
import { lintLexicon } from '../../../build-scripts/lexicon/lint.ts';
import { ROOT } from '../../../server/config.ts';
import type { CompiledLexicon } from '../../../formats/schemas/lexicon.ts';

const content = path.join(ROOT, 'src', 'content');

test('the shipped lexicon compiles and lints clean', () => {
  const lexicon = compileLexicon({ contentDir: content });
  assert.ok(lexicon.intents.length > 100 && lexicon.synonyms.length > 100 && lexicon.rewrites.length > 100);
  assert.ok(lexicon.not_offered.length > 50 && lexicon.filler.length > 200 && lexicon.rooms.length > 10);
  const notOffered = new Set(lexicon.not_offered.map((p) => p.join(' ')));
  assert.ok(lexicon.not_offered_things?.some((p) => p.join(' ') === 'coche'), 'vehicles are things');
  assert.ok((lexicon.not_offered_things ?? []).every((p) => notOffered.has(p.join(' '))), 'every thing is not offered');
  assert.ok(lexicon.not_offered_settings?.some((p) => p.join(' ') === 'comprar piso'), 'buying a flat is a setting');
  assert.ok((lexicon.not_offered_settings ?? []).every((p) => notOffered.has(p.join(' '))), 'every setting is not offered');
  assert.equal(lintLexicon(lexicon), []);
});

test('every city is named by its slug, its names in cities.json and places.json; ignored districts are not', () => {
  const { places } = compileLexicon({ contentDir: content });
  const cities = (name: string) => places.find(([w]) => w.join(' ') === name)?.[1];
  assert.equal(cities('a coruna'), ['a-coruna']);
  assert.equal(cities('la coruna'), ['a-coruna']);
  assert.equal(cities('gran canaria'), ['las-palmas']);
  assert.equal(cities('chamberi'), ['madrid'], 'a district');
  assert.is(cities('centro'), undefined, 'a district word too common to name a city');
});

test('demonyms name their city in every form; places not served are kept apart; tradesmen are marked', () => {
  const lexicon = compileLexicon({ contentDir: content });
  const cities = (name: string) => lexicon.places.find(([w]) => w.join(' ') === name)?.[1];
  assert.equal(cities('malaguenas'), ['malaga'], 'a derived form');
  assert.equal(cities('bilbotarrak'), ['bilbao'], 'a Basque plural');
  assert.ok(lexicon.unserved?.some((w) => w.join(' ') === 'donostia'));
  assert.is(cities('donostia'), undefined);
  const plumber = lexicon.intents.filter((i) => i.services.join() === 'fontaneria' && !i.strong);
  assert.equal(plumber.map((i) => [i.trade === true, i.phrases.map((p) => p.join(' '))]), [[false, ['fontaneria']], [true, ['fontanero', 'fontaneros']]]);
});

test('a place listed as not served that names a served city is refused', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lexicon-'));
  fs.mkdirSync(path.join(dir, 'lexicon'));
  fs.writeFileSync(path.join(dir, 'lexicon', 'places.json'), JSON.stringify({ cities: { bilbao: ['Bilbo'] }, unserved: ['Donostia', 'Bilbo'], ignore: [] }));
  assert.throws(() => compileLexicon({ contentDir: dir }), (e: unknown) => e instanceof LexiconError && /"bilbo" names a city the site serves/.test((e as Error).message));
});

test('the lint warns about twice-claimed synonyms, refused phrases in use, hidden places and one-letter intents', () => {
  const base: CompiledLexicon = {
    format: 1, rewrites: [[['bilbo'], ['bilbao']]], synonyms: [[['grifo'], ['canilla']], [['canilla'], ['llave']]],
    intents: [{ phrases: [['la', 'x'], ['mudanza']], paths: ['/'], services: [], strong: true }],
    places: [[['bilbo'], ['bilbao']]], filler: ['la'], rooms: [], negations: [], not_offered: [['mudanza']],
  };
  const warnings = lintLexicon(base);
  assert.is(warnings.length, 4, warnings.join('\n'));
  assert.match(warnings.join('\n'), /"canilla" is in two groups/);
  assert.match(warnings.join('\n'), /not-offered: "mudanza" is also/);
  assert.match(warnings.join('\n'), /rewrites: "bilbo" is a place name/);
  assert.match(warnings.join('\n'), /comes down to "x"/);
});

test.run();
