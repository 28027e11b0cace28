/**
 * What a page test drives: one server over the built site and one headless Chromium for the
 * file, each started by the first test that needs it (not in a `before` hook: uvu reports a
 * failing hook as nothing at all, and a browser that cannot start must fail a test, loudly),
 * and closed after the file's last test.
 */
import type { Browser } from 'playwright-core';
import type { Test } from 'uvu';
import { launchChromium } from '../../scripts/lib/chromium.ts';
import { startTestServer, type TestServer, type TestServerOptions } from './server.ts';

export interface BrowserSite {
  server(): Promise<TestServer>;
  chromium(): Promise<Browser>;
}

export function browserSite(test: Test, options: TestServerOptions): BrowserSite {
  let serverStarted: Promise<TestServer> | undefined;
  let browserStarted: Promise<Browser> | undefined;
  test.after(async () => {
    await (await browserStarted?.catch(() => undefined))?.close();
    await (await serverStarted?.catch(() => undefined))?.close();
  });
  return {
    server: () => (serverStarted ??= startTestServer(options)),
    chromium: () => (browserStarted ??= launchChromium()),
  };
}
