/**
 * Headless Chromium for the page tests and the bench, driven by playwright-core. Every browser
 * they start is found here. Which browser, first found wins:
 *
 * 1. `CHROMIUM_PATH`, when set: that executable (it must exist). `CHROMIUM_PATH=bundled` skips
 *    the system browser and takes the npm package's, as on a machine without one.
 * 2. Debian's `chromium` at /usr/bin/chromium, when installed: the distribution keeps it and its
 *    libraries patched, and it starts without unpacking anything.
 * 3. The headless shell of the npm package `@sparticuz/chromium` (chromium-package.ts), with the
 *    libraries it ships: all a machine with only Node needs.
 *
 * A browser that is there but cannot run (not executable, a broken binary) is passed over for the
 * next one, with a line that says why; a CHROMIUM_PATH that cannot run fails the caller with the
 * cause, as does a launch failure: a browser test that cannot start a browser fails, it is never
 * skipped, and it never takes the test process down with it.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { chromium, type Browser, type Page, type PageScreenshotOptions } from 'playwright-core';
import { packagedChromium } from './chromium-package.ts';

/** Debian's browser, taken when present unless CHROMIUM_PATH says otherwise. */
export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/**
 * CHROMIUM_PATH as set, else the system browser's path. The browser a launch actually uses is
 * `findChromium()`'s: this path may not exist, when the npm package's browser is used instead.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || SYSTEM_CHROMIUM;

/** Flags for a headless browser on a machine without a display or outside network. */
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export interface ChromiumBinary {
  path: string;
  source: 'CHROMIUM_PATH' | 'system' | 'npm';
  /** Environment the browser's process needs besides the caller's (the npm browser's libraries). */
  env: Record<string, string>;
}

export interface FindChromiumOptions {
  /** Read instead of process.env (CHROMIUM_PATH). */
  env?: Record<string, string | undefined>;
  /** Where the system browser is looked for (default /usr/bin/chromium). */
  systemPath?: string;
}

/** The browser to launch, in the order above. */
export async function findChromium(options: FindChromiumOptions = {}): Promise<ChromiumBinary> {
  const wanted = (options.env ?? process.env).CHROMIUM_PATH;
  const systemPath = options.systemPath ?? SYSTEM_CHROMIUM;
  if (wanted && wanted !== 'bundled') {
    if (!fs.existsSync(wanted)) throw new Error(`CHROMIUM_PATH is ${wanted}, which does not exist: unset it to use ${systemPath} or the npm package's browser`);
    const broken = cannotRun(wanted);
    if (broken !== null) throw new Error(`CHROMIUM_PATH is ${wanted}, which cannot run (${broken}): fix it, or unset it to use ${systemPath} or the npm package's browser`);
    return { path: wanted, source: 'CHROMIUM_PATH', env: {} };
  }
  if (wanted !== 'bundled' && fs.existsSync(systemPath)) {
    const broken = cannotRun(systemPath);
    if (broken === null) return { path: systemPath, source: 'system', env: {} };
    process.stderr.write(`chromium: ${systemPath} cannot run (${broken}); using the npm package's browser\n`);
  }
  const packaged = await packagedChromium();
  return { path: packaged.path, source: 'npm', env: packaged.env };
}

const checked = new Map<string, string | null>();

/**
 * Why the browser at `file` cannot run, or null when `--version` answers. Asked once per path:
 * chrome-launcher spawns what it is given without listening for the spawn's error.
 */
function cannotRun(file: string): string | null {
  let why = checked.get(file);
  if (why !== undefined) return why;
  try {
    fs.accessSync(file, fs.constants.X_OK);
    const r = spawnSync(file, ['--version'], { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] });
    why = r.error ? r.error.message : r.status !== 0 ? `--version exited ${r.status ?? r.signal}: ${r.stderr.trim().slice(0, 200)}` : null;
  } catch (err) {
    why = (err as NodeJS.ErrnoException).code ?? String(err);
  }
  checked.set(file, why);
  return why;
}

export interface LaunchOptions {
  /** The browser to start (default: `findChromium()`). */
  binary?: ChromiumBinary;
}

/** Each launch gets a fresh temporary profile (playwright's default for `launch`). */
export async function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  const binary = options.binary ?? await findChromium();
  try {
    return await chromium.launch({
      executablePath: binary.path,
      args: CHROMIUM_ARGS,
      env: { ...process.env, ...binary.env },
      // A start takes about a second on an idle machine: ten times more on a busy one, at least.
      timeout: 30_000,
    });
  } catch (err) {
    throw new Error(`Chromium at ${binary.path} (${binary.source}) did not start: ${(err as Error).message}`);
  }
}

/** How often a screenshot is tried when the browser could not make a frame in time. */
const SCREENSHOT_ATTEMPTS = 5;

/**
 * `page.screenshot`, tried again when Chromium answers "Unable to capture screenshot": with the
 * CPU busy its compositor may not produce a frame before the capture gives up (the page's own
 * animation frames stall then too, so there is no event to wait on). Each retry comes after a
 * longer pause; any other error, or the fifth refusal, throws.
 */
export async function screenshot(page: Page, options: PageScreenshotOptions): Promise<Buffer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await page.screenshot(options);
    } catch (err) {
      if (attempt >= SCREENSHOT_ATTEMPTS || !/Unable to capture screenshot/.test((err as Error).message)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}
