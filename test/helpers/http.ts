/**
 * The raw HTTP client of the tests: Node's client with no automatic decompression, redirects or
 * header rewriting, a hard time limit (a request that takes longer fails as a hang) and the
 * elapsed time. Every answer of a documented API operation is checked against the OpenAPI
 * document the server publishes: a mismatch rejects the request, failing the test that sent it.
 * (Byte-level requests: test/reliability/hostile/check.ts.)
 */
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { parseConfig } from '../../server/config.ts';
import { buildOpenApi } from '../../server/discovery/openapi.ts';
import { validateResponse } from './validate-response.ts';

export interface RequestOptions {
  method?: string;
  /** A value given as an array is sent as repeated header lines. */
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
  /** The request fails (TimeoutError) when the answer is not complete within this time. */
  timeoutMs?: number;
  /** Decompress a gzip or br body; off, `body` holds the bytes as sent. */
  decode?: boolean;
  agent?: http.Agent | false;
}

export interface RawResponse {
  status: number;
  /** Lower-case names; repeated headers joined by ", " as Node does. */
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** Milliseconds from sending to the end of the body. */
  ms: number;
  text(): string;
  json<T = any>(): T;
}

export class TimeoutError extends Error {}

export function request(url: string, options: RequestOptions = {}): Promise<RawResponse> {
  // The path is sent exactly as written (a WHATWG URL would resolve `..` and re-encode it).
  const m = /^http:\/\/([^/:]+):(\d+)(\/.*)?$/.exec(url);
  if (!m) return Promise.reject(new Error(`not an http://host:port URL: ${url}`));
  // Non-ASCII is percent-encoded as a browser would; Node refuses it raw in a request line.
  const path = (m[3] ?? '/').replace(/[^\x00-\x7f]+/g, (c) => encodeURIComponent(c));
  const method = options.method ?? 'GET';
  const timeoutMs = options.timeoutMs ?? 10_000;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request({ host: m[1], port: Number(m[2]), path, method, headers: options.headers ?? {}, agent: options.agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        clearTimeout(timer);
        const ms = performance.now() - started;
        const sent = Buffer.concat(chunks);
        const status = res.statusCode ?? 0;
        const mismatches = conformance(method, path, status, res.headers, sent);
        if (mismatches.length > 0) {
          reject(new Error(`the answer does not match /openapi.json:\n  ${mismatches.join('\n  ')}`));
          return;
        }
        try {
          const body = options.decode ? decode(res.headers['content-encoding'], sent) : sent;
          resolve({ status, headers: res.headers, body, ms, text: () => body.toString('utf8'), json: () => JSON.parse(body.toString('utf8')) });
        } catch (err) {
          reject(err);
        }
      });
    });
    const timer = setTimeout(() => {
      req.destroy(new TimeoutError(`${method} ${url}: no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    req.on('error', (err) => { clearTimeout(timer); reject(err); });
    req.end(options.body);
  });
}

function decode(encoding: string | undefined, body: Buffer): Buffer {
  if (encoding === 'gzip') return gunzipSync(body);
  if (encoding === 'br') return brotliDecompressSync(body);
  return body;
}

const API_PREFIX = '/wp-json/agentes/v1/';
let openApi: object | undefined;

/** Answered before any route (a Host the server does not answer for), as the other errors before routing. */
const MISDIRECTED = 421;

function conformance(method: string, path: string, status: number, headers: http.IncomingHttpHeaders, body: Buffer): string[] {
  if (!path.startsWith(API_PREFIX) || method === 'OPTIONS' || status === MISDIRECTED) return [];
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

/** Headers and body of a JSON request, to spread into the options. */
export const json = (value: unknown, headers: Record<string, string> = {}) => ({
  headers: { 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify(value),
});

/** Headers and body of a form request, to spread into the options. */
export const form = (params: Record<string, string>, headers: Record<string, string> = {}) => ({
  headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(params).toString(),
});

/** An Authorization header value for client_secret_basic. */
export const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/** Counts of each status in `responses`, as a plain object for `assert.equal`. */
export function statusCounts(responses: ReadonlyArray<{ status: number }>): Record<number, number> {
  const out: Record<number, number> = {};
  for (const r of responses) out[r.status] = (out[r.status] ?? 0) + 1;
  return out;
}
