/**
 * App composition: one Polka app, routes registered by concern. Errors from any route reach
 * `sendError` through Polka's onError, and unmatched requests fall through to the static site.
 */
import polka, { type Polka } from 'polka';
import type { Config } from './config.ts';
import type { Logger } from './log.ts';
import type { Store } from './stores/types.ts';
import type { TokenVerifier } from './auth/types.ts';
import type { ModelHolder } from './read-model/types.ts';
import { sendError } from './errors.ts';

export interface AppDeps {
  config: Config;
  log: Logger;
  store: Store;
  tokens: TokenVerifier;
  model: ModelHolder;
  /** Injected clock (ms since epoch) for tests of expiry. */
  clock: () => number;
}

export type Route = (app: Polka, deps: AppDeps) => void;

export function createApp(deps: AppDeps, routes: readonly Route[]): Polka {
  const app = polka({
    onError: (err, _req, res) => sendError(res, err, deps.log),
  });
  for (const register of routes) register(app, deps);
  return app;
}
