/**
 * The whole server (server/main.ts `startServer`) on a free port whose address is also its
 * SITE_URL, so every URL the discovery documents print can be fetched as printed. Over the
 * shared read-model fixture (or a given one) and the in-memory store. Close it in `finally`.
 */
import os from 'node:os';
import path from 'node:path';
import { parseConfig, type Config } from '../../../server/config.ts';
import { startServer, type RunningServer } from '../../../server/main.ts';
import { sharedReadModel, type ReadModelFixture } from '../../helpers/read-model.ts';
import { freePort } from '../../helpers/port.ts';

export interface Site {
  /** http://127.0.0.1:<port>, equal to config.siteUrl. */
  origin: string;
  config: Config;
  running: RunningServer;
  close(): Promise<void>;
}

export async function startSite(env: Record<string, string> = {}, fixture?: ReadModelFixture): Promise<Site> {
  const rm = fixture ?? await sharedReadModel();
  // Another process may take the probed port between probe and bind: try a few.
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const config = parseConfig({
      SITE_URL: origin,
      PORT: String(port),
      HOST: '127.0.0.1',
      READ_MODEL_DIR: rm.dir,
      // No built site: unmatched paths get the JSON 404.
      DIST_DIR: path.join(os.tmpdir(), 'agentes-no-dist'),
      LOG_LEVEL: 'silent',
      ...env,
    });
    try {
      const running = await startServer(config);
      return { origin, config, running, close: () => running.close(1000) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 4) throw err;
    }
  }
}
