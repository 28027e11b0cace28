/**
 * The MCP server of one HTTP exchange (the SDK's stateless pattern: a fresh low-level `Server` per
 * request, for every revision): tools/list, tools/call, and the page resources. A tools/call or a
 * resources/read is the operation's call through the pipeline shared with REST (server/pipeline:
 * the same windows, headers, scopes, parameter checks and operation code); over the quota → a
 * tool error saying how long to wait and how to raise the quota, and the HTTP answer becomes 429
 * with Retry-After; any other refusal (a parameter, a page that does not exist, a missing scope)
 * → `isError` saying what to do; an argument the tool does not declare → -32602. tools/list, the
 * resource lists and server/discover are not counted on that window (a host sends them on every
 * connection) but on the MCP message window, before the Server sees them (message-quota.ts).
 *
 * The low-level `Server` is used rather than `McpServer` because McpServer answers an unknown tool
 * with an `isError` result (the specification asks for -32602), converts the zod schemas on every
 * tools/list, and validates arguments with zod's English messages.
 *
 * 2026-07-28 results carry `ttlMs`/`cacheScope` (the SDK fills them from `cacheHints`): the same
 * lifetimes as the HTTP answers of the same data (http/cache-policy.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ProtocolErrorCode, ResourceNotFoundError, Server,
  type CacheHint, type CallToolRequest, type CallToolResult, type ReadResourceResult, type ServerOptions,
} from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import type { AppDeps } from '../app.ts';
import type { Credential } from '../auth/bearer.ts';
import type { Links } from '../discovery/links.ts';
import { ApiError, API_CODES } from '../errors.ts';
import { CONFIG_DOCUMENT_MAX_AGE, CONTENT_MAX_AGE, MODEL_DOCUMENT_MAX_AGE } from '../http/cache-policy.ts';
import { setHeaders } from '../http/header-list.ts';
import type { Operation } from '../operations/operation.ts';
import { newCall, type Call, type Outcome, type Pipeline } from '../pipeline/index.ts';
import { remainingOf, retryAfterSeconds, type QuotaState } from '../quota/headers.ts';
import { instructions, serverInfo } from './identity.ts';
import { PROTOCOL_VERSIONS } from '../mcp-versions.ts';
import { listPages, pageTemplate, readTarget, resourceResult } from './resources.ts';
import { errorText, toolErrorOf, toolResult } from './results.ts';
import { rpcError, SERVER_ERROR } from './json-rpc-errors.ts';
import { toolOf, UndeclaredArgument } from './tools.ts';

/** `_meta` key of the rate-limit state on every counted tool result (for hosts; the model gets the text). */
export const RATELIMIT_META = 'agentes/ratelimit';

/** What the calls of one HTTP request share with the HTTP answer. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  credential: Extract<Credential, { kind: 'none' | 'token' }>;
  /** Set when a call found its quota used up: the answer becomes 429 with this Retry-After. */
  retryAfter: number | null;
  /** Whether the message asks about resources: only then are their handlers set up. */
  resources: boolean;
}

const ms = (seconds: number) => seconds * 1000;
const hints = (read: CacheHint): Partial<Record<'tools/list' | 'resources/list' | 'resources/templates/list' | 'resources/read' | 'server/discover', CacheHint>> => ({
  'tools/list': { ttlMs: ms(CONFIG_DOCUMENT_MAX_AGE), cacheScope: 'public' },
  'resources/templates/list': { ttlMs: ms(CONFIG_DOCUMENT_MAX_AGE), cacheScope: 'public' },
  'server/discover': { ttlMs: ms(CONFIG_DOCUMENT_MAX_AGE), cacheScope: 'public' },
  'resources/list': { ttlMs: ms(MODEL_DOCUMENT_MAX_AGE), cacheScope: 'public' },
  'resources/read': read,
});
/** A page read with a token is the token holder's: a shared cache must not answer for its quota. */
const ANONYMOUS_HINTS = hints({ ttlMs: ms(CONTENT_MAX_AGE), cacheScope: 'public' });
const TOKEN_HINTS = hints({ ttlMs: ms(CONTENT_MAX_AGE), cacheScope: 'private' });

export function createServerFactory(deps: AppDeps, pipeline: Pipeline, l: Links): (exchange: Exchange) => Server {
  const { config, log } = deps;
  const operations = new Map(deps.operations.map((op) => [op.name, op]));
  const tools = deps.operations.map((op) => toolOf(op, l));
  const toolList = { tools };
  const outputSchemas = new Map(tools.map((t) => [t.name, t.outputSchema as Record<string, unknown> | undefined]));
  const toolNames = [...operations.keys()].join(', ');
  // Pages are resources when read_page is served: resources/read is that operation.
  const readPage = operations.get('read_page');
  const templates = { resourceTemplates: [pageTemplate(l)] };
  const validator = new AjvJsonSchemaValidator();
  const options = (cacheHints: ServerOptions['cacheHints']): ServerOptions => ({
    capabilities: { tools: { listChanged: false }, ...(readPage ? { resources: { listChanged: false } } : {}) },
    instructions: instructions(config),
    supportedProtocolVersions: [...PROTOCOL_VERSIONS],
    // One validator for the process: the SDK would otherwise build an Ajv instance per Server.
    jsonSchemaValidator: validator,
    cacheHints,
  });
  const anonymousOptions = options(ANONYMOUS_HINTS);
  const tokenOptions = options(TOKEN_HINTS);
  const info = serverInfo(config);
  const lowQuota = (q: QuotaState) => remainingOf(q) <= Math.max(1, Math.floor(q.limit / 10));
  const { identified, windowSeconds } = config.rateLimit;

  /** One operation call of this exchange: its headers on the answer; a used-up window makes the answer a 429. */
  const runCall = async (exchange: Exchange, call: Call): Promise<Outcome> => {
    try {
      const outcome = await pipeline.call(call);
      if (outcome instanceof ApiError) exchange.retryAfter = Math.max(exchange.retryAfter ?? 0, retryAfterSeconds(call.quota!));
      return outcome;
    } finally {
      setHeaders(exchange.res, call.headers);
    }
  };
  /** A thrown value that is not the family's (or came before the count): logged, and a plain -32603. */
  const internal = (what: string, err: unknown) => {
    log.error(`mcp ${what} failed`, err);
    return rpcError(ProtocolErrorCode.InternalError, 'Error interno del servidor.');
  };
  const rateMeta = (quota: QuotaState) =>
    ({ [RATELIMIT_META]: { policy: quota.policy, limit: quota.limit, remaining: remainingOf(quota), reset_seconds: quota.resetSeconds } });

  const callTool = async (exchange: Exchange, request: CallToolRequest): Promise<CallToolResult> => {
    const { name } = request.params;
    const op = operations.get(name);
    if (!op) throw rpcError(ProtocolErrorCode.InvalidParams, `Herramienta desconocida: ${name}. Herramientas disponibles: ${toolNames}.`);

    const call = newCall(op, exchange.req, exchange.credential, request.params.arguments ?? {});
    let result: CallToolResult;
    try {
      const outcome = await runCall(exchange, call);
      // The window is used up: a tool error for the model, a 429 for the host.
      if (outcome instanceof ApiError) return toolErrorOf(outcome, call, l);
      result = toolResult(outcome);
    } catch (err) {
      if (!(err instanceof ApiError) || call.quota === null) throw internal(`tool ${name}`, err);
      if (err instanceof UndeclaredArgument) throw rpcError(ProtocolErrorCode.InvalidParams, err.message);
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
  const readResource = async (exchange: Exchange, op: Operation, uri: string): Promise<ReadResourceResult> => {
    const target = readTarget(uri);
    if (!target) throw rpcError(ProtocolErrorCode.InvalidParams, `URI no válida: ${uri}. Use la URL de una página de ${config.siteUrl}; para una parte, la URI \`next\` de \`_meta\`.`);
    const call = newCall(op, exchange.req, exchange.credential, target);
    let outcome: Outcome;
    try {
      outcome = await runCall(exchange, call);
    } catch (err) {
      if (!(err instanceof ApiError) || call.quota === null) throw internal('resources/read', err);
      if (err.code === API_CODES.pageNotFound) throw new ResourceNotFoundError(uri, errorText(err, call, l));
      throw rpcError(err.status === 400 ? ProtocolErrorCode.InvalidParams : SERVER_ERROR, errorText(err, call, l));
    }
    if (outcome instanceof ApiError) throw rpcError(SERVER_ERROR, errorText(outcome, call, l));
    return { ...resourceResult(uri, outcome), _meta: rateMeta(call.quota!) };
  };

  return (exchange) => {
    const server = new Server(info, exchange.credential.kind === 'token' ? tokenOptions : anonymousOptions);
    server.setRequestHandler('tools/list', () => toolList);
    server.setRequestHandler('tools/call', async (request) =>
      server.projectCallToolResult(await callTool(exchange, request), outputSchemas.get(request.params.name)));
    if (readPage && exchange.resources) {
      server.setRequestHandler('resources/templates/list', () => templates);
      server.setRequestHandler('resources/list', (request) => {
        const list = listPages(deps.model.current(), request.params?.cursor);
        if (list === null) throw rpcError(ProtocolErrorCode.InvalidParams, 'Cursor no válido: use el nextCursor de la respuesta anterior.');
        return list;
      });
      server.setRequestHandler('resources/read', (request) => readResource(exchange, readPage, request.params.uri));
    }
    return server;
  };
}
