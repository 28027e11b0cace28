/** The built robots.txt: everything allowed, AI-use preferences stated, the sitemap on SITE_URL. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseConfig } from '../../server/config.ts';
import { CONTENT_SIGNAL } from '../../src/pages/robots.txt.ts';
import { builtReadModel, builtSiteDir } from '../helpers/built-site.ts';

test('robots.txt: Allow, Content-Signal (search and ai-input yes, ai-train no), Sitemap', async () => {
  await builtReadModel();
  const text = await fs.readFile(path.join(builtSiteDir(), 'robots.txt'), 'utf8');
  assert.is(CONTENT_SIGNAL, 'search=yes, ai-input=yes, ai-train=no');
  assert.is(text, `User-agent: *\nContent-Signal: ${CONTENT_SIGNAL}\nAllow: /\n\nSitemap: ${parseConfig().siteUrl}/sitemap-index.xml\n`);
});

test.run();
