/**
 * Sound keys (phonetic.ts) and the vocabulary's lookup by sound: words misspelt by ear find the
 * word meant, and words that only look alike do not.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { soundKey } from '../../../formats/search/phonetic.ts';
import { SoundIndex, Vocabulary } from '../../../formats/search/vocabulary.ts';

test('spellings of one sound share a key', () => {
  for (const [a, b] of [['halvañil', 'albañil'], ['serrageria', 'cerrajeria'], ['yabe', 'llave'], ['umedaz', 'humedad'], ['vomba', 'bomba'], ['kalefaccion', 'calefaccion']]) {
    assert.is(soundKey(a!), soundKey(b!), `${a} / ${b}`);
  }
});

test('words that sound different keep different keys', () => {
  for (const [a, b] of [['casa', 'caja'], ['pero', 'pelo'], ['mesa', 'misa'], ['gato', 'pato']]) {
    assert.is.not(soundKey(a!), soundKey(b!), `${a} / ${b}`);
  }
});

test('the sound index finds the words of a key, and with near those one edit from it', () => {
  const words = ['albañil', 'calefaccion', 'cerrajeria', 'llave', 'humedad', 'casa'];
  const index = new SoundIndex(words);
  assert.equal(index.get(soundKey('halvañil')), ['albañil']);
  assert.equal(index.get(soundKey('yabe')), ['llave']);
  assert.equal(index.get(soundKey('kasa')), ['casa']);
  assert.equal(index.get(soundKey('xyzzy')), []);
  assert.equal(index.near(soundKey('calefasiom')), ['calefaccion']);
  assert.equal(index.get(soundKey('calefasiom')), []);
  assert.equal(index.near(soundKey('calefasiomm' + 'es')), []);
});

test('soundsLike: the most frequent word of the key; near only for long keys', () => {
  const vocabulary = new Vocabulary([['llave', 30], ['yave', 1], ['calefaccion', 12], ['bomba', 9]]);
  assert.is(vocabulary.soundsLike('yabe'), 'llave');
  assert.is(vocabulary.soundsLike('vomba'), 'bomba');
  assert.is(vocabulary.soundsLike('calefazzion'), 'calefaccion');
  assert.is(vocabulary.soundsLike('calefasiom'), undefined);
  assert.is(vocabulary.soundsLike('calefasiom', true), 'calefaccion');
  assert.is(vocabulary.soundsLike('yab', true), undefined);
});

test.run();
