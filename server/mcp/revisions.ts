/**
 * What the SDK's transport would let through but the revisions this endpoint speaks do not
 * (STREAMABLE_HTTP_VERSIONS, the list the README and the server card give), checked on the body
 * before the SDK sees it:
 * - `initialize` with a `protocolVersion` that is not a string → -32602 naming the versions (the
 *   SDK would answer a zod dump as -32603); with a revision older than Streamable HTTP
 *   (2024-11-05) → answered with the latest one, as the specification's negotiation says;
 * - an `MCP-Protocol-Version` header naming another revision → 400, as the SDK does for one it
 *   does not know;
 * - a JSON-RPC batch under 2025-06-18 or later, which removed batching → -32600.
 */
import { ErrorCode, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { STREAMABLE_HTTP_VERSIONS } from './identity.ts';

/** An answer in place of the SDK's: HTTP status and JSON-RPC error. */
export interface Refusal {
  status: number;
  id: string | number | null;
  code: number;
  message: string;
}

/**
 * The parsed message to hand to the SDK (maybe with its requested revision replaced; parsed once,
 * here), the body as it came when it is not JSON (the SDK answers -32700), or a refusal.
 */
export type Checked = { message: unknown } | { body: Buffer } | { refusal: Refusal };

const VERSIONS = STREAMABLE_HTTP_VERSIONS.join(', ');
const BATCHES_REMOVED = '2025-06-18';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function checkMessage(body: Buffer, headerVersion: string | undefined): Checked {
  if (headerVersion !== undefined && !STREAMABLE_HTTP_VERSIONS.includes(headerVersion)) {
    return { refusal: { status: 400, id: null, code: -32000, message: `Bad Request: Unsupported protocol version: ${headerVersion} (supported versions: ${VERSIONS})` } };
  }
  let message: unknown;
  try {
    message = JSON.parse(body.toString('utf8'));
  } catch {
    return { body }; // the SDK answers -32700
  }
  if (Array.isArray(message)) {
    if (headerVersion !== undefined && headerVersion >= BATCHES_REMOVED) {
      return { refusal: { status: 400, id: null, code: ErrorCode.InvalidRequest, message: `Invalid Request: JSON-RPC batches are not part of MCP ${headerVersion}; send one message per request.` } };
    }
    return { message };
  }
  if (!isObject(message) || message.method !== 'initialize' || !isObject(message.params)) return { message };
  const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null;
  const requested = message.params.protocolVersion;
  if (typeof requested !== 'string') {
    return { refusal: { status: 200, id, code: ErrorCode.InvalidParams, message: `Invalid params: protocolVersion must be one of ${VERSIONS}.` } };
  }
  if (STREAMABLE_HTTP_VERSIONS.includes(requested)) return { message };
  // A revision this endpoint does not speak: offer the latest (the client may then disconnect).
  return { message: { ...message, params: { ...message.params, protocolVersion: LATEST_PROTOCOL_VERSION } } };
}

/** Whether `message` (one or a batch) asks about resources: only then are their handlers set up. */
export function asksForResources(message: unknown): boolean {
  const one = (m: unknown) => isObject(m) && typeof m.method === 'string' && m.method.startsWith('resources/');
  return Array.isArray(message) ? message.some(one) : one(message);
}
