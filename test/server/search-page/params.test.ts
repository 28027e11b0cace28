import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { citySlugOf } from '../../../formats/search-page.ts';
import { CITY_SLUGS } from '../../../formats/schemas/cities.ts';
import { invalidParam } from '../../../server/errors.ts';
import { MALFORMED } from '../../../server/rest/query.ts';
import { nextPageHref, readPageRequest, refusalReason, RESULTS_SHOWN } from '../../../server/search-page/params.ts';

test('q and ciudad become search_pages\' query and city: the query trimmed, the city by slug or by the name the form sends', () => {
  assert.equal(readPageRequest('q=+el+termo+gotea+&ciudad=A+Coru%C3%B1a'), { query: 'el termo gotea', input: { query: 'el termo gotea', city: 'a-coruna', limit: RESULTS_SHOWN } });
  assert.equal(readPageRequest('q=grifo&ciudad=las-palmas').input, { query: 'grifo', city: 'las-palmas', limit: RESULTS_SHOWN });
  assert.equal(readPageRequest('q=grifo&ciudad=Todas').input.city, 'todas');
  assert.equal(readPageRequest('q=grifo&ciudad=&desde=').input, { query: 'grifo', limit: RESULTS_SHOWN }, 'empty ones are left out');
  assert.equal(readPageRequest('q=grifo&desde=AAAAAAAAAAAA').input.cursor, 'AAAAAAAAAAAA');
  assert.equal(readPageRequest('').input.query, '');
});

test('every city\'s slug reads back as itself, and so does a name only a hyphen or an accent away', () => {
  for (const slug of [...CITY_SLUGS, 'todas']) assert.is(citySlugOf(slug), slug);
  assert.is(citySlugOf('Las Palmas'), 'las-palmas');
  assert.is(citySlugOf('MÁLAGA'), 'malaga');
});

test('what is no single text is passed on as it came, for the schema to refuse', () => {
  const twice = readPageRequest('q=grifo&q=termo&ciudad=madrid&ciudad=vigo');
  assert.equal(twice.input.query, ['grifo', 'termo']);
  assert.equal(twice.input.city, ['madrid', 'vigo']);
  assert.is(twice.query, '');
  assert.is(readPageRequest('q=%E0%A4%A').input.query, MALFORMED);
  assert.is(readPageRequest('q=grifo&ciudad=narnia').input.city, 'narnia');
  assert.is(readPageRequest('q=grifo&ciudad=%C2%BF%3F').input.city, '¿?', 'a value with no word is kept, not emptied');
});

test('a refusal says which field to fix, in the page\'s words', () => {
  const input = { query: 'x', city: 'narnia', cursor: 'zzz' };
  assert.match(refusalReason(invalidParam('query', ''), input), 'entre 2 y 200 caracteres');
  assert.match(refusalReason(invalidParam('city', ''), input), 'no está en nuestra lista');
  assert.match(refusalReason(invalidParam('cursor', ''), input), 'más resultados ya no vale');
  assert.match(refusalReason(invalidParam('query', ''), { query: ['a', 'b'] }), 'mal formada');
});

test('the next results keep the query and the city', () => {
  assert.is(nextPageHref('fuga & gotera', 'madrid', 'AAjG8kWjjclP'), '/buscar/?q=fuga+%26+gotera&ciudad=madrid&desde=AAjG8kWjjclP');
});

test.run();
