/**
 * The requests the HTTP benchmark loads, one row each. Every row is measured on the real server
 * (memory store and Redis) and on the baseline answering the same bytes. Requests carry the
 * headers a typical HTTP client library sends (fetch/undici: `Accept`, `Accept-Encoding`), so
 * the server answers its precompressed representations, as it does for real agents.
 */
import http from 'node:http';
import type { LoadRequest } from './load.ts';

export const API = '/wp-json/agentes/v1';

const CLIENT_HEADERS = { accept: 'application/json', 'accept-encoding': 'gzip, deflate, br', 'user-agent': 'agentes-bench' };

export interface Scenario {
  name: string;
  /** Which target-performance group the row belongs to (targets.ts). */
  group: 'content' | 'search' | 'rate-limited' | 'mcp';
  /** Which servers answer it: the main ones (limits raised) or the ones whose quota is used up. */
  servers: 'main' | 'limited';
  expectStatus: number;
  /** The request for one server (MCP opens a session there first); null when the server cannot answer it. */
  prepare(origin: string): Promise<LoadRequest | null>;
  /** Why the row is not measured, when prepare returned null. */
  unavailable?: string;
  /** The row this one must not cost more than (the 429 of a request vs its 200). */
  twin?: string;
  /** Also measured on the memory-store server with metrics on (METRICS_PORT set). */
  metrics?: boolean;
}

const get = (path: string): LoadRequest => ({ method: 'GET', path, headers: CLIENT_HEADERS });

const fixed = (name: string, group: Scenario['group'], path: string, servers: Scenario['servers'] = 'main', expectStatus = 200): Scenario => ({
  name, group, servers, expectStatus, prepare: async () => get(path),
});

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

export interface Captured {
  status: number;
  /** Raw response headers as sent, without the per-connection ones Node adds itself. */
  headers: string[];
  body: Buffer;
}

const HOP_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** Sends one request and returns the response exactly as it came (no decompression). */
export function capture(origin: string, req: LoadRequest): Promise<Captured> {
  return new Promise((resolve, reject) => {
    const r = http.request(origin + req.path, { method: req.method, headers: req.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const headers: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          if (!HOP_HEADERS.has(res.rawHeaders[i]!.toLowerCase())) headers.push(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
        }
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    r.on('error', reject);
    r.end(req.body);
  });
}

/** `tools/call` over the MCP endpoint (Streamable HTTP, 2025-06-18): initialize, then call read_page. */
function mcpScenario(shortSlug: string): Scenario {
  const scenario: Scenario = {
    name: 'mcp tools/call read_page',
    group: 'mcp',
    servers: 'main',
    expectStatus: 200,
    async prepare(origin) {
      const headers: Record<string, string> = {
        ...CLIENT_HEADERS, accept: 'application/json, text/event-stream', 'content-type': 'application/json',
      };
      const init = await capture(origin, {
        method: 'POST', path: '/mcp', headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'agentes-bench', version: '1' } } }),
      });
      if (init.status === 404 || init.status === 405) {
        scenario.unavailable = 'n/a: no /mcp';
        return null;
      }
      if (init.status !== 200) throw new Error(`MCP initialize answered ${init.status}: ${init.body.toString().slice(0, 300)}`);
      const session = headerOf(init.headers, 'mcp-session-id');
      const version = /"protocolVersion"\s*:\s*"([^"]+)"/.exec(init.body.toString())?.[1] ?? '2025-06-18';
      const call = { ...headers, 'mcp-protocol-version': version, ...(session ? { 'mcp-session-id': session } : {}) };
      if (session) {
        await capture(origin, { method: 'POST', path: '/mcp', headers: call, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
      }
      return {
        method: 'POST', path: '/mcp', headers: call,
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_page', arguments: { url: shortSlug } } }),
      };
    },
  };
  return scenario;
}

/** `tools/call` as a stateless MCP 2026-07-28 client sends it: no initialize, the revision in `_meta` and headers. */
function statelessMcpScenario(shortSlug: string): Scenario {
  return {
    name: 'mcp 2026-07-28 tools/call read_page',
    group: 'mcp',
    servers: 'main',
    expectStatus: 200,
    async prepare() {
      const envelope = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'agentes-bench', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': {},
      };
      return {
        method: 'POST', path: '/mcp',
        headers: {
          ...CLIENT_HEADERS, accept: 'application/json, text/event-stream', 'content-type': 'application/json',
          'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'read_page',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_page', arguments: { url: shortSlug }, _meta: envelope } }),
      };
    },
  };
}

function headerOf(flat: readonly string[], name: string): string | undefined {
  for (let i = 0; i < flat.length; i += 2) if (flat[i]!.toLowerCase() === name) return flat[i + 1];
  return undefined;
}

/** The rows, given the slugs of the model's longest and shortest pages. */
export function scenarios(pages: { longSlug: string; shortSlug: string }): Scenario[] {
  const search = (label: string, query: string, city?: string) =>
    fixed(`search_pages ${label}${city ? ` city=${city}` : ''}`, 'search', `${API}/search_pages?${q(city ? { query, city } : { query })}`);
  const withMetrics = (s: Scenario): Scenario => ({ ...s, metrics: true });
  const short = withMetrics(fixed(`read_page short (${pages.shortSlug})`, 'content', `${API}/read_page?${q({ url: pages.shortSlug })}`));
  return [
    withMetrics(fixed(`read_page long (${pages.longSlug})`, 'content', `${API}/read_page?${q({ url: pages.longSlug })}`)),
    short,
    withMetrics(fixed('get_company_info', 'content', `${API}/get_company_info`)),
    search('word "fontanero"', 'fontanero'),
    search('word "fontanero"', 'fontanero', 'madrid'),
    search('words+city "electricista urgente sevilla"', 'electricista urgente sevilla'),
    search('words+city "electricista urgente sevilla"', 'electricista urgente sevilla', 'sevilla'),
    search('typo "cerrajro"', 'cerrajro'),
    search('typo "cerrajro"', 'cerrajro', 'vigo'),
    { ...fixed(`429 ${short.name}`, 'rate-limited', `${API}/read_page?${q({ url: pages.shortSlug })}`, 'limited', 429), twin: short.name },
    mcpScenario(pages.shortSlug),
    statelessMcpScenario(pages.shortSlug),
  ];
}
