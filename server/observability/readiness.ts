/**
 * What GET /readyz answers: whether this process can serve, from state it already holds (the
 * read model in memory, the quota store's last reported state, the quota counter's mode), so a
 * load balancer may ask every second.
 *
 * - draining (SIGTERM: in-flight requests finish, then the process exits) → 503 `draining`, so a
 *   load balancer that probes over a kept-alive connection stops sending before it is closed;
 * - no read model loaded → 503 `unavailable`: the content operations have nothing to answer from;
 * - Redis not connected, its circuit breaker open, or quotas counted in this process → 200
 *   `degraded`: content keeps answering with per-process quotas (stores/fallback.ts) while tokens
 *   and OAuth answer 503, and every process shares the same Redis, so taking them all out of the
 *   pool would turn a partial outage into a whole one;
 * - otherwise 200 `ready`.
 */
import type { ModelHolder, LoadedModel } from '../read-model/types.ts';
import type { RedisState, StoreState } from './store-state.ts';

export interface ReadinessDeps {
  model: ModelHolder;
  storeState: StoreState;
  /** Whether quota hits are being counted in this process only (stores/fallback.ts). */
  countingLocally(): boolean;
  /** Whether the process is draining before it exits. */
  draining(): boolean;
}

export interface Readiness {
  status: 'ready' | 'degraded' | 'draining' | 'unavailable';
  read_model: { loaded: true; build_id: string; created_at: string; pages: number } | { loaded: false };
  quota_store:
    | { kind: 'memory' }
    | { kind: 'redis'; counting: 'shared' | 'local'; connections: Array<{ holds: RedisState['holds']; connected: boolean; breaker_open: boolean }> };
}

/** The model held now, or null while none is loaded. */
function loadedModel(model: ModelHolder): LoadedModel | null {
  try {
    return model.current() ?? null;
  } catch {
    return null;
  }
}

export function readiness(deps: ReadinessDeps): { httpStatus: 200 | 503; body: Readiness } {
  const model = loadedModel(deps.model);
  const redis = deps.storeState.redis();
  const local = deps.countingLocally();
  const quota_store: Readiness['quota_store'] = redis.length === 0
    ? { kind: 'memory' }
    : {
        kind: 'redis',
        counting: local ? 'local' : 'shared',
        connections: redis.map((r) => ({ holds: r.holds, connected: r.connected, breaker_open: r.breakerOpen })),
      };
  const read_model: Readiness['read_model'] = model
    ? { loaded: true, build_id: model.manifest.build_id, created_at: model.manifest.created_at, pages: model.pages.length }
    : { loaded: false };
  const degraded = local || redis.some((r) => !r.connected || r.breakerOpen);
  const status = deps.draining() ? 'draining' : !model ? 'unavailable' : degraded ? 'degraded' : 'ready';
  return { httpStatus: status === 'ready' || status === 'degraded' ? 200 : 503, body: { status, read_model, quota_store } };
}
