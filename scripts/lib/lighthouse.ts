/**
 * Lighthouse (its default config: mobile emulation, simulated slow 4G and 4× CPU) on the same
 * Chromium binary the page tests drive: the one `findChromium` picks (chromium.ts), with the
 * environment it needs, so however that helper finds Chromium, Lighthouse follows; the audit
 * itself needs a browser with a debugging port, which chrome-launcher opens.
 */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { findChromium } from './chromium.ts';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];

export interface LighthouseReport {
  url: string;
  /** 0–100 per category audited. */
  scores: Partial<Record<Category, number>>;
  /** Audits that cost points (score below 1 with a weight), as "category/audit: title". */
  lost: string[];
}

export interface LighthouseRunner {
  audit(url: string): Promise<LighthouseReport>;
  close(): Promise<void>;
}

export interface LighthouseOptions {
  /** The categories to audit (default all four). */
  categories?: readonly Category[];
}

export async function createLighthouse(options: LighthouseOptions = {}): Promise<LighthouseRunner> {
  const categories = options.categories ?? CATEGORIES;
  const binary = await findChromium();
  const chrome = await chromeLauncher.launch({
    chromePath: binary.path,
    envVars: { ...process.env, ...binary.env },
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    logLevel: 'silent',
  });
  return {
    async audit(url) {
      const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...categories] });
      if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
      const { lhr } = result;
      if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      const scores: Partial<Record<Category, number>> = {};
      const lost: string[] = [];
      for (const id of categories) {
        const category = lhr.categories[id];
        if (!category) throw new Error(`Lighthouse on ${url}: no ${id} category`);
        scores[id] = Math.round((category.score ?? 0) * 100);
        for (const ref of category.auditRefs) {
          const audit = lhr.audits[ref.id];
          if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) lost.push(`${id}/${ref.id}: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
        }
      }
      return { url, scores, lost };
    },
    async close() {
      chrome.kill();
    },
  };
}
