/**
 * The whole server over the built sample site (dist/client) and its read model, both built once
 * per test process by test/helpers/built-site.ts, on an ephemeral port with an in-memory store
 * (never a Redis the machine happens to run). SITE_URL is the one the site was built with, so
 * the read model's URLs are the site's own. Close it in `finally`.
 */
import { parseConfig, type Config } from '../../server/config.ts';
import { createLogger, type Logger } from '../../server/log.ts';
import { startServer } from '../../server/main.ts';
import { openModel, type OpenedModel } from '../../server/read-model/holder.ts';
import { createMemoryStore } from '../../server/stores/memory.ts';
import { builtReadModel } from '../helpers/built-site.ts';

export interface BuiltServer {
  /** http://127.0.0.1:<port> — where the server listens (not SITE_URL). */
  origin: string;
  config: Config;
  model: OpenedModel;
  /** Causes the server logged as errors. */
  logged: unknown[];
  close(): Promise<void>;
}

export async function startBuiltServer(env: Record<string, string> = {}): Promise<BuiltServer> {
  await builtReadModel();
  const config = parseConfig({ ...process.env, REDIS_URL: '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env });
  const logged: unknown[] = [];
  const log: Logger = { info: () => {}, error: (_m, cause) => { logged.push(cause); } };
  const store = createMemoryStore({ clock: Date.now });
  const model = await openModel(config, createLogger('silent'), { watch: false });
  const running = await startServer(config, { store, log, model });
  return {
    origin: running.url,
    config,
    model,
    logged,
    async close() {
      await running.close(0);
      await model.close();
      await store.close();
    },
  };
}
