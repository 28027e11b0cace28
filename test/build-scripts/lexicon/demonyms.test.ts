/**
 * The forms of a demonym (build-scripts/lexicon/demonyms.ts): the other genders and numbers from
 * the one form places.json lists, in Spanish, Catalan, Galician and Basque.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { demonymForms } from '../../../build-scripts/lexicon/demonyms.ts';

test('Spanish and Galician: -o, -és, -ín and invariable endings', () => {
  assert.equal(demonymForms('malagueño'), ['malagueño', 'malagueña', 'malagueños', 'malagueñas']);
  assert.equal(demonymForms('coruñés'), ['coruñés', 'coruñesa', 'coruñeses', 'coruñesas']);
  assert.equal(demonymForms('mallorquín'), ['mallorquín', 'mallorquina', 'mallorquines', 'mallorquinas']);
  assert.equal(demonymForms('ovetense'), ['ovetense', 'ovetenses']);
  assert.equal(demonymForms('pamplonica'), ['pamplonica', 'pamplonicas']);
});

test('Catalan -í and -à, Basque -ar and -arra', () => {
  assert.equal(demonymForms('barceloní'), ['barceloní', 'barcelonina', 'barcelonins', 'barcelonines']);
  assert.equal(demonymForms('valencià'), ['valencià', 'valenciana', 'valencians', 'valencianes']);
  assert.equal(demonymForms('bilbotarra'), ['bilbotarra', 'bilbotarrak']);
  assert.equal(demonymForms('bilbotar'), ['bilbotar', 'bilbotarra', 'bilbotarrak']);
});

test('a word with none of the endings is kept as written', () => {
  assert.equal(demonymForms(' gallec '), ['gallec']);
});

test.run();
