/**
 * POST {site_url}/mcp — the MCP endpoint (Streamable HTTP; conformance.md §9), stateless (no
 * Mcp-Session-Id) with JSON responses, speaking 2026-07-28 (no `initialize`; `server/discover`;
 * the version in each request's `_meta`) beside 2025-11-25, 2025-06-18 and 2025-03-26. Every
 * request, in this order:
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
 *   4. the body, at most MCP_BODY_LIMIT bytes (413 beyond); each of its messages that is not a
 *      tools/call or resources/read counted on the caller's MCP message window (message-quota.ts:
 *      429 when used up, before anything runs); then checked against the revisions this endpoint
 *      speaks (revisions.ts: versions, batches, their size and ids);
 *   5. the official SDK (2.x), by revision, with a fresh `Server` for this exchange (server.ts):
 *      a request that claims 2026-07-28 in its `_meta` goes to the SDK's stateless handler, which
 *      checks the envelope and the `Mcp-Method`/`Mcp-Name` headers against the body, answers
 *      server/discover and adds `resultType`, `ttlMs` and `cacheScope`; any other request goes to
 *      a transport of one exchange (exchange-transport.ts: the answers of the SDK's Streamable
 *      HTTP transport in JSON mode: 406 (Accept), 415 (Content-Type), -32700 (bad JSON), 202
 *      (notifications), and `initialize`). Both hand tools/list, tools/call and the resources to
 *      server.ts.
 * While the quota store is down, quotas are counted per process (stores/fallback.ts, shared with
 * REST) and a token, which cannot be checked, gets 503 with Retry-After.
 *
 * The 2025 revisions are not served by the stateless handler's fallback, which answers every
 * request as an SSE stream. The status can become 429 after a tool has run, so the answer is
 * written here, once every call of the message is done.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpHandler as createStatelessHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import type { AppDeps } from '../app.ts';
import { links } from '../discovery/links.ts';
import { ApiError, methodNotAllowed, PROTOCOL_CODES } from '../errors.ts';
import { createHostPolicy } from '../net/host.ts';
import { bearerChallenges, readCredential } from '../auth/bearer.ts';
import { readBody } from '../http/body.ts';
import { writeCors } from '../http/cors.ts';
import { setHeaders, type HeaderList } from '../http/header-list.ts';
import { versionHeaderList } from '../api-headers.ts';
import { createPipeline, newCall } from '../pipeline/index.ts';
import { MCP_PATH } from '../paths.ts';
import { labelOperation, mcpOperationOf } from '../observability/operation-label.ts';
import { ExchangeTransport, type ExchangeAnswer } from './exchange-transport.ts';
import { sendJsonRpcError, sendJsonRpcRefusal } from './json-rpc-errors.ts';
import { asksForResources, checkMessage, surelyInitialized, surelyStateless } from './revisions.ts';
import { createServerFactory, type Exchange } from './server.ts';
import { createMessageQuota, uncountedMessages } from './message-quota.ts';
import { collectArguments } from './tools.ts';

export { RATELIMIT_META } from './server.ts';

/** A tools/call is a few hundred bytes; initialize a few KB. 64 KB leaves room for any host. */
export const MCP_BODY_LIMIT = 64 * 1024;

const ALLOW = 'POST';
const PREFLIGHT_HEADERS = 'Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id, Last-Event-ID';
/** The request headers the SDK reads. */
const FORWARDED = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'mcp-session-id', 'last-event-id'] as const;

/** An answer to write: the exchange transport's, or the stateless handler's with its headers. */
type Answer = { status: number; body: string | Buffer | null; headers?: Headers };

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
};

export function createMcpHandler(deps: AppDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { config, log } = deps;
  const l = links(config);
  const challenges = bearerChallenges(config.siteUrl, l.protectedResourceMcp);
  // Tool arguments are JSON already: the schema checks them as they are, once none is undeclared.
  const pipeline = createPipeline(deps, { challenges, collect: collectArguments });
  const serverFor = createServerFactory(deps, pipeline, l);
  const messageQuota = createMessageQuota(deps);
  /** The exchange of each request handed to the stateless handler, which builds its Server from the request. */
  const exchanges = new WeakMap<Request, Exchange>();
  const stateless = createStatelessHandler(({ requestInfo }) => {
    try {
      return serverFor(exchanges.get(requestInfo!)!);
    } catch (err) {
      log.error('mcp: building the server failed', err);
      throw err;
    }
  }, {
    legacy: 'reject',
    maxRequestBodySize: MCP_BODY_LIMIT,
    // Told of every refusal too (a client's media type, envelope, headers), each already answered;
    // what fails on our side is logged where it fails (above, and in server.ts).
    onerror: () => {},
  });
  const versionHeaders = versionHeaderList(config);
  const hosts = createHostPolicy(config);
  const foreignOrigin = new ApiError(403, PROTOCOL_CODES.forbiddenOrigin, 'Origen no permitido.',
    `Solo las páginas de ${config.siteUrl} pueden llamar a este servidor MCP desde un navegador.`);

  /** A 2025 request: this exchange's Server on a transport of its own (exchange-transport.ts). */
  const serveInitialized = async (exchange: Exchange, checked: { message: unknown } | { body: Buffer }): Promise<ExchangeAnswer> => {
    const transport = new ExchangeTransport();
    await serverFor(exchange).connect(transport);
    // The answer comes once every handler of the message has finished: nothing is left running,
    // so the pair is left to the garbage collector. close() would only build a "connection
    // closed" error with its stack for handlers that no longer exist.
    return transport.handle(exchange.req.headers, checked);
  };

  /**
   * A message that may claim 2026-07-28: the SDK's own routing decision (from the parsed message:
   * nothing is read twice); the stateless handler answers the ones it keeps.
   */
  const serveByRevision = async (exchange: Exchange, message: unknown): Promise<Answer> => {
    const { req } = exchange;
    const headers: Record<string, string> = {};
    for (const name of FORWARDED) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const request = new Request(config.siteUrl + MCP_PATH, { method: 'POST', headers });
    if (!surelyStateless(message) && await isLegacyRequest(request, message)) return serveInitialized(exchange, { message });
    exchanges.set(request, exchange);
    const response = await stateless.fetch(request, { parsedBody: message });
    const body = response.status === 202 ? null : Buffer.from(await response.arrayBuffer());
    return { status: response.status, body, headers: response.headers };
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
    if ('message' in checked) labelOperation(res, mcpOperationOf(checked.message));
    const counted: HeaderList = [];
    // A body refused whole (not JSON, a batch too large or with an id twice) is one message.
    const limited = await messageQuota(req, credential, 'message' in checked ? uncountedMessages(checked.message) : 1, counted);
    if (limited !== null) {
      setHeaders(res, counted);
      throw limited;
    }
    if ('refusal' in checked) {
      sendJsonRpcRefusal(res, checked.refusal);
      return;
    }

    const exchange: Exchange = { req, res, credential, retryAfter: null, resources: 'message' in checked && asksForResources(checked.message) };
    const answer: Answer = 'message' in checked && !surelyInitialized(checked.message, header(req, 'mcp-protocol-version'))
      ? await serveByRevision(exchange, checked.message)
      : await serveInitialized(exchange, checked);
    answer.headers?.forEach((value, name) => { res.setHeader(name, value); });
    res.statusCode = exchange.retryAfter === null ? answer.status : 429;
    if (exchange.retryAfter !== null) res.setHeader('Retry-After', exchange.retryAfter);
    if (answer.body === null) {
      res.end();
      return;
    }
    const out = typeof answer.body === 'string' ? Buffer.from(answer.body) : answer.body;
    if (answer.headers === undefined) res.setHeader('Content-Type', 'application/json');
    res.setHeader('Content-Length', out.length);
    res.end(out);
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
