/**
 * Sends one request of the set to one server and records the answer as it came: status line,
 * headers in wire order with their spelling (`rawHeaders`), body bytes as sent (still
 * compressed). Requests go one at a time on one kept-alive connection per listener, as a client
 * library sends them: a client that closes the instant the last byte arrives races the server's
 * own bookkeeping of that response (its metrics count a piped file when the pipe ends), and the
 * comparison would see that race, not the code.
 */
import http from 'node:http';
import net from 'node:net';
import zlib from 'node:zlib';
import type { ConcreteRequest } from './request-set.ts';

export interface Recorded {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: Buffer;
}

export interface Endpoint { port: number; metricsPort: number }

const agents = new Map<number, http.Agent>();
const agentOf = (port: number) => {
  let agent = agents.get(port);
  if (agent === undefined) agents.set(port, agent = new http.Agent({ keepAlive: true, maxSockets: 1 }));
  return agent;
};
/** Closes the kept-alive connections (before the servers stop). */
export function closeConnections(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

/** The Host every request carries unless it sets its own: SITE_URL's, so both servers see the same. */
export const SITE_HOST = 'localhost:4321';

const pairs = (raw: string[]): [string, string][] => {
  const out: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!]);
  return out;
};

function sendHttp(port: number, req: ConcreteRequest): Promise<Recorded> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Host: SITE_HOST, ...req.headers };
    if (req.body) headers['Content-Length'] = String(req.body.length);
    const r = http.request({ host: '127.0.0.1', port, method: req.method, path: req.path, headers, agent: agentOf(port) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers: pairs(res.rawHeaders), body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    r.on('error', reject);
    r.end(req.body ?? undefined);
  });
}

/**
 * Raw bytes on a fresh socket; the answer read until the server closes (or a quiet second). The
 * socket is not half-closed: whether a server answers a request whose sender already hung up is a race.
 */
function sendRaw(port: number, bytes: Buffer): Promise<Recorded> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    socket.setTimeout(1000, () => socket.destroy());
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      const head = (end === -1 ? all : all.subarray(0, end)).toString('latin1').split('\r\n');
      const [, status = '0', ...text] = (head[0] ?? '').split(' ');
      const headers = head.slice(1).map((line): [string, string] => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon), line.slice(colon + 1).trim()];
      });
      resolve({ status: Number(status), statusText: text.join(' '), headers, body: end === -1 ? Buffer.alloc(0) : all.subarray(end + 4) });
    });
  });
}

export function send(endpoint: Endpoint, req: ConcreteRequest): Promise<Recorded> {
  const port = req.target === 'metrics' ? endpoint.metricsPort : endpoint.port;
  return req.raw ? sendRaw(port, req.raw) : sendHttp(port, req);
}

/** The body without its Content-Encoding (the bytes as they are when it has none or decoding fails). */
export function decodedBody(res: Recorded): Buffer {
  const encoding = res.headers.find(([h]) => h.toLowerCase() === 'content-encoding')?.[1].trim().toLowerCase();
  try {
    if (encoding === 'gzip') return zlib.gunzipSync(res.body);
    if (encoding === 'br') return zlib.brotliDecompressSync(res.body);
    if (encoding === 'deflate') return zlib.inflateSync(res.body);
  } catch { /* compared as bytes */ }
  return res.body;
}
