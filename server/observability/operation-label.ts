/**
 * What a response is counted under, kept on the response itself: when metrics are on, Node makes
 * every response of the main listener as a metered one (main.ts), so labelling costs a
 * field write and nothing at all when they are off (the response is a plain one and is left alone).
 */
import type http from 'node:http';

/** What a metered response carries besides Node's fields (request-meter.ts makes its class). */
export interface Labelled {
  /** When Node made the response, right after the request's headers were read. */
  readonly startedAt: number;
  /** Set by a transport that knows the operation from the body (MCP); REST's is read from the URL. */
  operation: string | null;
}

export function labelOperation(res: http.ServerResponse, name: string): void {
  if ('operation' in res) (res as http.ServerResponse & Labelled).operation = name;
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
