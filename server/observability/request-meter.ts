/**
 * Counts every response of the main listener and times it from the moment Node made it to its
 * `end()`: `agentes_requests_total{transport,operation,status}` and
 * `agentes_request_duration_seconds{transport,operation}`. Label values are bounded: the labels
 * of the front door's table (routes/table.ts: the content operations by name, the named machine
 * endpoints, `site`, `unknown`) and MCP's known methods (`other` for the rest), so no URL, client
 * id or query becomes a label.
 *
 * Cost per response: a clock read at each end, a map lookup by the request's match and a few
 * field increments.
 */
import type http from 'node:http';
import { performance } from 'node:perf_hooks';
import { Counter, type Metric, type Registry } from 'prom-client';
import type { Operation } from '../operations/operation.ts';
import type { RouteLabel, Routed, RouteTable } from '../routes/table.ts';
import type { Labelled } from './operation-label.ts';

/** MCP methods counted by name; tool calls are counted by tool. */
const MCP_METHODS = [
  'initialize', 'ping', 'tools/list', 'resources/list', 'resources/read', 'resources/templates/list', 'server/discover',
  'notifications/initialized', 'notifications/cancelled', 'batch',
];

/** Latency buckets, seconds: the API answers in tens of microseconds to a few milliseconds. */
const BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

export interface RequestMeterOptions {
  registry: Registry;
  operations: readonly Operation[];
  /**
   * The front door's table: a response carries its request's match, except one answered before
   * the match was made (a refused `Expect`, a Host refused on an absolute-form target).
   */
  routes: () => RouteTable;
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

  const mcpOps = new Set([...options.operations.map((op) => op.name), ...MCP_METHODS]);
  const { answered, routes } = options;

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
  for (const op of options.operations) cellOf('rest', op.name);
  const byLabel = new Map<RouteLabel, Cell>();

  /** A label's cell, or null for MCP's, whose operation is in the body. */
  const cellOfLabel = (label: RouteLabel): Cell | null => {
    if (label.operation === null) return null;
    let cell = byLabel.get(label);
    if (cell === undefined) byLabel.set(label, cell = cellOf(label.transport, label.operation));
    return cell;
  };

  const record = (res: http.ServerResponse & Labelled & Partial<Routed>) => {
    const seconds = (performance.now() - res.startedAt) / 1000;
    let cell = cellOfLabel((res.route ?? routes().match(res.req.url ?? '/')).label);
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
