/**
 * What a response is counted under, kept on the response itself: when metrics are on, Node makes
 * every response of the main listener as a `LabelledResponse` (main.ts), so labelling costs a
 * field write and nothing at all when they are off (the response is a plain one and is left alone).
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';

/**
 * Node makes a response with its request and its response options. The fields are set in the
 * constructor rather than declared with initializers, and nothing is spread: each response of a
 * metered listener is made through this (BENCHMARKS.md, note 20).
 */
export class LabelledResponse<Req extends http.IncomingMessage = http.IncomingMessage> extends http.ServerResponse<Req> {
  /** When Node made the response, right after the request's headers were read. */
  readonly startedAt: number;
  /** Set by a transport that knows the operation from the body (MCP); REST's is read from the URL. */
  operation: string | null;

  constructor(req: Req, options?: object) {
    // @ts-expect-error Node passes its response options (highWaterMark…) as a second argument.
    super(req, options);
    this.startedAt = performance.now();
    this.operation = null;
  }
}

export function labelOperation(res: http.ServerResponse, name: string): void {
  if (res instanceof LabelledResponse) res.operation = name;
}

/**
 * The operation of an MCP message: the tool of a `tools/call`, otherwise the JSON-RPC method
 * (`batch` for a batch). Unbounded as it comes from the client; the metrics keep only known values.
 */
export function mcpOperationOf(message: unknown): string {
  if (Array.isArray(message)) return 'batch';
  if (typeof message !== 'object' || message === null) return 'other';
  const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
  if (method === 'tools/call' && typeof params?.name === 'string') return params.name;
  return typeof method === 'string' ? method : 'other';
}
