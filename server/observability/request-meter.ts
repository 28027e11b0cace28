/**
 * Counts every response of the main listener and times it from the moment Node made it to its
 * `end()`: `agentes_requests_total{transport,operation,status}` and
 * `agentes_request_duration_seconds{transport,operation}`. Label values are bounded: the content
 * operations by name, MCP's known methods, the named machine endpoints, and one value for
 * everything else (`site`, `unknown`, `other`), so no URL, client id or query becomes a label.
 *
 * Cost per response: a clock read at each end, one URL classification, a map lookup and a few
 * field increments; BENCHMARKS.md holds the metrics-on rows to the bare node:http baseline.
 */
import type http from 'node:http';
import { performance } from 'node:perf_hooks';
import { Counter, type Metric, type Registry } from 'prom-client';
import { DISCOVERY_PATHS } from '../discovery/links.ts';
import type { Operation } from '../operations/operation.ts';
import {
  API_BASE, AUTHORIZE_PATH, HEALTH_PATH, IDENTITY_PATH, INTROSPECT_PATH, MCP_PATH, READY_PATH, REGISTER_PATH, REVOKE_PATH, TOKEN_PATH,
} from '../paths.ts';
import type { Labelled } from './operation-label.ts';
import { memoize } from '../memo.ts';

/** Request targets remembered with their cell (URLs of the site's pages come and go through it). */
const TARGETS = 1024;

/** MCP methods counted by name; tool calls are counted by tool. */
const MCP_METHODS = [
  'initialize', 'ping', 'tools/list', 'resources/list', 'resources/read', 'resources/templates/list', 'server/discover',
  'notifications/initialized', 'notifications/cancelled', 'batch',
];

const WEB_PATHS: ReadonlyArray<readonly [string, string]> = [
  [REGISTER_PATH, 'oauth_register'], [TOKEN_PATH, 'oauth_token'], [REVOKE_PATH, 'oauth_revoke'],
  [INTROSPECT_PATH, 'oauth_introspect'], [AUTHORIZE_PATH, 'oauth_authorize'], [IDENTITY_PATH, 'agent_identity'],
  [HEALTH_PATH, 'healthz'], [READY_PATH, 'readyz'],
  ...Object.values(DISCOVERY_PATHS).filter((p) => p.startsWith('/')).map((p) => [p, 'discovery'] as const),
];

/** Latency buckets, seconds: the API answers in tens of microseconds to a few milliseconds. */
const BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

export interface RequestMeterOptions {
  registry: Registry;
  operations: readonly Operation[];
  /** Told of every answer, with its labels (the metrics derive OAuth and quota counts from some). */
  answered?: (transport: string, operation: string, status: number) => void;
}

/**
 * One transport and operation: its responses by status and its latency histogram, counted in
 * plain fields on the hot path and handed to prom-client when scraped. prom-client's own
 * `observe` and `inc` build and check a label key per call, a cost per response that plain
 * field increments do not have.
 */
interface Cell {
  labels: { transport: string; operation: string };
  /** Responses by status: counted, and already added to the prom-client counter. */
  byStatus: Map<number, { count: number; exported: number }>;
  /** Observations per bucket (not cumulative); the last slot is above every bound. */
  buckets: Float64Array;
  sum: number;
  count: number;
}

/** Makes a listener's response class metered: every response it makes is counted when it ends. */
export type Meter = <T extends typeof http.ServerResponse>(Base: T) => T;

export function createRequestMeter(options: RequestMeterOptions): Meter {
  const cells = new Map<string, Cell>();
  new Counter({
    name: 'agentes_requests_total',
    help: 'Responses sent, by transport (rest, mcp, web), operation and HTTP status.',
    labelNames: ['transport', 'operation', 'status'] as const,
    registers: [options.registry],
    collect() {
      for (const cell of cells.values()) {
        for (const [status, n] of cell.byStatus) {
          if (n.count === n.exported) continue;
          this.inc({ ...cell.labels, status: String(status) }, n.count - n.exported);
          n.exported = n.count;
        }
      }
    },
  });
  options.registry.registerMetric(histogramOf(cells) as unknown as Metric);

  const restOps = new Map(options.operations.map((op) => [op.path, op.name]));
  const mcpOps = new Set([...options.operations.map((op) => op.name), ...MCP_METHODS]);
  const webPaths = new Map(WEB_PATHS);
  const { answered } = options;

  const cellOf = (transport: string, operation: string): Cell => {
    const key = transport + ' ' + operation;
    let cell = cells.get(key);
    if (cell === undefined) {
      cell = { labels: { transport, operation }, byStatus: new Map(), buckets: new Float64Array(BUCKETS.length + 1), sum: 0, count: 0 };
      cells.set(key, cell);
    }
    return cell;
  };
  // Every operation's series are there from the start, at zero until it is called.
  for (const name of restOps.values()) cellOf('rest', name);

  const restOperation = (path: string): string => {
    if (path.length <= API_BASE.length + 1 || path.charCodeAt(API_BASE.length) !== 47 /* / */) return 'unknown';
    const end = path.charCodeAt(path.length - 1) === 47 ? path.length - 1 : path.length;
    return restOps.get(path.slice(API_BASE.length + 1, end)) ?? 'unknown';
  };

  /** A request target's cell, or null for MCP's endpoint, whose operation is in the body. */
  const cellOfTarget = memoize((url: string): Cell | null => {
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    if (path.startsWith(API_BASE)) {
      return cellOf('rest', restOperation(path));
    }
    if (path === MCP_PATH) return null;
    return cellOf('web', webPaths.get(path) ?? (path.startsWith('/.well-known/') ? 'discovery' : 'site'));
  }, TARGETS);

  const record = (res: http.ServerResponse & Labelled) => {
    const seconds = (performance.now() - res.startedAt) / 1000;
    let cell = cellOfTarget(res.req.url ?? '/');
    if (cell === null) cell = cellOf('mcp', res.operation === null ? 'none' : mcpOps.has(res.operation) ? res.operation : 'other');
    const status = res.statusCode;
    let i = 0;
    while (i < BUCKETS.length && seconds > BUCKETS[i]!) i++;
    cell.buckets[i]!++;
    cell.sum += seconds;
    cell.count++;
    let n = cell.byStatus.get(status);
    if (n === undefined) cell.byStatus.set(status, n = { count: 0, exported: 0 });
    n.count++;
    answered?.(cell.labels.transport, cell.labels.operation, status);
  };

  /**
   * `Base` made metered: one class level more, not two (each level is a constructor call per
   * response). Its constructor takes Node's two arguments (the implicit one spreads them) and
   * sets the fields itself.
   */
  return (Base) => class MeteredResponse<Req extends http.IncomingMessage = http.IncomingMessage>
    extends (Base as typeof http.ServerResponse)<Req> implements Labelled {
    readonly startedAt: number;
    operation: string | null;

    constructor(req: Req, options?: object) {
      // @ts-expect-error Node passes its response options (highWaterMark…) as a second argument.
      super(req, options);
      this.startedAt = performance.now();
      this.operation = null;
    }

    // Not `...args`: a rest array per response is measurable on the hot path.
    override end(a?: any, b?: any, c?: any): this {
      if (!this.writableEnded) record(this);
      return super.end(a, b, c);
    }
  } as unknown as typeof Base;
}

/**
 * `agentes_request_duration_seconds` as a prom-client metric: the registry asks each of its
 * metrics for `get()`, in the shape its own histograms give (MetricObjectWithValues), and formats
 * the text; this one reads the cells.
 */
function histogramOf(cells: ReadonlyMap<string, Cell>) {
  const name = 'agentes_request_duration_seconds';
  const help = 'Time from the request read to its response ended, by transport and operation.';
  const get = async () => {
    const values: Array<{ labels: Record<string, string | number>; value: number; metricName: string }> = [];
    for (const cell of cells.values()) {
      let cumulative = 0;
      for (let i = 0; i < BUCKETS.length; i++) {
        cumulative += cell.buckets[i]!;
        values.push({ labels: { ...cell.labels, le: BUCKETS[i]! }, value: cumulative, metricName: `${name}_bucket` });
      }
      values.push({ labels: { ...cell.labels, le: '+Inf' }, value: cell.count, metricName: `${name}_bucket` });
      values.push({ labels: cell.labels, value: cell.sum, metricName: `${name}_sum` });
      values.push({ labels: cell.labels, value: cell.count, metricName: `${name}_count` });
    }
    return { name, help, type: 'histogram', aggregator: 'sum', values };
  };
  return {
    name, help, type: 'histogram', aggregator: 'sum', get,
    reset() {
      for (const cell of cells.values()) { cell.buckets.fill(0); cell.sum = 0; cell.count = 0; }
    },
  };
}
