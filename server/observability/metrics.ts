/**
 * The Prometheus metrics of one server process (prom-client), served by the metrics listener
 * (listener.ts) when METRICS_PORT is set. Names follow Prometheus conventions (`agentes_` prefix,
 * `_total` counters, base units), and every label value comes from a fixed set.
 *
 * Counted where things happen, through the observer options of the parts (the store's Redis,
 * the read-model holder, the token service, the quota step) and the response class
 * (request-meter.ts); states (read model, Redis connection, circuit breaker, per-process quota
 * fallback) are read when scraped, from what readiness reads too.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { OpenModelOptions } from '../read-model/holder.ts';
import type { TokenServiceOptions } from '../auth/tokens.ts';
import type { Operation, OperationResult } from '../operations/operation.ts';
import type { QuotaPolicy } from '../../formats/schemas/resources.ts';
import type { Holds } from '../stores/index.ts';
import type { FallbackOptions } from '../stores/fallback.ts';
import { LIMITS } from '../auth/oauth-limits.ts';
import type { ReadinessDeps } from './readiness.ts';
import { createRequestMeter, type Meter } from './request-meter.ts';
import type { RouteTable } from '../routes/table.ts';

export interface MetricsOptions {
  /** The content operations served (their names bound the `operation` label). */
  operations: readonly Operation[];
  /** The front door's table, once it exists (the request meter reads its labels). */
  routes: () => RouteTable;
  /** What is read when scraped: the server's model, store state and quota counter, once they exist. */
  state: () => ReadinessDeps;
  /** Clock of the read model's age (ms since the epoch). */
  clock?: () => number;
}

export interface Metrics {
  registry: Registry;
  /** Makes the main listener's response class metered: it counts and times every response (request-meter.ts). */
  meter: Meter;
  quotaRefused(policy: QuotaPolicy): void;
  redisRoundTrip(holds: Holds, seconds: number): void;
  tokens: NonNullable<TokenServiceOptions['observer']>;
  fallback: NonNullable<FallbackOptions['observer']>;
  readModel: NonNullable<OpenModelOptions['observer']>;
  /** `operations` with search_pages counting the queries that found nothing. */
  meterOperations(operations: readonly Operation[]): readonly Operation[];
}

const OAUTH_POLICIES: Record<string, string> = {
  oauth_register: LIMITS.register.name,
  oauth_token: LIMITS.token.name,
  oauth_revoke: LIMITS.manage.name,
  oauth_introspect: LIMITS.manage.name,
};
const POLICIES = ['anonimo', 'identificado', ...new Set(Object.values(OAUTH_POLICIES))];

/** Round trips to Redis on loopback take tens of microseconds; a hung one, up to the store's bound (~1 s). */
const REDIS_BUCKETS = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

export function createMetrics(options: MetricsOptions): Metrics {
  const registry = new Registry();
  const registers = [registry];
  const clock = options.clock ?? Date.now;
  collectDefaultMetrics({ register: registry });

  const refusals = new Counter({ name: 'agentes_quota_refusals_total', help: 'Requests refused for a used-up window (429), by quota policy.', labelNames: ['policy'] as const, registers });
  // Every policy shown from the start, at 0; children bound once (the 429 path is hot under abuse).
  const refusalOf = new Map(POLICIES.map((policy) => [policy, refusals.labels(policy)]));
  for (const child of refusalOf.values()) child.inc(0);
  const registrations = new Counter({ name: 'agentes_oauth_registrations_total', help: 'OAuth clients registered (POST /oauth/register answered 201).', registers });
  const issued = new Counter({ name: 'agentes_oauth_tokens_issued_total', help: 'Access tokens issued.', registers });
  const revoked = new Counter({ name: 'agentes_oauth_tokens_revoked_total', help: 'Live access tokens revoked by their client.', registers });
  const refused = new Counter({ name: 'agentes_oauth_tokens_refused_total', help: 'Access tokens presented (bearer, revocation, introspection) that were unknown, expired or revoked.', registers });

  const meter = createRequestMeter({
    registry,
    operations: options.operations,
    routes: options.routes,
    answered: (transport, operation, status) => {
      if (transport !== 'web') return;
      if (status === 201 && operation === 'oauth_register') registrations.inc();
      else if (status === 429 && OAUTH_POLICIES[operation] !== undefined) refusalOf.get(OAUTH_POLICIES[operation]!)!.inc();
    },
  });

  const roundTrip = new Histogram({ name: 'agentes_redis_round_trip_seconds', help: 'Time from a command sent to Redis to its answer, by what that Redis holds.', labelNames: ['redis'] as const, buckets: REDIS_BUCKETS, registers });
  const roundTrips = new Map<Holds, { observe(seconds: number): void }>();
  const redisGauge = (name: string, help: string, value: (r: ReturnType<ReadinessDeps['storeState']['redis']>[number]) => boolean) =>
    new Gauge({
      name, help, labelNames: ['redis'] as const, registers,
      collect() {
        for (const r of options.state().storeState.redis()) this.labels(r.holds).set(value(r) ? 1 : 0);
      },
    });
  redisGauge('agentes_redis_connected', '1 while the connection to Redis is ready, by what that Redis holds.', (r) => r.connected);
  redisGauge('agentes_redis_circuit_breaker_open', '1 while commands fail fast after one missed its deadline, by what that Redis holds.', (r) => r.breakerOpen);
  new Gauge({
    name: 'agentes_quota_fallback_active', help: '1 while quotas are counted in this process because the shared store is unavailable.', registers,
    collect() { this.set(options.state().countingLocally() ? 1 : 0); },
  });
  const countedLocally = new Counter({ name: 'agentes_quota_fallback_hits_total', help: 'Requests counted on a quota window in this process because the shared store was unavailable.', registers });

  const swaps = new Counter({ name: 'agentes_read_model_swaps_total', help: 'New read-model builds swapped in while serving.', registers });
  const failedLoads = new Counter({ name: 'agentes_read_model_load_failures_total', help: 'Loads of a new read-model build that failed (the previous one kept serving).', registers });
  const current = () => { try { return options.state().model.current() ?? null; } catch { return null; } };
  new Gauge({
    name: 'agentes_read_model_info', help: 'The read-model build served (value 1), by build id.', labelNames: ['build_id'] as const, registers,
    collect() {
      this.reset();
      const model = current();
      if (model) this.labels(model.manifest.build_id).set(1);
    },
  });
  new Gauge({
    name: 'agentes_read_model_age_seconds', help: 'Seconds since the read-model build served was created.', registers,
    collect() {
      const model = current();
      if (model) this.set(Math.max(0, (clock() - Date.parse(model.manifest.created_at)) / 1000));
    },
  });
  new Gauge({
    name: 'agentes_read_model_pages', help: 'Pages in the read-model build served.', registers,
    collect() { this.set(current()?.pages.length ?? 0); },
  });

  const noResults = new Counter({ name: 'agentes_search_no_results_total', help: 'search_pages calls (REST and MCP) that found no page.', registers });
  const countEmpty = (result: OperationResult): OperationResult => {
    if ('value' in result && (result.value as { total?: number }).total === 0) noResults.inc();
    return result;
  };

  return {
    registry,
    meter,
    quotaRefused: (policy) => refusalOf.get(policy)!.inc(),
    redisRoundTrip(holds, seconds) {
      let child = roundTrips.get(holds);
      if (child === undefined) roundTrips.set(holds, child = roundTrip.labels(holds));
      child.observe(seconds);
    },
    tokens: { issued: () => issued.inc(), revoked: () => revoked.inc(), refused: () => refused.inc() },
    fallback: { countedLocally: () => countedLocally.inc() },
    readModel: { swapped: () => swaps.inc(), failed: () => failedLoads.inc() },
    meterOperations: (operations) => operations.map((op) => (op.name !== 'search_pages' ? op : {
      ...op,
      run: (input, ctx) => {
        const out = op.run(input, ctx);
        return out instanceof Promise ? out.then(countEmpty) : countEmpty(out);
      },
    })),
  };
}
