/**
 * Headless Chromium for page tests: Debian's `chromium` (installed by .ci/run when missing)
 * driven by playwright-core. A launch failure throws with the path and the cause: a browser test
 * that cannot start a browser fails, it is never skipped.
 */
import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** Each launch gets a fresh temporary profile (playwright's default for `launch`). */
export async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: install Debian's \`chromium\` (bash .ci/run does) or set CHROMIUM_PATH`);
  }
  try {
    return await chromium.launch({ executablePath: CHROMIUM_PATH, args: ARGS, timeout: 30_000 });
  } catch (err) {
    throw new Error(`Chromium at ${CHROMIUM_PATH} did not start: ${(err as Error).message}`);
  }
}
