/**
 * What the search index holds of each page, through the cache: found again only for the same
 * path, title, city, description and Markdown, the same as analysing the page afresh, and made
 * again when an entry cannot be read back.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pageTermsKey } from '../../../build-scripts/cache/page-terms.ts';
import { entryFile } from '../../../build-scripts/cache/store.ts';
import { indexPages, type IndexPage } from '../../../build-scripts/search-index/page-terms.ts';

const page: IndexPage = {
  path: '/guias/fuga/', title: 'Fuga bajo el fregadero', city: '', description: 'Qué hacer si gotea el sifón.',
  markdown: '# Fuga bajo el fregadero\n\n## Cierre la llave de paso\n\nEl fontanero cambia la junta del sifón.\n',
};

test('an entry is found for the same page only, and reads back as the page analysed afresh', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentes-page-terms-'));
  const cache = { dir, newDir: dir };
  try {
    const fresh = indexPages({ pages: [page] });
    const first = indexPages({ pages: [page], cache });
    assert.equal(first.cache, { keys: [pageTermsKey(page)], hits: 0 });
    const again = indexPages({ pages: [page], cache });
    assert.is(again.cache?.hits, 1);
    assert.equal(again.terms, fresh.terms, 'the same terms');
    for (const field of ['path', 'title', 'city', 'description', 'markdown'] as const) {
      assert.is.not(pageTermsKey({ ...page, [field]: `${page[field]}x` }), pageTermsKey(page), `${field}: another key`);
    }
    fs.writeFileSync(entryFile(dir, pageTermsKey(page), '.json'), '{"text": 3}');
    const repaired = indexPages({ pages: [page], cache });
    assert.is(repaired.cache?.hits, 0, 'a damaged entry is made again');
    assert.equal(repaired.terms, fresh.terms);
    assert.is(indexPages({ pages: [page], cache }).cache?.hits, 1, 'and written again');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
