/**
 * Lighthouse Performance (mobile emulation, simulated slow 4G and 4× CPU) on the representative
 * pages the page tests open and the search results page, served by the real server as
 * `npm start` runs it over the built sample site. The score measures the machine as much as the
 * code, so it is a bench figure, not a test gate; the other categories are gated by
 * test/site/lighthouse.test.ts.
 */
import { REPRESENTATIVE, SEARCH_RESULTS } from '../../data/site-pages.ts';
import { bundleServer } from '../../scripts/bundle-server.ts';
import { createLighthouse } from '../../scripts/lib/lighthouse.ts';
import { parseConfig } from '../../server/config.ts';
import { currentBuildDir } from '../../formats/read-model/pointer.ts';
import { startServer } from '../lib/processes.ts';

export interface LighthousePage {
  name: string;
  path: string;
  performance: number;
  /** Performance audits that cost points, as "performance/audit: title (value)". */
  lost: string[];
}

export interface LighthouseBenchReport { pages: LighthousePage[] }

export async function runLighthouse(opts: { log: (line: string) => void }): Promise<LighthouseBenchReport> {
  if (await currentBuildDir(parseConfig().readModelDir) === null) throw new Error('no read model: run `npm run build` first');
  await bundleServer();
  const server = await startServer('server (lighthouse)', { RATE_LIMIT_ANONYMOUS: '1000000' });
  try {
    // Under its SITE_URL's host name (localhost), so the canonical links point at the page's own site.
    const origin = server.url.replace('//127.0.0.1:', '//localhost:');
    const lighthouse = await createLighthouse({ categories: ['performance'] });
    const pages: LighthousePage[] = [];
    try {
      for (const [name, path] of Object.entries({ ...REPRESENTATIVE, search: SEARCH_RESULTS })) {
        opts.log(`lighthouse: ${path}`);
        const report = await lighthouse.audit(origin + path);
        pages.push({ name, path, performance: report.scores.performance!, lost: report.lost });
      }
    } finally {
      await lighthouse.close();
    }
    return { pages };
  } finally {
    await server.close();
  }
}
