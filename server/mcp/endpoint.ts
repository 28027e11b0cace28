/**
 * POST {site_url}/mcp — the MCP endpoint (Streamable HTTP, revision 2025-11-25; conformance.md §9),
 * stateless (no Mcp-Session-Id) with JSON responses. Every request, in this order:
 *
 *   1. API-Version, CORS (any origin: no cookies, public data) and `Cache-Control: no-store`;
 *   2. an `Origin` that is not a page of this site (net/host.ts) → 403, so a page elsewhere cannot
 *      drive a local server through the browser (MCP transports, "Security Warning"); OPTIONS →
 *      preflight 204; any method other than POST → 405 `Allow: POST` (a GET would open an SSE
 *      stream, which a stateless server has nothing to send on);
 *   3. the bearer check shared with the REST API (auth/bearer.ts): no token is anonymous; a
 *      bad token goes through the pipeline's admission (counted on its IP's anonymous window, so
 *      token guessing is throttled as in REST) and is answered 401 with `resource_metadata`
 *      naming the MCP resource's metadata;
 *   4. the body, at most MCP_BODY_LIMIT bytes (413 beyond), checked against the revisions this
 *      endpoint speaks (revisions.ts: versions, batches);
 *   5. the SDK's own transport and a fresh low-level `Server` for this request (the SDK's stateless
 *      pattern): it answers 406 (Accept), 415 (Content-Type), -32700 (bad JSON), 202 (notifications),
 *      `initialize` and `tools/list`, and hands each `tools/call` to `callTool`;
 *   6. `callTool`: unknown tool → JSON-RPC -32602; else the operation's call goes through the
 *      pipeline shared with REST (server/pipeline: the same windows, headers, scopes, parameter
 *      checks and operation code); over the quota → a tool error saying how long to wait and how
 *      to raise the quota, and the HTTP answer becomes 429 with Retry-After; any other refusal
 *      (a parameter, a page that does not exist, a missing scope) → `isError` saying what to do.
 * The site's pages are resources too (resources.ts): resources/read is read_page through the same
 * pipeline, counted the same way. `initialize`, `tools/list`, the resource lists and notifications
 * are not counted: they read nothing of the pages and a host sends them on every connection.
 * While the quota store is down, quotas are counted per process (stores/fallback.ts, shared with
 * REST) and a token, which cannot be checked, gets 503 with Retry-After.
 *
 * The low-level `Server` is used rather than `McpServer` because McpServer answers an unknown tool
 * with an `isError` result (the specification asks for -32602), converts the zod schemas on every
 * tools/list, and validates arguments with zod's English messages. The web-standard transport is
 * used directly (not its Node wrapper) so the status can become 429 after the tool has run.
 *
 * Building the Server and transport per request is cheap beside a tools/call once the validator
 * is shared (below), so the per-request pattern is kept.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  ErrorCode, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema,
  type CallToolRequest, type CallToolResult, type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { z } from 'zod';
import type { AppDeps } from '../app.ts';
import { links } from '../discovery/links.ts';
import { ApiError, API_CODES, methodNotAllowed, PROTOCOL_CODES } from '../errors.ts';
import { createHostPolicy } from '../net/host.ts';
import { bearerChallenges, readCredential, type Credential } from '../auth/bearer.ts';
import { readBody } from '../http/body.ts';
import { writeCors } from '../http/cors.ts';
import { remainingOf, retryAfterSeconds, type QuotaState } from '../quota/headers.ts';
import { setHeaders } from '../http/header-list.ts';
import { versionHeaderList } from '../api-headers.ts';
import type { Operation } from '../operations/operation.ts';
import { createPipeline, newCall, type Call, type Outcome } from '../pipeline/index.ts';
import { instructions, serverInfo } from './identity.ts';
import { sendJsonRpcError } from './http-errors.ts';
import { errorText, toolErrorOf, toolResult } from './results.ts';
import { listPages, pageTemplate, readTarget, resourceResult } from './resources.ts';
import { toolOf } from './tools.ts';
import { asksForResources, checkMessage } from './revisions.ts';
import { sendJson } from '../http/json.ts';

import { MCP_PATH } from '../paths.ts';

/** A tools/call is a few hundred bytes; initialize a few KB. 64 KB leaves room for any host. */
export const MCP_BODY_LIMIT = 64 * 1024;

/** `_meta` key of the rate-limit state on every counted tool result (for hosts; the model gets the text). */
export const RATELIMIT_META = 'agentes/ratelimit';

const ALLOW = 'POST';
const PREFLIGHT_HEADERS = 'Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID';
/** The request headers the SDK transport reads. */
const FORWARDED = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'] as const;

/**
 * A JSON-RPC error for the SDK to send: it uses `code` and `message` as they are (an McpError
 * would prefix "MCP error -32602:" to the message, and the SDK client prefixes it again).
 */
const rpcError = (code: number, message: string) => Object.assign(new Error(message), { code });
/** MCP's code for a resource that does not exist ("Resources › Error Handling"). */
const RESOURCE_NOT_FOUND = -32002;
/** JSON-RPC server error: a used-up window, a store outage. */
const SERVER_ERROR = -32000;

/**
 * tools/call as the SDK's Protocol layer parses it before any handler: only its method, every
 * field kept. The Server then checks the request against CallToolRequestSchema and answers a
 * mismatch (`arguments` not an object, `name` not a string) with -32602 Invalid params; given the
 * strict schema here, the Protocol would answer the same mistake with -32603 Internal error.
 */
const ToolsCallMethod = z.looseObject({ method: z.literal('tools/call') });

/** What the tool calls of one HTTP request share with the HTTP answer. */
interface RequestState {
  req: IncomingMessage;
  res: ServerResponse;
  credential: Extract<Credential, { kind: 'none' | 'token' }>;
  /** Set when a call found its quota used up: the answer becomes 429 with this Retry-After. */
  retryAfter: number | null;
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
};


export function createMcpHandler(deps: AppDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { config, log } = deps;
  const l = links(config);
  const challenges = bearerChallenges(config.siteUrl, l.protectedResourceMcp);
  // Tool arguments are JSON already: the schema checks them as they are.
  const pipeline = createPipeline(deps, { challenges, collect: (_op, raw) => raw as Record<string, unknown> });
  const operations = new Map(deps.operations.map((op) => [op.name, op]));
  const toolList = { tools: deps.operations.map((op) => toolOf(op, l)) };
  const toolNames = [...operations.keys()].join(', ');
  const info = serverInfo(config);
  // Pages are resources when read_page is served: resources/read is that operation.
  const readPage = operations.get('read_page');
  const templates = { resourceTemplates: [pageTemplate(l)] };
  const serverOptions = {
    capabilities: { tools: { listChanged: false }, ...(readPage ? { resources: { listChanged: false } } : {}) },
    instructions: instructions(config),
    // One validator for the process: the SDK would otherwise build an Ajv instance per Server.
    jsonSchemaValidator: new AjvJsonSchemaValidator(),
  };
  const versionHeaders = versionHeaderList(config);
  const hosts = createHostPolicy(config);
  const foreignOrigin = new ApiError(403, PROTOCOL_CODES.forbiddenOrigin, 'Origen no permitido.',
    `Solo las páginas de ${config.siteUrl} pueden llamar a este servidor MCP desde un navegador.`);
  const lowQuota = (q: QuotaState) => remainingOf(q) <= Math.max(1, Math.floor(q.limit / 10));
  const { identified, windowSeconds } = config.rateLimit;

  /** One operation call of this HTTP request: its headers on the answer; a used-up window makes the answer a 429. */
  const runCall = async (state: RequestState, call: Call): Promise<Outcome> => {
    try {
      const outcome = await pipeline.call(call);
      if (outcome instanceof ApiError) state.retryAfter = Math.max(state.retryAfter ?? 0, retryAfterSeconds(call.quota!));
      return outcome;
    } finally {
      setHeaders(state.res, call.headers);
    }
  };
  /** A thrown value that is not the family's (or came before the count): logged, and a plain -32603. */
  const internal = (what: string, err: unknown) => {
    log.error(`mcp ${what} failed`, err);
    return rpcError(ErrorCode.InternalError, 'Error interno del servidor.');
  };
  const rateMeta = (quota: QuotaState) =>
    ({ [RATELIMIT_META]: { policy: quota.policy, limit: quota.limit, remaining: remainingOf(quota), reset_seconds: quota.resetSeconds } });

  const callTool = async (state: RequestState, request: CallToolRequest): Promise<CallToolResult> => {
    const { name } = request.params;
    const op = operations.get(name);
    if (!op) throw rpcError(ErrorCode.InvalidParams, `Herramienta desconocida: ${name}. Herramientas disponibles: ${toolNames}.`);

    const call = newCall(op, state.req, state.credential, request.params.arguments ?? {});
    let result: CallToolResult;
    try {
      const outcome = await runCall(state, call);
      // The window is used up: a tool error for the model, a 429 for the host.
      if (outcome instanceof ApiError) return toolErrorOf(outcome, call, l);
      result = toolResult(outcome);
    } catch (err) {
      if (!(err instanceof ApiError) || call.quota === null) throw internal(`tool ${name}`, err);
      result = toolErrorOf(err, call, l);
    }

    const quota = call.quota!;
    const remaining = remainingOf(quota);
    // Hosts often hide HTTP headers: when the window is nearly used up, the model is told too.
    const content = lowQuota(quota) && !result.isError
      ? [...result.content, {
          type: 'text' as const,
          text: `Aviso de cuota: quedan ${remaining} de ${quota.limit} llamadas en esta ventana; se reinicia en ${quota.resetSeconds} s.`
            + (quota.policy === 'anonimo' ? ` Con un token gratuito (POST ${l.register}) la cuota sube a ${identified} cada ${windowSeconds} s.` : ''),
        }]
      : result.content;
    return { ...result, content, _meta: rateMeta(quota) };
  };

  /** resources/read: read_page for the page the URI names, counted and refused as read_page. */
  const readResource = async (state: RequestState, op: Operation, uri: string): Promise<ReadResourceResult> => {
    const target = readTarget(uri);
    if (!target) throw rpcError(ErrorCode.InvalidParams, `URI no válida: ${uri}. Use la URL de una página de ${config.siteUrl}; para una parte, ?offset=N.`);
    const call = newCall(op, state.req, state.credential, target);
    let outcome: Outcome;
    try {
      outcome = await runCall(state, call);
    } catch (err) {
      if (!(err instanceof ApiError) || call.quota === null) throw internal('resources/read', err);
      const code = err.code === API_CODES.pageNotFound ? RESOURCE_NOT_FOUND : err.status === 400 ? ErrorCode.InvalidParams : SERVER_ERROR;
      throw rpcError(code, errorText(err, call, l));
    }
    if (outcome instanceof ApiError) throw rpcError(SERVER_ERROR, errorText(outcome, call, l));
    return { ...resourceResult(uri, outcome), _meta: rateMeta(call.quota!) };
  };

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const origin = req.headers.origin;
    if (origin !== undefined && !hosts.allowsOrigin(origin)) throw foreignOrigin;
    if (req.method === 'OPTIONS') {
      res.statusCode = 204;
      res.setHeader('Access-Control-Allow-Methods', ALLOW);
      res.setHeader('Access-Control-Allow-Headers', PREFLIGHT_HEADERS);
      res.setHeader('Access-Control-Max-Age', '86400');
      res.end();
      return;
    }
    if (req.method !== 'POST') throw methodNotAllowed(ALLOW);

    const credential = await readCredential(req, deps.tokens, challenges);
    if (credential.kind === 'invalid') {
      // Counted on the IP's window, then its 401 (or 503) is thrown, unless the window was used up.
      const call = newCall(null, req, credential, undefined);
      try {
        const refusal = await pipeline.admit(call);
        setHeaders(res, call.headers);
        sendJsonRpcError(res, refusal, log);
      } catch (err) {
        setHeaders(res, call.headers);
        throw err;
      }
      return;
    }
    const checked = checkMessage(await readBody(req, MCP_BODY_LIMIT), header(req, 'mcp-protocol-version'));
    if ('refusal' in checked) {
      const { status, id, code, message } = checked.refusal;
      sendJson(res, status, JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }));
      return;
    }

    const state: RequestState = { req, res, credential, retryAfter: null };
    const server = new Server(info, serverOptions);
    server.setRequestHandler(ListToolsRequestSchema, () => toolList);
    // The Server checks the request against CallToolRequestSchema before this handler runs.
    server.setRequestHandler(ToolsCallMethod, (request) => callTool(state, request as unknown as CallToolRequest));
    if (readPage && 'message' in checked && asksForResources(checked.message)) {
      server.setRequestHandler(ListResourceTemplatesRequestSchema, () => templates);
      server.setRequestHandler(ListResourcesRequestSchema, (request) => {
        const list = listPages(deps.model.current(), request.params?.cursor);
        if (list === null) throw rpcError(ErrorCode.InvalidParams, 'Cursor no válido: use el nextCursor de la respuesta anterior.');
        return list;
      });
      server.setRequestHandler(ReadResourceRequestSchema, (request) => readResource(state, readPage, request.params.uri));
    }
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: MCP_BODY_LIMIT,
    });
    try {
      await server.connect(transport);
      const headers = new Headers();
      for (const name of FORWARDED) {
        const value = req.headers[name];
        if (typeof value === 'string') headers.set(name, value);
      }
      // The message was parsed once, by the revision check; a body that is not JSON goes as it came.
      const response = 'message' in checked
        ? await transport.handleRequest(new Request(config.siteUrl + MCP_PATH, { method: 'POST', headers }), { parsedBody: checked.message })
        : await transport.handleRequest(new Request(config.siteUrl + MCP_PATH, { method: 'POST', headers, body: checked.body as unknown as BodyInit }));
      const out = Buffer.from(await response.arrayBuffer());
      response.headers.forEach((value, name) => { res.setHeader(name, value); });
      res.statusCode = response.status;
      if (state.retryAfter !== null) {
        res.statusCode = 429;
        res.setHeader('Retry-After', state.retryAfter);
      }
      if (response.status !== 202) res.setHeader('Content-Length', out.length);
      res.end(out);
    } finally {
      await server.close();
    }
  };

  return async (req, res) => {
    setHeaders(res, versionHeaders);
    writeCors(res);
    res.setHeader('Cache-Control', 'no-store');
    try {
      await serve(req, res);
    } catch (err) {
      sendJsonRpcError(res, err, log);
    }
  };
}
