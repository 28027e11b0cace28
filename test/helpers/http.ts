/**
 * A raw HTTP client for tests: no automatic decompression, redirects or header rewriting.
 * Every answer of a documented API operation is checked against the OpenAPI document the server
 * publishes: a mismatch rejects the request, failing the test that sent it (issue 6: every
 * response the API sends in the test suite validates against /openapi.json).
 */
import http from 'node:http';
import { parseConfig } from '../../server/config.ts';
import { buildOpenApi } from '../../server/discovery/openapi.ts';
import { validateResponse } from './validate-response.ts';

export interface RawResponse {
  status: number;
  /** Lower-case names; repeated headers joined by ", " as Node does. */
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text(): string;
  json<T = any>(): T;
}

export function request(url: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    // The path is sent exactly as written (a WHATWG URL would resolve `..` and re-encode it).
    const m = /^http:\/\/([^/:]+):(\d+)(\/.*)?$/.exec(url);
    if (!m) throw new Error(`not an http://host:port URL: ${url}`);
    // Non-ASCII is percent-encoded as a browser would; Node refuses it raw in a request line.
    const path = (m[3] ?? '/').replace(/[^\x00-\x7f]+/g, (c) => encodeURIComponent(c));
    const target = { host: m[1], port: Number(m[2]), path };
    const req = http.request({ ...target, method: options.method ?? 'GET', headers: options.headers ?? {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const mismatches = conformance(options.method ?? 'GET', path, res.statusCode ?? 0, res.headers, body);
        if (mismatches.length > 0) {
          reject(new Error(`the answer does not match /openapi.json:\n  ${mismatches.join('\n  ')}`));
          return;
        }
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body,
          text: () => body.toString('utf8'),
          json: () => JSON.parse(body.toString('utf8')),
        });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const API_PREFIX = '/wp-json/agentes/v1/';
let openApi: object | undefined;

function conformance(method: string, path: string, status: number, headers: http.IncomingHttpHeaders, body: Buffer): string[] {
  if (!path.startsWith(API_PREFIX) || method === 'OPTIONS') return [];
  openApi ??= buildOpenApi(parseConfig({}));
  const errors = validateResponse(openApi, { path, method, status, contentType: headers['content-type'] ?? null, headers, body });
  // Not operations of the document on purpose: unknown names (404 rest_no_route) and methods
  // other than GET/HEAD (405), which every path answers the same way.
  return errors.filter((e) => !e.endsWith('path not in the document') && !e.endsWith('method not in the document'));
}

/** `?a=1&b=2` with proper encoding (a value may repeat when given as an array). */
export function qs(params: Record<string, string | number | (string | number)[]>): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const x of Array.isArray(v) ? v : [v]) sp.append(k, String(x));
  const s = sp.toString();
  return s ? '?' + s : '';
}
