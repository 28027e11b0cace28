/**
 * The built site in headless Chromium, without JavaScript (the sandbox page, the one that needs
 * it, with), at 320, 390 and 1280 px, one page of each type and the search results page (with
 * results and with none) at 360 and 414 px too: no page
 * scrolls sideways, a call link is visible in the first viewport of every page type, on phones
 * call and WhatsApp stay on screen while reading (numbers on one line, never over the end of the
 * page), and every link and control a finger aims at is at least 44 × 44 px. Screenshots of six
 * representative pages at 390 px are written to test-artifacts/ on every run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { ROOT } from '../../server/config.ts';
import { browserSite } from '../helpers/browser-site.ts';
import { screenshot } from '../../scripts/lib/chromium.ts';
import { REPRESENTATIVE, SEARCH_RESULTS } from '../../data/site-pages.ts';
import { pagesToCheck } from './site-pages.ts';

const WIDTHS = [320, 390, 1280];
/** Phone widths between those, checked on one page of each type (REPRESENTATIVE). */
const MORE_WIDTHS = [360, 414];
const HEIGHT = { 320: 568, 360: 800, 390: 844, 414: 896, 1280: 800 } as Record<number, number>;
/** Below this width the sidebar stacks under the content and the contact bar is fixed to the bottom. */
const PHONE_MAX = 959;
const ARTIFACTS = path.join(ROOT, 'test-artifacts');
const NEEDS_SCRIPT = new Set(['/api/sandbox/']);
/** The search results page, which the server fills (routes/search-page.ts): with results, and with none. */
const SEARCH_PAGES = [SEARCH_RESULTS, '/buscar/?q=mudanzas+en+madrid&ciudad=Todas'];

const { server: builtServer, chromium } = browserSite(test, { fixture: 'built', env: { RATE_LIMIT_ANONYMOUS: '1000000' } });

interface Target {
  href: string;
  width: number;
  height: number;
  /** Wholly inside the viewport and the topmost element at its centre (not covered). */
  visible: boolean;
  /** One of the two contact actions (the bar on phones, the header buttons on wide screens). */
  action: boolean;
}

interface Layout {
  innerWidth: number;
  scrollWidth: number;
  tel: Target[];
  whatsapp: Target[];
  /** Phone numbers in links that run over more than one line or out of their link's box. */
  brokenNumbers: string[];
  /** Links and controls under 44 × 44 px, less links inside running text. */
  smallTargets: string[];
}

/** Runs in the page: what a person sees at the current scroll position. */
function measure(): Layout {
  const target = (a: HTMLAnchorElement): Target => {
    const r = a.getBoundingClientRect();
    const inside = r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
    const top = inside ? document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) : null;
    return { href: a.href, width: r.width, height: r.height, visible: inside && !!top && a.contains(top), action: !!a.closest('.cta') };
  };
  const links = (selector: string) => [...document.querySelectorAll<HTMLAnchorElement>(selector)].map(target);
  const brokenNumbers: string[] = [];
  for (const a of document.querySelectorAll<HTMLAnchorElement>('a[href^="tel:"], a[href*="wa.me/"]')) {
    const walker = document.createTreeWalker(a, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const match = /\+?\d[\d\s]{7,}\d/.exec(node.textContent ?? '');
      if (!match) continue;
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0);
      const box = a.getBoundingClientRect();
      const lines = new Set(rects.map((r) => Math.round(r.top)));
      const outside = rects.some((r) => r.left < box.left - 0.5 || r.right > box.right + 0.5);
      if (lines.size > 1 || outside) brokenNumbers.push(`${match[0]} in ${a.className || a.href}`);
    }
  }
  // A link inside running text (a paragraph, a table cell or a prose list item, with words
  // around it) is read rather than aimed at: WCAG 2.5.5 exempts such inline targets.
  const smallTargets: string[] = [];
  const words = (node: Node | null) => (node?.textContent ?? '').replace(/\s+/g, ' ').trim();
  for (const el of document.querySelectorAll<HTMLElement>('a[href], button, input, select, summary, textarea')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
    const inText = el.tagName === 'A' && words(el.parentElement) !== words(el) && !!el.closest('p, td, dd, blockquote, figcaption, .prose li');
    if (!inText && (r.width < 44 || r.height < 44)) smallTargets.push(`${el.getAttribute('href') ?? el.tagName.toLowerCase()} ${r.width.toFixed(0)} × ${r.height.toFixed(0)} px`);
  }
  return {
    innerWidth,
    scrollWidth: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
    tel: links('a[href^="tel:"]'),
    whatsapp: links('a[href*="wa.me/"]'),
    brokenNumbers,
    smallTargets,
  };
}

/**
 * `measure` evaluated in the page. tsx compiles this file keeping function names, which wraps
 * inner functions in a `__name(…)` helper the page does not have; the source is sent with one.
 */
const measureIn = (page: Page): Promise<Layout> => page.evaluate(`(() => { const __name = (f) => f; return (${measure.toString()})(); })()`);

const anyVisible = (targets: Target[]) => targets.some((t) => t.visible);

async function open(browser: Browser, origin: string, pagePath: string, width: number): Promise<{ page: Page; close(): Promise<void> }> {
  const context = await browser.newContext({
    viewport: { width, height: HEIGHT[width]! },
    javaScriptEnabled: NEEDS_SCRIPT.has(pagePath),
    isMobile: width <= PHONE_MAX,
    hasTouch: width <= PHONE_MAX,
  });
  const page = await context.newPage();
  const response = await page.goto(origin + pagePath, { waitUntil: 'load' });
  assert.is(response?.status(), 200, `${pagePath} @${width}`);
  return { page, close: () => context.close() };
}

async function checkPage(browser: Browser, origin: string, pagePath: string, width: number): Promise<void> {
  const where = `${pagePath} @${width}px`;
  const { page, close } = await open(browser, origin, pagePath, width);
  try {
    const first = await measureIn(page);
    assert.ok(first.scrollWidth <= first.innerWidth, `${where}: the page is ${first.scrollWidth} px wide in a ${first.innerWidth} px viewport`);
    assert.ok(anyVisible(first.tel), `${where}: no call link visible in the first viewport`);
    assert.equal(first.brokenNumbers, [], `${where}: phone numbers split across lines or out of their button`);
    if (width > PHONE_MAX) return;

    assert.equal(first.smallTargets, [], `${where}: tap targets under 44 × 44 px`);
    assert.ok(anyVisible(first.whatsapp), `${where}: no WhatsApp link visible in the first viewport`);
    const actions = [...first.tel, ...first.whatsapp].filter((x) => x.action);
    assert.is(actions.filter((x) => x.visible).length, 2, `${where}: the call and WhatsApp actions are not both on screen`);
    for (const t of actions) {
      assert.ok(t.width >= 44 && t.height >= 44, `${where}: ${t.href} is ${t.width.toFixed(0)} × ${t.height.toFixed(0)} px`);
    }
    // Reading: half way down and at the very end, both actions are still on screen…
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 2));
    const reading = await measureIn(page);
    assert.is([...reading.tel, ...reading.whatsapp].filter((x) => x.action && x.visible).length, 2, `${where}: call or WhatsApp gone while reading`);
    // …and the last line of the page scrolls clear of the bar instead of staying under it.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const gap = await page.evaluate(() => {
      const bar = document.querySelector('a[href^="tel:"]')!.closest('.cta')!.getBoundingClientRect();
      const last = document.querySelector('.site-footer__legal')!.getBoundingClientRect();
      return bar.top - last.bottom;
    });
    assert.ok(gap >= 0, `${where}: the contact bar covers the last ${(-gap).toFixed(0)} px of the page`);
  } finally {
    await close();
  }
}

test('every page at 320, 390 and 1280 px, every page type and the search results at 360 and 414 px too: no sideways scrolling, a call link in the first viewport; on phones call and WhatsApp always on screen and every tap target 44 × 44 px', async () => {
  const server = await builtServer();
  const browser = await chromium();
  const pages = pagesToCheck(server.model.current().pages);
  assert.ok(pages.length >= 40, `${pages.length} pages`);
  for (const pagePath of [...pages, ...SEARCH_PAGES]) {
    const representative = (Object.values(REPRESENTATIVE) as string[]).includes(pagePath) || SEARCH_PAGES.includes(pagePath);
    for (const width of representative ? [...WIDTHS, ...MORE_WIDTHS] : WIDTHS) await checkPage(browser, server.origin, pagePath, width);
  }
});

test('desktop keeps its sidebar beside the content, with the call and WhatsApp buttons', async () => {
  const server = await builtServer();
  const { page, close } = await open(await chromium(), server.origin, '/servicios/fontaneria/madrid/', 1280);
  try {
    const side = await page.evaluate(() => {
      const main = document.querySelector('main')!.getBoundingClientRect();
      const aside = document.querySelector('aside.sidebar')!;
      return { beside: aside.getBoundingClientRect().left >= main.right, tel: !!aside.querySelector('a[href^="tel:"]'), wa: !!aside.querySelector('a[href*="wa.me/"]') };
    });
    assert.equal(side, { beside: true, tel: true, wa: true });
  } finally {
    await close();
  }
});

test('screenshots of the six representative pages at 390 px (first screen and whole page) in test-artifacts/', async () => {
  const server = await builtServer();
  const browser = await chromium();
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  for (const [name, pagePath] of Object.entries(REPRESENTATIVE)) {
    const { page, close } = await open(browser, server.origin, pagePath, 390);
    try {
      const first = path.join(ARTIFACTS, `390-${name}.png`);
      const whole = path.join(ARTIFACTS, `390-${name}-full.png`);
      fs.rmSync(first, { force: true });
      fs.rmSync(whole, { force: true });
      await screenshot(page, { path: first });
      await screenshot(page, { path: whole, fullPage: true });
      assert.ok(fs.statSync(first).size > 1000 && fs.statSync(whole).size > 1000, name);
    } finally {
      await close();
    }
  }
});

test.run();
