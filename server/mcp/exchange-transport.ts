/**
 * One HTTP exchange of the 2025 revisions (Streamable HTTP, stateless, JSON responses) as an SDK
 * `Transport`: the answers of the SDK's own WebStandardStreamableHTTPServerTransport in JSON mode
 * (406, 415, -32700, -32600, 400 for an unknown MCP-Protocol-Version, 202 when nothing needs an
 * answer), checked against it message by message in test/server/mcp/exchange-transport.test.ts.
 * It reads the Node request's headers and answers a status and a body, without the Web
 * Request/Response pair and its streams, and without a zod pass over a message whose shape
 * plainly fits JSON-RPC: together most of the SDK's own cost per call.
 */
import type { IncomingHttpHeaders } from 'node:http';
import {
  isInitializeRequest, isJSONRPCRequest, isJsonContentType, parseJSONRPCMessage,
  type JSONRPCMessage, type MessageExtraInfo, type RequestId, type Transport,
} from '@modelcontextprotocol/server';
import { MCP_BATCH_REPLY_LIMIT } from './limits.ts';
import { jsonRpcErrorBody, SERVER_ERROR, transportErrorBody } from './json-rpc-errors.ts';

/** What to send back: a status and a JSON body, or none (202). */
export interface ExchangeAnswer {
  status: number;
  body: string | null;
}

/** The SDK transport's limit on a batch. */
const MAX_BATCH_SIZE = 100;

const refusal = (status: number, code: number, message: string): ExchangeAnswer =>
  ({ status, body: transportErrorBody(code, message) });

const NOT_ACCEPTABLE = refusal(406, SERVER_ERROR, 'Not Acceptable: Client must accept both application/json and text/event-stream');
const UNSUPPORTED_TYPE = refusal(415, SERVER_ERROR, 'Unsupported Media Type: Content-Type must be application/json');
const BAD_JSON = refusal(400, -32700, 'Parse error: Invalid JSON');
const NOT_JSON_RPC = refusal(400, -32700, 'Parse error: Invalid JSON-RPC message');
const BATCH_TOO_LARGE = refusal(400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`);
const TWO_INITIALIZE = refusal(400, -32600, 'Invalid Request: Only one initialization request is allowed');
const ACCEPTED: ExchangeAnswer = { status: 202, body: null };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * 'request' or 'notification' when `m` surely passes the SDK's JSON-RPC schema as one (only the
 * four envelope keys, an integer or string id, params an object without `_meta`); undefined
 * means "let the schema decide".
 */
function plainKind(m: unknown): 'request' | 'notification' | undefined {
  if (!isObject(m) || m.jsonrpc !== '2.0' || typeof m.method !== 'string') return undefined;
  for (const key in m) if (key !== 'jsonrpc' && key !== 'id' && key !== 'method' && key !== 'params') return undefined;
  const { params } = m;
  if (params !== undefined && !(isObject(params) && params._meta === undefined)) return undefined;
  if (!('id' in m)) return 'notification';
  return typeof m.id === 'string' || Number.isSafeInteger(m.id) ? 'request' : undefined;
}

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
};

/** A batch's answers as one JSON array, each answer past MCP_BATCH_REPLY_LIMIT replaced by an error. */
function batchBody(responses: readonly JSONRPCMessage[]): string {
  const whole = JSON.stringify(responses);
  // A UTF-8 byte is at least a third of a UTF-16 unit: most batches are settled without a scan.
  if (whole.length * 3 <= MCP_BATCH_REPLY_LIMIT || Buffer.byteLength(whole) <= MCP_BATCH_REPLY_LIMIT) return whole;
  let bytes = 2;
  const parts = responses.map((r) => {
    const part = JSON.stringify(r);
    const size = Buffer.byteLength(part) + 1;
    if (bytes + size <= MCP_BATCH_REPLY_LIMIT) {
      bytes += size;
      return part;
    }
    return jsonRpcErrorBody((r as { id: RequestId }).id, SERVER_ERROR, `Server error: the batch's answers pass ${MCP_BATCH_REPLY_LIMIT} bytes; send this request alone.`);
  });
  return '[' + parts.join(',') + ']';
}

export class ExchangeTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  private supported: string[] = [];
  /** The requests still waiting for their response, in the order they came; then their responses. */
  private readonly pending = new Map<RequestId, JSONRPCMessage | null>();
  private finish?: (answer: ExchangeAnswer) => void;

  async start(): Promise<void> {}
  async close(): Promise<void> {
    this.onclose?.();
  }
  setSupportedProtocolVersions(versions: string[]): void {
    this.supported = versions;
  }

  /** The exchange: the message parsed from the body already, or the body as it came when it is not JSON. */
  handle(headers: IncomingHttpHeaders, checked: { message: unknown } | { body: Buffer }): Promise<ExchangeAnswer> | ExchangeAnswer {
    const accept = header(headers, 'accept');
    if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return NOT_ACCEPTABLE;
    if (!isJsonContentType(header(headers, 'content-type') ?? null)) return UNSUPPORTED_TYPE;
    if (!('message' in checked)) return BAD_JSON;
    const raw = checked.message;
    if (Array.isArray(raw) && raw.length > MAX_BATCH_SIZE) return BATCH_TOO_LARGE;

    const messages: JSONRPCMessage[] = [];
    const requests: boolean[] = [];
    for (const m of Array.isArray(raw) ? raw : [raw]) {
      const kind = plainKind(m);
      if (kind !== undefined) {
        messages.push(m as JSONRPCMessage);
        requests.push(kind === 'request');
        continue;
      }
      try {
        const parsed = parseJSONRPCMessage(m);
        messages.push(parsed);
        requests.push(isJSONRPCRequest(parsed));
      } catch {
        return NOT_JSON_RPC;
      }
    }
    const initializing = messages.some((m) => 'method' in m && m.method === 'initialize' && isInitializeRequest(m));
    if (initializing && messages.length > 1) return TWO_INITIALIZE;
    if (!initializing) {
      const version = header(headers, 'mcp-protocol-version');
      if (version !== undefined && !this.supported.includes(version)) {
        return refusal(400, SERVER_ERROR, `Bad Request: Unsupported protocol version: ${version} (supported versions: ${this.supported.join(', ')})`);
      }
    }

    if (!requests.includes(true)) {
      for (const m of messages) this.onmessage?.(m);
      return ACCEPTED;
    }
    return new Promise((resolve) => {
      this.finish = resolve;
      messages.forEach((m, i) => { if (requests[i]) this.pending.set((m as { id: RequestId }).id, null); });
      for (const m of messages) this.onmessage?.(m);
    });
  }

  /** Responses are kept until every request of the exchange has one; anything else has no stream to go on. */
  async send(message: JSONRPCMessage): Promise<void> {
    if (!('result' in message) && !('error' in message)) return;
    const id = message.id as RequestId;
    if (!this.pending.has(id) || this.finish === undefined) throw new Error(`No connection established for request ID: ${String(id)}`);
    this.pending.set(id, message);
    const responses = [...this.pending.values()];
    if (responses.includes(null)) return;
    this.pending.clear();
    this.finish({ status: 200, body: responses.length === 1 ? JSON.stringify(responses[0]) : batchBody(responses as JSONRPCMessage[]) });
  }
}
