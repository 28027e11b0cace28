/**
 * The whole server (server/main.ts `startServer`) on an ephemeral port, over a read-model
 * fixture, with a real store (memory by default, Redis when given) and the real token service.
 * Close it in `finally`.
 */
import { createTokenService, type TokenService } from '../../server/auth/tokens.ts';
import { parseConfig, type Config } from '../../server/config.ts';
import { createLogger, type Logger } from '../../server/log.ts';
import { startServer } from '../../server/main.ts';
import { openModel, type OpenedModel } from '../../server/read-model/holder.ts';
import { API_BASE } from '../../server/paths.ts';
import { createMemoryStore } from '../../server/stores/memory.ts';
import type { Store } from '../../server/stores/types.ts';
import type { Operation } from '../../server/operations/operation.ts';
import type { ReadModelFixture } from './read-model.ts';

export interface ApiServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** origin + /wp-json/agentes/v1 */
  base: string;
  config: Config;
  store: Store;
  /** Issues real tokens on the server's store (the OAuth token service, stateless over it). */
  tokens: TokenService;
  model: OpenedModel;
  /** Causes the server logged as errors (500s, outages). */
  logged: unknown[];
  close(): Promise<void>;
}

export interface ApiServerOptions {
  fixture: ReadModelFixture;
  /** Extra environment (RATE_LIMIT_ANONYMOUS, TRUST_PROXY, API_DEPRECATED_AT…). */
  env?: Record<string, string>;
  /** A store the caller owns (e.g. Redis); an in-memory one otherwise. */
  store?: Store;
  clock?: () => number;
  /** The content operations to serve (all of server/operations unless given). */
  operations?: readonly Operation[];
}

export async function startApi(options: ApiServerOptions): Promise<ApiServer> {
  const config = parseConfig({
    SITE_URL: options.fixture.siteUrl,
    READ_MODEL_DIR: options.fixture.dir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    ...options.env,
  });
  const clock = options.clock ?? Date.now;
  const logged: unknown[] = [];
  const log: Logger = { info: () => {}, error: (_m, cause) => { logged.push(cause); } };
  const store = options.store ?? createMemoryStore({ clock });
  const model = await openModel(config, createLogger('silent'), { watch: false });
  const running = await startServer(config, { store, clock, log, model, ...(options.operations ? { operations: options.operations } : {}) });
  return {
    origin: running.url,
    base: running.url + API_BASE,
    config,
    store,
    tokens: createTokenService({ store, config, clock }),
    model,
    logged,
    async close() {
      await running.close(0);
      await model.close();
      if (!options.store) await store.close();
    },
  };
}
