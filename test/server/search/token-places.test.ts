/** The token positions an excerpt is cut around: tokens holding a stem of the query word's family. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { splitWords } from '../../../server/search/excerpt.ts';
import { TokenPlaces } from '../../../server/search/token-places.ts';
import { stem } from '../../../formats/search/stem-es.ts';
import { familyStems } from '../../../formats/search/vocabulary.ts';
import { words } from '../../../formats/search/text.ts';

const TEXTS = [
  'Llame al fontanero: los fontaneros/electricistas (FONTANERÍA) llegan',
  'Un dentista dentro del edificio, sin fontanero',
];
const stemIds = new Map<string, number>();
for (const text of TEXTS) for (const w of words(text)) if (!stemIds.has(stem(w))) stemIds.set(stem(w), stemIds.size);

test('positions of the tokens holding a stem of the family, per page, from the cache or made', () => {
  let reads = 0;
  const places = new TokenPlaces((page) => { reads++; return splitWords(TEXTS[page]!); }, stemIds, 1 << 20);
  const plumber = places.idsOf(familyStems('fontanero'));
  assert.equal(places.positions(0, plumber), [2, 4, 5]);
  assert.equal(places.positions(0, places.idsOf(familyStems('electricista'))), [4]);
  assert.equal(places.positions(1, places.idsOf(familyStems('dentista'))), [1], '"dentista" is not "dentro"');
  assert.equal(places.positions(1, plumber), [6]);
  assert.equal(places.positions(1, places.idsOf(familyStems('zzzz'))), []);
  assert.is(reads, 2, 'each page split once');
  assert.ok(places.cachedBytes > 0);
  const none = new TokenPlaces((page) => splitWords(TEXTS[page]!), stemIds, 0);
  assert.equal(none.positions(0, plumber), [2, 4, 5]);
  assert.is(none.cachedBytes, 0, 'a bound of 0 keeps nothing');
});

test.run();
