/** Per-page stem sets kept as numbers answer as Sets of stems would. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PageStems } from '../../../formats/search/page-stems.ts';
import { familyStems } from '../../../formats/search/vocabulary.ts';
import { stem } from '../../../formats/search/stem-es.ts';
import { words } from '../../../formats/search/text.ts';

const FIELDS = [
  'Fontanería en Madrid',
  '',
  'Cerrajeros urgentes: apertura de puertas y cambio de bombines',
  'Electricistas, boletín eléctrico y cuadros eléctricos en Las Palmas de Gran Canaria',
  'Fontaneros, fontanería y desatascos',
];

test('hasAny answers as a Set of the field\'s stems does', () => {
  const stems = PageStems.of(FIELDS);
  const sets = FIELDS.map((f) => new Set(words(f).map(stem)));
  const queries = ['fontanero', 'fontanería', 'cerrajero', 'bombín', 'electricista', 'eléctrico', 'palmas', 'agua', 'de', 'canaria', 'zzz'];
  for (const q of queries) {
    const family = familyStems(q);
    FIELDS.forEach((f, i) => {
      assert.is(stems.hasAny(i, family), [...family].some((s) => sets[i]!.has(s)), `${q} in "${f}"`);
    });
  }
  // Two fields numbered together (titles and headings share one numbering) answer the same.
  const ids = new Map<string, number>();
  const memo = new Map<string, string>();
  const reversed = [...FIELDS].reverse();
  const first = PageStems.of(reversed, ids, memo);
  const second = PageStems.of(FIELDS, ids, memo);
  for (const q of queries) {
    const family = familyStems(q);
    FIELDS.forEach((_, i) => {
      assert.is(second.hasAny(i, family), stems.hasAny(i, family), `${q}, shared numbering`);
      assert.is(first.hasAny(FIELDS.length - 1 - i, family), stems.hasAny(i, family), `${q}, first of two`);
    });
  }
  assert.ok(stems.hasAny(0, familyStems('fontanero')));
  assert.not.ok(stems.hasAny(1, familyStems('fontanero')));
});

test('pagesWith lists, ascending, the pages whose field has the stem', () => {
  const ids = new Map<string, number>();
  const memo = new Map<string, string>();
  // Numbered with another field first, as titles and headings are: some numbers are not in this one.
  PageStems.of(['Pintores y reformas integrales'], ids, memo);
  const stems = PageStems.of(FIELDS, ids, memo);
  for (const [s, id] of ids) {
    const want = FIELDS.flatMap((_, i) => (stems.hasAny(i, [s]) ? [i] : []));
    assert.equal([...stems.pagesWith(id)], want, s);
  }
  assert.equal([...stems.pagesWith(stems.idsOf(words('fontanería').map(stem))[0]!)], [0, 4]);
  assert.equal([...stems.pagesWith(ids.size + 5)], [], 'a number past every stem: no page');
});

test.run();
