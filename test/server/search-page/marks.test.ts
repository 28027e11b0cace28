import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { markWords, queryStems } from '../../../server/search-page/marks.ts';

const FILLER = new Set(['del', 'para', 'que']);

test('the query words are marked in the excerpt whatever their case, accents or inflection; the rest is left as it is', () => {
  const stems = queryStems('Fontanería urgente', FILLER);
  assert.is(markWords('Los fontaneros atienden urgencias.', stems), 'Los <mark>fontaneros</mark> atienden urgencias.');
  assert.is(markWords('FONTANERO urgente, ya', stems), '<mark>FONTANERO</mark> <mark>urgente</mark>, ya');
});

test('a word of the same family matches, a word that only begins like it does not', () => {
  const stems = queryStems('dentista', FILLER);
  assert.is(markWords('dentro del dentista', stems), 'dentro del <mark>dentista</mark>');
});

test('filler, one- and two-letter words and numbers are never marked', () => {
  const stems = queryStems('el agua del termo para 2 que 80', FILLER);
  assert.is(markWords('el agua del termo para 2 que 80 litros', stems), 'el <mark>agua</mark> del <mark>termo</mark> para 2 que 80 litros');
});

test('everything is HTML-escaped, marked words included; punctuation stays outside the mark', () => {
  const stems = queryStems('<script> grifo', FILLER);
  assert.is(markWords('<script>alert("grifo")</script> & l\'grifo\'s', stems),
    '&lt;<mark>script</mark>&gt;alert(&quot;<mark>grifo</mark>&quot;)&lt;/<mark>script</mark>&gt; &amp; l&#39;<mark>grifo</mark>&#39;s');
});

test('no query word: nothing marked, the text escaped', () => {
  assert.is(markWords('a < b', queryStems('', FILLER)), 'a &lt; b');
});

test.run();
