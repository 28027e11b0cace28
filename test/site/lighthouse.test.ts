/**
 * Lighthouse in mobile emulation on the six representative pages and the search results page,
 * served by the real server over the built site: Accessibility, Best practices and SEO each at
 * least 95, and no audit of theirs failing at all (they do not depend on the machine's load, so
 * a regression shows as a named audit rather than a point or two). Performance measures the machine as much as the code:
 * it is the bench's (`npm run bench -- --only lighthouse`). The scores of each run are written to
 * test-artifacts/lighthouse.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { REPRESENTATIVE, SEARCH_RESULTS } from '../../data/site-pages.ts';
import { createLighthouse, type Category, type LighthouseReport } from '../../scripts/lib/lighthouse.ts';
import { ROOT } from '../../server/config.ts';
import { withTestServer } from '../helpers/server.ts';

const FLOOR = 95;
const GATES: readonly Category[] = ['accessibility', 'best-practices', 'seo'];
const PAGES: Record<string, string> = { ...REPRESENTATIVE, search: SEARCH_RESULTS };
// Result pages are noindex by design, and Lighthouse's is-crawlable fails on every noindex page (so does the SEO score it weighs in).
const NOINDEX: Record<string, { category: Category; audit: string }> = { search: { category: 'seo', audit: 'seo/is-crawlable:' } };

test('Lighthouse (mobile) on home, a service, a service × city, a city, a guide, contact and search results: accessibility, best practices and SEO ≥ 95, no audit failing', () =>
  withTestServer({ fixture: 'built', env: { RATE_LIMIT_ANONYMOUS: '1000000' } }, async (server) => {
    // Under its SITE_URL's host name (localhost), so the canonical links point at the page's own site.
    const origin = server.origin.replace('//127.0.0.1:', '//localhost:');
    const lighthouse = await createLighthouse({ categories: GATES });
    const reports: Record<string, LighthouseReport> = {};
    try {
      for (const [name, pagePath] of Object.entries(PAGES)) reports[name] = await lighthouse.audit(origin + pagePath);
    } finally {
      await lighthouse.close();
    }
    fs.mkdirSync(path.join(ROOT, 'test-artifacts'), { recursive: true });
    fs.writeFileSync(path.join(ROOT, 'test-artifacts', 'lighthouse.json'), JSON.stringify(reports, null, 2) + '\n');

    for (const [name, report] of Object.entries(reports)) {
      const excused = NOINDEX[name];
      for (const category of GATES) {
        if (category === excused?.category) continue;
        const score = report.scores[category];
        assert.ok(score !== undefined && score >= FLOOR, `${name}: ${category} ${score}; lost on ${report.lost.join('; ') || 'nothing'}`);
      }
      assert.equal(report.lost.filter((lost) => !excused || !lost.startsWith(excused.audit)), [], `${name}: failing audits`);
    }
  }));

test.run();
