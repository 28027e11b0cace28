/**
 * Shared pieces of the MCP tests: the official SDK's clients of both generations on a test
 * server, a JSON-RPC message POSTed as a client sends it, and the checks every tool result must
 * pass.
 *
 * The generations: SDK 1.x (`@modelcontextprotocol/sdk`, `initialize`, revision 2025-11-25) and
 * SDK 2.x (`@modelcontextprotocol/client`, pinned to the stateless revision 2026-07-28: no
 * `initialize`, server/discover, the version in each request's `_meta`).
 */
import * as assert from 'uvu/assert';
import Ajv2020Module from 'ajv/dist/2020.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import * as v2 from '@modelcontextprotocol/client';
import { request, type RawResponse } from '../../helpers/http.ts';
import type { TestServer } from '../../helpers/server.ts';

export const MCP_ACCEPT = 'application/json, text/event-stream';

export interface Captured {
  /** Every response the client's transport received, in order (method, URL, status, headers). */
  responses: { method: string; url: string; status: number; headers: Headers }[];
  /** The last response to a POST on /mcp. */
  lastMcp(): { status: number; headers: Headers };
}

/** A client generation under test: its name, the revision it speaks, its OAuth provider. */
export interface Generation {
  sdk: 1 | 2;
  name: string;
  revision: string;
  credentials(options: { clientId: string; clientSecret: string; expectedIssuer: string }): OAuthClientProvider;
}
export const GENERATIONS: readonly Generation[] = [
  { sdk: 1, name: 'SDK 1.x client, 2025-11-25', revision: '2025-11-25', credentials: (o) => new ClientCredentialsProvider(o) },
  { sdk: 2, name: 'SDK 2.x client, 2026-07-28', revision: '2026-07-28', credentials: (o) => new v2.ClientCredentialsProvider(o) as unknown as OAuthClientProvider },
];

/** What the tests use of a client; both generations have it. */
export type McpClient = Pick<Client, 'listTools' | 'callTool' | 'readResource' | 'listResources' | 'listResourceTemplates' | 'getServerCapabilities' | 'getServerVersion' | 'getInstructions' | 'close'>;

/**
 * An SDK client over Streamable HTTP (SDK 1.x unless `sdk: 2`). `site` (default: the listening
 * origin) is the address the client believes it talks to: the fetch passed to the transport sends
 * every request for it to the test server instead, so SITE_URL-based discovery documents resolve,
 * and records each response.
 */
export async function connectClient(api: TestServer, options: { sdk?: 1 | 2; headers?: Record<string, string>; authProvider?: OAuthClientProvider; site?: string } = {}) {
  const site = options.site ?? api.origin;
  const captured: Captured = {
    responses: [],
    lastMcp() {
      const r = captured.responses.filter((x) => x.method === 'POST' && new URL(x.url).pathname === '/mcp').at(-1);
      if (!r) throw new Error('no POST /mcp yet');
      return r;
    },
  };
  const fetchVia: typeof fetch = async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    const target = url.startsWith(site) ? api.origin + url.slice(site.length) : url;
    const res = await fetch(target, init);
    captured.responses.push({ method: init?.method ?? 'GET', url, status: res.status, headers: res.headers });
    return res;
  };
  const transportOptions = {
    fetch: fetchVia,
    ...(options.authProvider ? { authProvider: options.authProvider } : {}),
    ...(options.headers ? { requestInit: { headers: options.headers } } : {}),
  };
  const clientInfo = { name: 'agentes-tests', version: '1.0.0' };
  if (options.sdk === 2) {
    const transport = new v2.StreamableHTTPClientTransport(new URL(`${site}/mcp`), transportOptions as v2.StreamableHTTPClientTransportOptions);
    const client = new v2.Client(clientInfo, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(transport);
    return { client: client as unknown as McpClient, captured, protocolVersion: () => client.getNegotiatedProtocolVersion() };
  }
  const transport = new StreamableHTTPClientTransport(new URL(`${site}/mcp`), transportOptions);
  const client = new Client(clientInfo);
  await client.connect(transport);
  return { client: client as McpClient, captured, protocolVersion: () => transport.protocolVersion };
}

/** A JSON-RPC message POSTed as an MCP client does (both media types accepted, JSON body). */
export function rpc(api: TestServer, message: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  return request(`${api.origin}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: MCP_ACCEPT, 'mcp-protocol-version': '2025-11-25', ...headers },
    body: JSON.stringify(message),
  });
}

let ids = 0;
export const toolCall = (name: string, args: Record<string, unknown> = {}) =>
  ({ jsonrpc: '2.0', id: ++ids, method: 'tools/call', params: { name, arguments: args } });

// CommonJS with a `default` export; under ESM the class is the module itself (as test/helpers/validate-response.ts does).
const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module) as typeof Ajv2020Module;
const ajv = new Ajv2020({ strict: true, allErrors: true });
const validators = new Map<string, ReturnType<typeof ajv.compile>>();

/** A successful result: structuredContent valid against the tool's outputSchema, and the same JSON as the first text block. */
export function assertStructured(tool: Tool, result: CallToolResult): Record<string, unknown> {
  assert.not.ok(result.isError, `${tool.name}: ${JSON.stringify(result.content).slice(0, 300)}`);
  assert.ok(result.structuredContent, `${tool.name}: structuredContent`);
  let validate = validators.get(tool.name);
  if (!validate) validators.set(tool.name, (validate = ajv.compile(tool.outputSchema!)));
  assert.ok(validate(result.structuredContent), `${tool.name}: ${ajv.errorsText(validate.errors)}`);
  const first = result.content[0];
  assert.is(first?.type, 'text');
  assert.equal(JSON.parse((first as { text: string }).text), result.structuredContent, `${tool.name}: the text block is the same JSON`);
  return result.structuredContent!;
}

/** A tool error: `isError`, one text block matching `pattern`. */
export function assertToolError(result: CallToolResult, pattern: RegExp): string {
  assert.is(result.isError, true, JSON.stringify(result).slice(0, 300));
  assert.is(result.structuredContent, undefined);
  const text = (result.content[0] as { text: string }).text;
  assert.match(text, pattern);
  return text;
}
