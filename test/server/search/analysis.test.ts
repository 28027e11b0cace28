/** Text analysis: folding, the Spanish stemmer, the real-match rule, typo correction. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { stem } from '../../../formats/search/stem-es.ts';
import { fold, words, wordsByDefinition } from '../../../formats/search/text.ts';
import { EditIndex, familyStems, Vocabulary, withinOneEdit } from '../../../formats/search/vocabulary.ts';

test('folding drops case and diacritics, words split on anything else', () => {
  assert.is(fold('Fontanería CORUÑA Güero'), 'fontaneria coruna guero');
  assert.equal(words('¿Fuga de agua/luz? «Urgente», A-Coruña 24h.'), ['fuga', 'de', 'agua', 'luz', 'urgente', 'a', 'coruna', '24h']);
});

test('words: the per-character fast path gives what folding the whole text gives, on any text', () => {
  // Letters with and without precomposed forms, combining marks, final-sigma Greek, Turkish İ,
  // ligatures, Hangul, astral letters, format characters, punctuation and spaces of all kinds.
  const alphabet = [...'aZñÑáÉüÜçß0959٣ǄǅİıΣσςΑΩ한ﬁ€–—…¿¡«»"\'/-_.,;:!? \t\n'].concat(
    ['e\u0301', '\u0301', '\u0327', '\u00ad', '\u200b', '\u00a0', '\u2003', '\ud835\udc00', '\ud83d\ude00', '\ufeff', '\u0130']);
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let n = 0; n < 3000; n++) {
    let text = '';
    const length = Math.floor(random() * 24);
    for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
    assert.equal(words(text), wordsByDefinition(text), JSON.stringify(text));
  }
  assert.equal(words('ΟΔΟΣ ΟΔΟΣΑ'), ['οδος', 'οδοσα']);
});

test('Snowball Spanish stems (published outputs for unaccented words)', () => {
  const cases: Record<string, string> = {
    abandonada: 'abandon', abarcaba: 'abarc', abogados: 'abog', absoluta: 'absolut', actividades: 'activ',
    administracion: 'administr', agradecimiento: 'agradec', rapidamente: 'rapid', nacionalidad: 'nacional',
    comunicaciones: 'comun', continuamente: 'continu', chica: 'chic', persiguen: 'persig', averiguemos: 'averig',
    ojos: 'ojos', cantandole: 'cant', bebiendolo: 'beb',
  };
  for (const [w, s] of Object.entries(cases)) assert.is(stem(w), s, w);
});

test('words that name object properties ("constructor", "tostring") stem as words', () => {
  for (const w of ['constructor', 'tostring', 'valueof', 'hasownproperty']) assert.type(stem(w), 'string', w);
  assert.is(stem('constructores'), stem('constructor'));
});

test('inflections share a stem; accents never matter', () => {
  for (const group of [
    ['fontanero', 'fontaneros', 'fontanera', 'fontaneras'],
    ['cerrajeria', 'cerrajerias'],
    ['averia', 'averias'],
    ['electricista', 'electricistas'],
    ['reforma', 'reformas'],
  ]) {
    for (const q of group) for (const w of group) assert.ok(familyStems(q).has(stem(w)), `${q} ~ ${w}`);
  }
  assert.is(stem(fold('fontanería')), stem('fontaneria'));
});

test('nouns Snowball takes for verbs keep their stem: "pared" is not "para"', () => {
  assert.is(stem('pared'), stem('paredes'));
  assert.is.not(stem('pared'), stem('para'));
  assert.is(stem('redes'), stem('red'));
});

test('the real-match rule: derivations yes, prefixes no', () => {
  const matches = (q: string, w: string) => familyStems(q).has(stem(w));
  assert.ok(matches('fontaneros', 'fontaneria'));
  assert.ok(matches('fontaneria', 'fontanero'));
  assert.ok(matches('cerrajero', 'cerrajeria'));
  assert.ok(matches('electrico', 'electricista'));
  assert.ok(matches('humedades', 'humedad'));
  assert.not.ok(matches('dentista', 'dentro'));
  assert.not.ok(matches('agua', 'aguantar'));
  assert.not.ok(matches('agua', 'agudo'));
  assert.not.ok(matches('de', 'dentro'));
});

test('one edit: insertion, deletion, substitution or swap', () => {
  assert.ok(withinOneEdit('cerrajro', 'cerrajero'));
  assert.ok(withinOneEdit('cerrajeros', 'cerrajero'));
  assert.ok(withinOneEdit('cerrajeeo', 'cerrajero'));
  assert.ok(withinOneEdit('cerrajeor', 'cerrajero'));
  assert.not.ok(withinOneEdit('cerrjro', 'cerrajero'));
  assert.not.ok(withinOneEdit('cerrajoer', 'cerrajero'));
});

test('the edit index finds exactly the strings one edit away, letters of any kind included', () => {
  const alphabet = [...'aeiounrstlcdmpñáéü019-'];
  let seed = 11;
  const random = (n: number) => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed % n; };
  const word = () => Array.from({ length: 3 + random(6) }, () => alphabet[random(alphabet.length)]).join('');
  const edit = (w: string) => {
    const i = random(w.length);
    const c = alphabet[random(alphabet.length)]!;
    switch (random(4)) {
      case 0: return w.slice(0, i) + c + w.slice(i);
      case 1: return w.slice(0, i) + w.slice(i + 1);
      case 2: return w.slice(0, i) + c + w.slice(i + 1);
      default: return w.slice(0, i) + (w[i + 1] ?? '') + w[i] + w.slice(i + 2);
    }
  };
  const list = [...new Set(Array.from({ length: 3000 }, word))];
  const index = new EditIndex(list);
  let found = 0;
  for (let k = 0; k < 600; k++) {
    const t = k % 2 === 0 ? edit(list[random(list.length)]!) : word();
    const expected = list.filter((w) => withinOneEdit(t, w));
    assert.equal(index.within(t).sort(), expected.sort(), t);
    found += expected.length;
  }
  assert.ok(found > 300, `the queries have neighbours (${found})`);
});

const vocabulary = new Vocabulary([
  ['cerrajero', 5], ['cerrajeros', 9], ['cerrajeria', 12], ['fontanero', 3], ['fontaneria', 20],
  ['dentro', 4], ['de', 40], ['vigo', 6], ['agua', 8], ['aguantar', 2],
]);

test('typo correction: most frequent word one edit away, only for words of five letters or more', () => {
  assert.is(vocabulary.correct('cerrajro'), 'cerrajero');
  assert.is(vocabulary.correct('cerrajeroz'), 'cerrajeros', 'one edit from cerrajero and cerrajeros: the more frequent');
  assert.is(vocabulary.correct('fontanria'), 'fontaneria');
  assert.is(vocabulary.correct('dentista'), undefined);
  assert.is(vocabulary.correct('agaa'), undefined, 'four letters');
});

test.run();
