/**
 * The HTTP client of the reliability tests: Node's client with a hard time limit (a request that
 * takes longer fails the test as a hang) and the elapsed time, and small body helpers.
 * (Byte-level requests: hostile/check.ts.)
 */
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Decoded when the server compressed it. */
  body: Buffer;
  /** Milliseconds from sending to the end of the body. */
  ms: number;
  text(): string;
  json<T = any>(): T;
}

export interface SendOptions {
  method?: string;
  /** A value given as an array is sent as repeated header lines. */
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
  /** The request fails (as a hang) when the answer is not complete within this time. */
  timeoutMs?: number;
  agent?: http.Agent | false;
}

export class TimeoutError extends Error {}

const decode = (encoding: string | undefined, body: Buffer): Buffer => {
  if (encoding === 'gzip') return gunzipSync(body);
  if (encoding === 'br') return brotliDecompressSync(body);
  return body;
};

function reply(status: number, headers: http.IncomingHttpHeaders, body: Buffer, ms: number): Reply {
  return {
    status,
    headers,
    body,
    ms,
    text: () => body.toString('utf8'),
    json: () => JSON.parse(body.toString('utf8')),
  };
}

export function send(url: string, options: SendOptions = {}): Promise<Reply> {
  const target = new URL(url);
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? 10_000;
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: target.hostname,
      port: target.port,
      path: target.pathname + target.search,
      method: options.method ?? 'GET',
      headers: options.headers ?? {},
      agent: options.agent ?? false,
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        clearTimeout(timer);
        try {
          const body = decode(res.headers['content-encoding'], Buffer.concat(chunks));
          resolve(reply(res.statusCode ?? 0, res.headers, body, performance.now() - started));
        } catch (err) {
          reject(err);
        }
      });
    });
    const timer = setTimeout(() => {
      req.destroy(new TimeoutError(`${options.method ?? 'GET'} ${url}: no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    req.on('error', (err) => { clearTimeout(timer); reject(err); });
    req.end(options.body);
  });
}

export const json = (value: unknown, headers: Record<string, string> = {}) => ({
  headers: { 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify(value),
});

export const form = (params: Record<string, string>, headers: Record<string, string> = {}) => ({
  headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(params).toString(),
});

export const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/** Counts of each status in `replies`, as a plain object for `assert.equal`. */
export function statusCounts(replies: ReadonlyArray<{ status: number }>): Record<number, number> {
  const out: Record<number, number> = {};
  for (const r of replies) out[r.status] = (out[r.status] ?? 0) + 1;
  return out;
}
