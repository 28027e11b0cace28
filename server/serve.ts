/**
 * What `npm start` runs once index.ts has its SIGHUP listener in place: config from the
 * environment, build when missing, serve, drain on SIGTERM/SIGINT (in-flight requests finish,
 * then exit 0), load a newly published read model on SIGHUP (besides watching `current`, unless
 * READ_MODEL_WATCH=off).
 */
import { onReloadSignal } from './reload-signal.ts';
import { parseConfig } from './config.ts';
import { ensureBuilt } from './ensure-built.ts';
import { createLogger } from './log.ts';
import { startServer } from './main.ts';

const config = parseConfig();
const log = createLogger(config.logLevel);
ensureBuilt(config);
const running = await startServer(config, { log });
log.info('listening', {
  url: running.url, site: config.siteUrl,
  store: config.redisCluster ? 'redis cluster' : config.redisSentinel ? 'redis sentinel' : config.redisUrl ? 'redis' : 'memory',
  ...(running.metricsUrl ? { metrics: `${running.metricsUrl}/metrics` } : {}),
});

let stopping = false;
const servedBuild = () => running.deps.model.current().manifest.build_id;
onReloadSignal(() => {
  if (stopping) return;
  running.reloadModel().then(
    (swapped) => { if (!swapped) log.info('read model unchanged', { build_id: servedBuild() }); },
    (err) => log.error(`new read model not loaded; still serving build ${servedBuild()}`, err),
  );
});

const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  log.info('draining', { signal });
  running.close().then(
    () => process.exit(0),
    (err) => { log.error('shutdown failed', err); process.exit(1); },
  );
};
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
// Told last: a supervisor may send SIGTERM or SIGHUP the moment it hears, and both must be heard.
if (process.send) process.send({ ready: true, url: running.url });
