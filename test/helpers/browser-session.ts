/**
 * One server over the built sample site and one headless Chromium for a browser test file: loading
 * the read model and starting Chromium are the slow parts. Each is started by the first test that
 * needs it, not in a `before` hook: uvu reports a failing hook as nothing at all, and a browser
 * that cannot start must fail a test, loudly. `close` in the file's `after` hook.
 */
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../scripts/lib/chromium.ts';
import { startTestServer, type TestServerOptions, type TestServer } from './server.ts';

export interface BrowserSession {
  server(): Promise<TestServer>;
  browser(): Promise<Browser>;
  /** Closes what was started; what failed to start is passed over. */
  close(): Promise<void>;
}

/** `env`: the server's environment over the built site's (a larger quota…). */
export function browserSession(env?: TestServerOptions['env']): BrowserSession {
  let serverStarted: Promise<TestServer> | undefined;
  let browserStarted: Promise<Browser> | undefined;
  return {
    server: () => (serverStarted ??= startTestServer({ fixture: 'built', env })),
    browser: () => (browserStarted ??= launchChromium()),
    async close() {
      await (await browserStarted?.catch(() => undefined))?.close();
      await (await serverStarted?.catch(() => undefined))?.close();
    },
  };
}
