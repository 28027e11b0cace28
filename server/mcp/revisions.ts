/**
 * What the SDK's transports would let through but the revisions this endpoint speaks do not
 * (PROTOCOL_VERSIONS, the list the README and the server card give), checked on the body before
 * the SDK sees it:
 * - `initialize` with a `protocolVersion` that is not a string → -32602 naming the versions (the
 *   SDK would answer a zod dump as -32603); with a revision older than Streamable HTTP
 *   (2024-11-05), or the stateless one, which has no `initialize` → answered with the latest
 *   revision that has it, as the specification's negotiation says;
 * - an `MCP-Protocol-Version` header naming another revision → 400, as the SDK does for one it
 *   does not know;
 * - a JSON-RPC batch under 2025-06-18 or later, which removed batching → -32600;
 * - a batch of more than MCP_BATCH_LIMIT messages, or with one id twice (JSON-RPC gives no way to
 *   tell their answers apart) → -32600, before any of it runs.
 */
import { LATEST_PROTOCOL_VERSION, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { INITIALIZE_VERSIONS, PROTOCOL_VERSIONS, STATELESS_VERSION } from '../mcp-versions.ts';
import { MCP_BATCH_LIMIT } from './limits.ts';
import { SERVER_ERROR, type RequestId } from './json-rpc-errors.ts';

/** An answer in place of the SDK's: HTTP status and JSON-RPC error. */
export interface Refusal {
  status: number;
  id: RequestId;
  code: number;
  message: string;
}

/**
 * The parsed message to hand to the SDK (maybe with its requested revision replaced; parsed once,
 * here), the body as it came when it is not JSON (the SDK answers -32700), or a refusal.
 */
export type Checked = { message: unknown } | { body: Buffer } | { refusal: Refusal };

const VERSIONS = PROTOCOL_VERSIONS.join(', ');
const INITIALIZE = INITIALIZE_VERSIONS.join(', ');
const BATCHES_REMOVED = '2025-06-18';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The per-request `_meta` key of MCP 2026-07-28 that names the revision. */
const REVISION_META = 'io.modelcontextprotocol/protocolVersion';
const claimsRevision = (m: unknown): boolean =>
  isObject(m) && isObject(m.params) && isObject(m.params._meta) && REVISION_META in m.params._meta;

/** The first request id a batch repeats, if any (`1` and `"1"` are different ids). */
function repeatedId(batch: readonly unknown[]): string | number | undefined {
  const seen = new Set<unknown>();
  for (const m of batch) {
    if (!isObject(m) || typeof m.method !== 'string' || (typeof m.id !== 'string' && typeof m.id !== 'number')) continue;
    if (seen.has(m.id)) return m.id;
    seen.add(m.id);
  }
  return undefined;
}

export function checkMessage(body: Buffer, headerVersion: string | undefined): Checked {
  const unknownHeader = headerVersion !== undefined && !PROTOCOL_VERSIONS.includes(headerVersion);
  const unsupported: Checked = { refusal: { status: 400, id: null, code: SERVER_ERROR, message: `Bad Request: Unsupported protocol version: ${headerVersion} (supported versions: ${VERSIONS})` } };
  let message: unknown;
  try {
    message = JSON.parse(body.toString('utf8'));
  } catch {
    // The transport answers -32700, after its Accept and Content-Type checks.
    return unknownHeader ? unsupported : { body };
  }
  // A stateless request names its revision in `_meta` too: the SDK answers it (-32022, with the versions).
  if (unknownHeader && !claimsRevision(message)) return unsupported;
  if (Array.isArray(message)) {
    if (headerVersion !== undefined && headerVersion >= BATCHES_REMOVED) {
      return { refusal: { status: 400, id: null, code: ProtocolErrorCode.InvalidRequest, message: `Invalid Request: JSON-RPC batches are not part of MCP ${headerVersion}; send one message per request.` } };
    }
    if (message.length > MCP_BATCH_LIMIT) {
      return { refusal: { status: 400, id: null, code: ProtocolErrorCode.InvalidRequest, message: `Invalid Request: a batch carries at most ${MCP_BATCH_LIMIT} messages; send the rest in further requests.` } };
    }
    const twice = repeatedId(message);
    if (twice !== undefined) {
      return { refusal: { status: 400, id: null, code: ProtocolErrorCode.InvalidRequest, message: `Invalid Request: the id ${JSON.stringify(twice)} appears twice in the batch; give each request its own id.` } };
    }
    return { message };
  }
  // A stateless request's `initialize` is a method its revision removed: the SDK answers 404, -32601.
  if (!isObject(message) || message.method !== 'initialize' || !isObject(message.params) || claimsRevision(message)) return { message };
  const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null;
  const requested = message.params.protocolVersion;
  if (typeof requested !== 'string') {
    return { refusal: { status: 200, id, code: ProtocolErrorCode.InvalidParams, message: `Invalid params: protocolVersion must be one of ${INITIALIZE}; ${STATELESS_VERSION} has no initialize (server/discover, and the version in each request's _meta).` } };
  }
  if (INITIALIZE_VERSIONS.includes(requested)) return { message };
  // A revision this endpoint does not speak: offer the latest (the client may then disconnect).
  return { message: { ...message, params: { ...message.params, protocolVersion: LATEST_PROTOCOL_VERSION } } };
}

/**
 * True when `message` is surely one the SDK routes to its 2025 serving (its `isLegacyRequest`,
 * which is costly per call): a single JSON-RPC request or notification with no
 * revision claimed in `_meta` nor named by the header. False means "ask the SDK".
 */
export function surelyInitialized(message: unknown, headerVersion: string | undefined): boolean {
  if (headerVersion === STATELESS_VERSION || !isObject(message) || message.jsonrpc !== '2.0' || typeof message.method !== 'string') return false;
  const { id, params } = message;
  if (id !== undefined && typeof id !== 'string' && typeof id !== 'number') return false;
  if (params === undefined) return true;
  return isObject(params) && !(isObject(params._meta) && REVISION_META in params._meta);
}

/**
 * True when the SDK surely routes `message` to its stateless (2026-07-28) serving: a single
 * message with a method that claims a revision in `_meta` (the SDK's `isLegacyRequest` answers
 * false for every claim, and its handler classifies the message again anyway). False means "ask
 * the SDK".
 */
export function surelyStateless(message: unknown): boolean {
  return claimsRevision(message) && typeof (message as Record<string, unknown>).method === 'string'
    && !('result' in (message as object)) && !('error' in (message as object));
}

/** Whether `message` (one or a batch) asks about resources: only then are their handlers set up. */
export function asksForResources(message: unknown): boolean {
  const one = (m: unknown) => isObject(m) && typeof m.method === 'string' && m.method.startsWith('resources/');
  return Array.isArray(message) ? message.some(one) : one(message);
}
