/**
 * The one in-process test server: the whole server (server/main.ts `startServer`) on a loopback
 * port, over a read-model fixture (the shared one by default) or the built sample site, with the
 * store it is given or the one its config names (in memory unless REDIS_URL is set), and the
 * real token service. Close it in `finally`.
 */
import os from 'node:os';
import path from 'node:path';
import type { TokenService } from '../../server/auth/tokens.ts';
import { parseConfig, type Config } from '../../server/config.ts';
import type { Logger } from '../../server/log.ts';
import { startServer, type RunningServer } from '../../server/main.ts';
import { API_BASE } from '../../server/paths.ts';
import type { Operation } from '../../server/operations/operation.ts';
import type { ModelHolder } from '../../server/read-model/types.ts';
import type { Store } from '../../server/stores/types.ts';
import { builtReadModel } from './built-site.ts';
import { freePort } from '../../scripts/lib/port.ts';
import { sharedReadModel, type ReadModelFixture } from './read-model.ts';
import { refuseInUnitTier } from '../tiers.ts';

type Clock = () => number;

export interface TestServerOptions<C extends Clock = Clock> {
  /**
   * What it serves: a read-model fixture (default: sharedReadModel()) and no static site, or
   * 'built': the sample site and its read model, built once per test process under the
   * environment's SITE_URL (test/helpers/built-site.ts).
   */
  fixture?: ReadModelFixture | 'built';
  /** Environment over those defaults (RATE_LIMIT_ANONYMOUS, TRUST_PROXY, SITE_URL, REDIS_URL…). */
  env?: Record<string, string>;
  /** A store the caller owns and closes (so several servers can share it). */
  store?: Store;
  /** A model the caller owns and closes, opened once for many servers (opening one takes a few hundred ms). */
  model?: ModelHolder;
  /** The clock of the store (when the server makes it), the tokens and the quotas. */
  clock?: C;
  /** Also receives every log line; error causes are kept in `logged` either way. */
  log?: Logger;
  /** SITE_URL is the listening origin, so every URL the server prints can be fetched as printed. */
  siteUrlIsOrigin?: boolean;
  /** The content operations it serves (all of server/operations unless given). */
  operations?: readonly Operation[];
}

export interface TestServer<C extends Clock = Clock> {
  /** http://127.0.0.1:<port>: where it listens (SITE_URL only with `siteUrlIsOrigin`). */
  origin: string;
  /** origin + /wp-json/agentes/v1 */
  base: string;
  config: Config;
  store: Store;
  /** Issues real tokens on the server's store. */
  tokens: TokenService;
  model: ModelHolder;
  clock: C;
  /** Causes the server logged as errors (500s, outages). */
  logged: unknown[];
  running: RunningServer;
  close(): Promise<void>;
}

// No static site under a fixture: what no route answers is a JSON 404, whatever dist/ holds.
const NO_SITE = path.join(os.tmpdir(), 'agentes-no-dist');

async function contentEnv(fixture: TestServerOptions['fixture']): Promise<Record<string, string>> {
  if (fixture === 'built') {
    await builtReadModel();
    const built = parseConfig();
    return { SITE_URL: built.siteUrl, READ_MODEL_DIR: built.readModelDir, DIST_DIR: built.distDir };
  }
  const rm = fixture ?? await sharedReadModel();
  return { SITE_URL: rm.siteUrl, READ_MODEL_DIR: rm.dir, DIST_DIR: NO_SITE };
}

export async function startTestServer<C extends Clock = Clock>(options: TestServerOptions<C> = {}): Promise<TestServer<C>> {
  refuseInUnitTier('A test server');
  const clock = (options.clock ?? Date.now) as C;
  const logged: unknown[] = [];
  const log: Logger = {
    info: (message, fields) => options.log?.info(message, fields),
    error: (message, cause) => { logged.push(cause); options.log?.error(message, cause); },
  };
  // The tests reach it at 127.0.0.1, which a fixture's SITE_URL does not name (net/host.ts).
  const base = { ...await contentEnv(options.fixture), HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'silent', READ_MODEL_WATCH: 'off', ALLOWED_HOSTS: '127.0.0.1' };
  // A probed port can be taken by another process before the bind: try a few.
  for (let attempt = 0; ; attempt++) {
    const port = options.siteUrlIsOrigin ? await freePort() : 0;
    const own = port ? { PORT: String(port), SITE_URL: `http://127.0.0.1:${port}` } : {};
    const config = parseConfig({ ...base, ...own, ...options.env });
    try {
      const running = await startServer(config, { clock, log, store: options.store, model: options.model, operations: options.operations });
      const store = running.deps.store;
      return {
        origin: running.url,
        base: running.url + API_BASE,
        config,
        store,
        tokens: running.deps.tokens,
        model: running.deps.model,
        clock,
        logged,
        running,
        // The server closes the store and model it made, not the ones it was given.
        close: () => running.close(0),
      };
    } catch (err) {
      if (!port || (err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 4) throw err;
    }
  }
}

/** `fn` with a server of `options`, closed afterwards whatever happens. */
export async function withTestServer<T>(options: TestServerOptions, fn: (server: TestServer) => Promise<T>): Promise<T> {
  const server = await startTestServer(options);
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}
