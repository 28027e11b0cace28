/** Words split or run together while typing (spacing.ts), against small word lists. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mendSpacing, splitWord, type SpacingWords } from '../../../server/search/spacing.ts';

const PAGES = new Set(['fontanero', 'caldera', 'electricista', 'reforma', 'cocina', 'cambiar', 'cerradura', 'aire', 'acondicionado', 'termo', 'electrico', 'para', 'de', 'agua', 'pintor', 'piso', 'calienta', 'trato', 'cara', 'dura']);
const LEXICON = new Set(['mudanza', 'eta', 'cali']);
const REAL = new Set([...PAGES, 'termoelectrico', 'caradura', 'contrato', 'con', 'trato', 'desatas', 'cos', 'pin']);
const words: SpacingWords = {
  answered: (w) => PAGES.has(w) || LEXICON.has(w),
  real: (w) => REAL.has(w),
  topic: (w) => PAGES.has(w) && w !== 'dura',
  known: (w) => PAGES.has(w) || (LEXICON.has(w) && w !== 'cali'),
  typo: (w) => w === 'calieta',
  filler: (w) => w === 'para' || w === 'de' || w === 'con',
};
const mend = (q: string) => mendSpacing(q.split(' '), words).join(' ');

test('two neighbours, not both answered, that make a known word are that word', () => {
  assert.is(mend('fonta nero urgente'), 'fontanero urgente');
  assert.is(mend('calde ra'), 'caldera');
  assert.is(mend('electri cista'), 'electricista');
  assert.is(mend('mudan za'), 'mudanza', 'a lexicon word too: a not-offered one then finds nothing');
});

test('two answered words are never joined, and numbers never', () => {
  assert.is(mend('para de'), 'para de');
  assert.is(mend('termo electrico'), 'termo electrico');
  assert.is(mend('24 h'), '24 h');
});

test('a word nothing answers that runs two known words together is those two', () => {
  assert.is(mend('reformacocina'), 'reforma cocina');
  assert.is(mend('cambiarcerradura'), 'cambiar cerradura');
  assert.is(mend('aireacondicionado'), 'aire acondicionado');
  assert.is(mend('fontaneropara'), 'fontanero para', 'filler may be one half');
});

test('no split into filler alone, a place not served, a typo, or an answered word', () => {
  assert.is(splitWord('paradede', words), undefined);
  assert.is(mend('calieta'), 'calieta', 'one edit from a page word: a typo');
  assert.is(mend('caliagua'), 'caliagua', 'a place not served is no half');
  assert.is(mend('fontanero'), 'fontanero');
});

test('a real word the site does not use splits only into two topic words, neither filler', () => {
  assert.is(mend('termoelectrico'), 'termo electrico');
  assert.is(splitWord('contrato', words), undefined);
  assert.is(mend('caradura'), 'caradura', 'a page word the lexicon has no use for is no topic');
});

test('long words are not tried', () => {
  assert.is(splitWord('fontanero'.repeat(4), words), undefined);
});

test.run();
