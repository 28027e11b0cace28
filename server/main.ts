/**
 * Composition root: builds every dependency from one Config and starts the HTTP server.
 * Tests call `startServer` with port 0; `server/index.ts` is the process entry.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from './config.ts';
import { createApp, type AppDeps } from './app.ts';
import { createLogger, type Logger } from './log.ts';
import { sendError } from './http/error-response.ts';
import type { Store } from './stores/types.ts';
import { createStore } from './stores/index.ts';
import { coalesceHits } from './stores/coalesce-hits.ts';
import { withFallback } from './stores/fallback.ts';
import { createMemoryStore } from './stores/memory.ts';
import type { ModelHolder } from './read-model/types.ts';
import { openModel } from './read-model/holder.ts';
import { createTokenService } from './auth/tokens.ts';
import { createTokenMemory } from './auth/remembered-tokens.ts';
import { createApiHandler } from './rest/handler.ts';
import { OPERATIONS } from './operations/index.ts';
import type { Operation } from './operations/operation.ts';
import { endOfTurn } from './end-of-turn.ts';
import { oauthRoutes } from './routes/oauth/index.ts';
import { identityRoute } from './routes/identity.ts';
import { discoveryRoutes } from './routes/discovery.ts';
import { mcpRoute } from './routes/mcp.ts';
import { siteFallback } from './routes/site.ts';
import { searchPageRoute } from './routes/search-page.ts';
import { answerClientErrors, createHostCheck } from './http/client-errors.ts';
import { createHostPolicy } from './net/host.ts';
import { createMetrics } from './observability/metrics.ts';
import { startMetricsListener } from './observability/listener.ts';
import type { ReadinessDeps } from './observability/readiness.ts';
import { createStoreState } from './observability/store-state.ts';
import { createProbes } from './routes/health.ts';
import { createRouteTable, type RouteHandler, type RouteKind, type RouteMatch, type Routed, type RouteTable } from './routes/table.ts';

export interface StartOptions {
  store?: Store;
  clock?: () => number;
  log?: Logger;
  model?: ModelHolder & { close?(): Promise<void>; reload?(): Promise<boolean> };
  /** The content operations; all of operations/index.ts unless given. */
  operations?: readonly Operation[];
}

export interface RunningServer {
  /** Where the server listens, e.g. http://127.0.0.1:40123 (not SITE_URL). */
  url: string;
  /** Where the metrics listener listens (METRICS_PORT), or null without one. */
  metricsUrl: string | null;
  server: http.Server;
  deps: AppDeps;
  /** Loads the read-model build `current` names now (SIGHUP); true when a new one was swapped in. */
  reloadModel(): Promise<boolean>;
  /**
   * Stops accepting, drains in-flight requests (up to `graceMs`), then releases the store and
   * model. While draining, answers carry `Connection: close` and connections are closed as soon
   * as they are idle, so keep-alive clients move to another process.
   */
  close(graceMs?: number): Promise<void>;
}

/**
 * Bounds that keep slow or idle clients from holding the server (slowloris, idle floods): the
 * header section must arrive within headersMs of the connection (or of the previous answer on
 * a kept-alive one), the whole request within requestMs; both are checked every checkMs (Node's
 * default, 30 s, would let a trickling client hold a connection for 40 s).
 */
export const TIMEOUTS = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000, checkMs: 1_000 };
const DRAIN_SWEEP_MS = 50;

export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const log = options.log ?? createLogger(config.logLevel);
  const clock = options.clock ?? Date.now;
  const operations = options.operations ?? OPERATIONS;
  // Metrics and readiness read the same state, once the store and the model exist.
  const metrics = config.metrics ? createMetrics({ operations, routes: () => routes, state: () => state, clock }) : null;
  const storeState = createStoreState({ roundTrip: metrics?.redisRoundTrip });
  const shared = options.store ?? (await createStore(config, { log, clock, observe: storeState.observe }));
  // The store stack, composed once: hits of one key go to a shared store together
  // (coalesce-hits.ts), and the quota windows count in this process while it cannot answer (fallback.ts).
  const store = coalesceHits(shared);
  const quotaCounter = withFallback({ primary: store, fallback: createMemoryStore({ clock }), log, clock, observer: metrics?.fallback });
  // What the caller passed in, the caller owns and closes; the rest is closed here, also when the start fails.
  const closeOwnStore = async () => { if (!options.store) await store.close(); };
  let model: NonNullable<StartOptions['model']>;
  try {
    model = options.model ?? (await openModel(config, log, { watch: config.readModelWatch, ...(metrics ? { observer: metrics.readModel } : {}) }));
  } catch (err) {
    await closeOwnStore();
    throw err;
  }
  const closeOwned = async () => {
    if (!options.model) await model.close?.();
    await closeOwnStore();
  };
  let draining = false;
  const state: ReadinessDeps = { model, storeState, countingLocally: () => quotaCounter.local, draining: () => draining };
  const tokens = createTokenService({ store, config, clock, memory: createTokenMemory(clock), ...(metrics ? { observer: metrics.tokens } : {}) });
  const deps: AppDeps = { config, log, store, quotaCounter, tokens, model, clock, metrics, operations: metrics ? metrics.meterOperations(operations) : operations };

  const app = createApp(deps, [oauthRoutes, identityRoute, discoveryRoutes, mcpRoute, searchPageRoute], siteFallback(deps));
  const routes: RouteTable = createRouteTable({ operations: deps.operations });
  const web = (req: http.IncomingMessage, res: http.ServerResponse) => {
    try {
      app.handler(req as never, res);
    } catch (err) {
      sendError(res, err, log);
    }
  };
  const probes = createProbes({ ...state, log });
  // The API is the hot path: it is answered without the router, and at the end of the loop's
  // I/O phase, with the other requests that phase read.
  const api = endOfTurn(createApiHandler(deps));
  const handlers: Record<RouteKind, RouteHandler> = {
    probe: probes, rest: api, mcp: web, oauth: web, identity: web, discovery: web, site: web,
  };
  const refusedForHost = createHostCheck(createHostPolicy(config));
  /** While draining, every answer (those in flight at the signal included) says `Connection: close`. */
  class DrainingResponse<Req extends http.IncomingMessage = http.IncomingMessage> extends http.ServerResponse<Req> implements Routed {
    route: RouteMatch | null;

    // A constructor of its own: the implicit one spreads its arguments.
    constructor(req: Req, options?: object) {
      // @ts-expect-error Node passes its response options (highWaterMark…) as a second argument.
      super(req, options);
      this.route = null;
    }

    // Not `...args`: a rest array per response is measurable on the hot path.
    override writeHead(a?: any, b?: any, c?: any): this {
      if (draining) this.shouldKeepAlive = false;
      return (super.writeHead as (...x: unknown[]) => this)(a, b, c);
    }
  }
  /**
   * An absolute-form target (`GET http://host/path`) is checked on its authority and turned to
   * origin form by the Host check, then matched; probes answer only their origin-form path.
   */
  const absoluteForm = (req: http.IncomingMessage, res: DrainingResponse) => {
    if (refusedForHost(req, res)) return;
    const route = routes.match(req.url ?? '/');
    res.route = route;
    handlers[route.hostChecked ? route.kind : 'site'](req, res, route);
  };
  const Response = metrics ? metrics.meter(DrainingResponse) : DrainingResponse;
  const server = http.createServer({ connectionsCheckingInterval: TIMEOUTS.checkMs, requireHostHeader: false, ServerResponse: Response }, (req, res) => {
    const url = req.url ?? '/';
    if (url.charCodeAt(0) !== 47 /* / */) { absoluteForm(req, res); return; }
    const route = routes.match(url);
    res.route = route;
    if (route.hostChecked && refusedForHost(req, res)) return;
    handlers[route.kind](req, res, route);
  });
  server.headersTimeout = TIMEOUTS.headersMs;
  server.requestTimeout = TIMEOUTS.requestMs;
  server.keepAliveTimeout = TIMEOUTS.keepAliveMs;
  answerClientErrors(server);

  let metricsListener: Awaited<ReturnType<typeof startMetricsListener>> | null;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => { server.off('error', reject); resolve(); });
    });
    metricsListener = metrics && config.metrics
      ? await startMetricsListener({ registry: metrics.registry, host: config.metrics.host, port: config.metrics.port, log })
      : null;
  } catch (err) {
    server.close();
    await closeOwned();
    throw err;
  }
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;

  let closing: Promise<void> | null = null;
  const close = (graceMs = 10_000) => (closing ??= (async () => {
    draining = true;
    const metricsClosed = metricsListener?.close();
    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    // A kept-alive connection turns idle when its in-flight answer is sent: close it then.
    const sweep = setInterval(() => server.closeIdleConnections(), DRAIN_SWEEP_MS);
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    await drained;
    await metricsClosed;
    clearInterval(sweep);
    clearTimeout(timer);
    await closeOwned();
  })());

  const reloadModel = () => (model.reload ? model.reload() : Promise.resolve(false));
  return { url: `http://${host}:${port}`, metricsUrl: metricsListener?.url ?? null, server, deps, reloadModel, close };
}
