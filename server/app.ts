/**
 * App composition: one Polka app, routes registered by concern. Errors from any route reach
 * `sendError` through Polka's onError, and unmatched requests fall through to the static site.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import polka, { type Polka } from 'polka';
import type { Config } from './config.ts';
import type { Logger } from './log.ts';
import type { Store } from './stores/types.ts';
import type { QuotaCounter } from './stores/fallback.ts';
import type { TokenService } from './auth/tokens.ts';
import type { ModelHolder } from './read-model/types.ts';
import type { Operation } from './operations/operation.ts';
import type { Metrics } from './observability/metrics.ts';
import { sendError } from './http/error-response.ts';

export interface AppDeps {
  config: Config;
  log: Logger;
  store: Store;
  /** Where the quota windows count: `store` with its per-process fallback (composed in main.ts). */
  quotaCounter: QuotaCounter;
  tokens: TokenService;
  model: ModelHolder;
  /** The content operations, served over REST and MCP and described in /openapi.json (operations/index.ts). */
  operations: readonly Operation[];
  /** Injected clock (ms since epoch) for tests of expiry. */
  clock: () => number;
  /** The Prometheus metrics, when METRICS_PORT is set. */
  metrics: Metrics | null;
}

export type Route = (app: Polka, deps: AppDeps) => void;

export type Fallback = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * `fallback` answers what no route matched (the static site), so API requests never pay for
 * a file-system lookup.
 */
export function createApp(deps: AppDeps, routes: readonly Route[], fallback?: Fallback): Polka {
  const app = polka({
    onError: (err, _req, res) => sendError(res, err, deps.log),
    ...(fallback ? { onNoMatch: fallback } : {}),
  });
  for (const register of routes) register(app, deps);
  return app;
}

type Handler = (req: IncomingMessage & { query: Record<string, string | string[]>; path: string; params: Record<string, string> }, res: ServerResponse) => unknown;

/**
 * Wraps a route handler so a synchronous throw or a rejected promise reaches `sendError`:
 * Polka 0.5 catches neither, and an escaped error would end the process. Every route uses it.
 */
export function handle(deps: Pick<AppDeps, 'log'>, fn: Handler) {
  return (req: any, res: ServerResponse): void => {
    try {
      const out = fn(req, res) as Promise<unknown> | undefined;
      if (out && typeof out.then === 'function') out.then(undefined, (err) => sendError(res, err, deps.log));
    } catch (err) {
      sendError(res, err, deps.log);
    }
  };
}
