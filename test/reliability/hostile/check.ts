/**
 * Sending hostile requests and judging the answers. A request Node's client can send goes through
 * a keep-alive agent; anything else (bad method tokens, control characters, raw byte tricks) goes
 * byte for byte over a fresh socket. `violations` lists every way an answer breaks the rules:
 * no answer, a 5xx, HTML, a body that is not the family's documented JSON shape, or an API
 * operation's answer without its rate-limit headers.
 */
import http from 'node:http';
import net from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { CLIENT_ERROR_CODES } from '../../../server/http/client-errors.ts';
import { CompanyInfoSchema, PageSchema, QuotaSchema, SearchResponseSchema } from '../../../formats/schemas/resources.ts';
import { API, type HostileRequest } from './arbitraries.ts';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** Set when no whole answer came back. */
  failure?: string;
  /** Sent over a raw socket. */
  raw: boolean;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PATH_OK = /^[\x21-\xff]*$/;
const VALUE_OK = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Headers that change how the connection itself is used (a body length that lies, an upgrade):
 * such requests go on a fresh socket of their own, so they cannot spoil a pooled one for the
 * requests after them.
 */
const CONNECTION_LEVEL = new Set(['connection', 'upgrade', 'content-length', 'transfer-encoding', 'expect']);

function clientCanSend(r: HostileRequest): boolean {
  return r.raw === undefined && TOKEN.test(r.method) && PATH_OK.test(r.target)
    && r.headers.every(([n, v]) => TOKEN.test(n) && VALUE_OK.test(v) && !CONNECTION_LEVEL.has(n.toLowerCase()));
}

/** True when chunked is the request's final transfer coding, so its body is framed in chunks (RFC 9112 §6.3 rule 4). */
function declaresChunked(headers: HostileRequest['headers']): boolean {
  const codings = headers.filter(([n]) => n.toLowerCase() === 'transfer-encoding')
    .flatMap(([, v]) => v.split(',')).map((c) => c.trim().toLowerCase()).filter((c) => c !== '');
  return codings.at(-1) === 'chunked';
}

/** `body` (possibly none) as a chunked body that ends: a chunk if non-empty, then the last-chunk (RFC 9112 §7.1). */
const chunkedBody = (body: Buffer | undefined) => Buffer.concat([
  ...(body && body.length > 0 ? [Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n')] : []),
  Buffer.from('0\r\n\r\n'),
]);

/**
 * The request as bytes, always a complete message: a body declared chunked is sent chunked and
 * ended, never headers alone (the server would rightly wait for it until its request timeout,
 * 30 s), and never with a Content-Length beside it (RFC 9112 §6.1 forbids the pair; the raw
 * `smuggle` case covers that on purpose).
 */
function toRaw(r: HostileRequest): Buffer {
  if (r.raw) return r.raw;
  const lines = [`${r.method} ${r.target} HTTP/1.1`, 'Host: 127.0.0.1', ...r.headers.map(([n, v]) => `${n}: ${v}`), 'Connection: close'];
  const chunked = declaresChunked(r.headers);
  if (r.body && !chunked) lines.push(`Content-Length: ${r.body.length}`);
  // Characters beyond Latin-1 go out as UTF-8, as a careless client would send them.
  return Buffer.concat([Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'utf8'), chunked ? chunkedBody(r.body) : r.body ?? Buffer.alloc(0)]);
}

/**
 * The body without its content coding. An answer to HEAD, a 204 or a 304 has no body at all, yet
 * rightly names the coding the GET's body would have (RFC 9110 §9.3.2, §15.4.5): nothing to decode.
 */
function decode(status: number, headers: Answer['headers'], body: Buffer, head: boolean): Buffer {
  if (head || status === 204 || status === 304) return body;
  const enc = headers['content-encoding'];
  if (enc === 'gzip') return gunzipSync(body);
  if (enc === 'br') return brotliDecompressSync(body);
  return body;
}

/** Requests sent again after a reset on a reused kept-alive socket (see `dispatch`). */
export const retried = { count: 0 };

export async function dispatch(port: number, r: HostileRequest, agent: http.Agent, timeoutMs = 10_000): Promise<Answer> {
  if (!clientCanSend(r)) return viaSocket(port, toRaw(r), r.method === 'HEAD', timeoutMs);
  const answer = await viaClient(port, r, agent, timeoutMs);
  // A kept-alive socket the server closed just as it was reused: the request never reached it.
  // Sent once more on a fresh connection, as Node's documentation advises; a server that resets
  // this request itself fails again.
  if (answer.failure === 'transport: ECONNRESET (reused socket)') {
    retried.count++;
    return viaClient(port, r, false, timeoutMs);
  }
  return answer;
}

function viaClient(port: number, r: HostileRequest, agent: http.Agent | false, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (a: Answer) => { if (!settled) { settled = true; clearTimeout(timer); resolve(a); } };
    // An array of headers gets no automatic Host (nor anything else): the request is sent as given.
    const headers: Array<[string, string]> = r.headers.some(([n]) => n.toLowerCase() === 'host') ? [...r.headers] : [['Host', `127.0.0.1:${port}`], ...r.headers];
    if (r.body && !headers.some(([n]) => n.toLowerCase() === 'content-length' || n.toLowerCase() === 'transfer-encoding')) headers.push(['Content-Length', String(r.body.length)]);
    let req: http.ClientRequest;
    try {
      req = http.request({ host: '127.0.0.1', port, method: r.method, path: r.target, agent, headers: headers.flat() as unknown as http.OutgoingHttpHeaders }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            done({ status: res.statusCode ?? 0, headers: res.headers, body: decode(res.statusCode ?? 0, res.headers, Buffer.concat(chunks), r.method === 'HEAD'), raw: false });
          } catch (err) {
            done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.alloc(0), failure: `undecodable body: ${(err as Error).message}`, raw: false });
          }
        });
        res.on('error', (err) => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.alloc(0), failure: `answer cut: ${err.message}`, raw: false }));
      });
    } catch {
      // The client refused to build it after all: send it raw.
      viaSocket(port, toRaw(r), r.method === 'HEAD', timeoutMs).then(resolve);
      return;
    }
    const timer = setTimeout(() => { req.destroy(); done({ status: 0, headers: {}, body: Buffer.alloc(0), failure: `no answer within ${timeoutMs} ms`, raw: false }); }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => done({
      status: 0, headers: {}, body: Buffer.alloc(0), raw: false,
      failure: `transport: ${err.code ?? err.message}${req.reusedSocket ? ' (reused socket)' : ''}`,
    }));
    req.end(r.body);
  });
}

/** The first complete answer in `data`, or null while it is still arriving. */
function parseAnswer(data: Buffer, head: boolean): { status: number; headers: Answer['headers']; body: Buffer } | null {
  let start = 0;
  for (;;) {
    const end = data.indexOf('\r\n\r\n', start);
    if (end === -1) return null;
    const lines = data.subarray(start, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0]!)?.[1] ?? 0);
    const headers: Answer['headers'] = {};
    for (const line of lines.slice(1)) {
      const i = line.indexOf(':');
      if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
    }
    // Interim answers (100 Continue) come before the real one.
    if (status >= 100 && status < 200) { start = end + 4; continue; }
    const rest = data.subarray(end + 4);
    if (head || status === 204 || status === 304) return { status, headers, body: Buffer.alloc(0) };
    if (/chunked/i.test(String(headers['transfer-encoding']))) {
      const chunks: Buffer[] = [];
      let at = 0;
      for (;;) {
        const eol = rest.indexOf('\r\n', at);
        if (eol === -1) return null;
        const size = parseInt(rest.subarray(at, eol).toString('latin1'), 16);
        if (!Number.isFinite(size)) return { status, headers, body: rest };
        if (size === 0) return { status, headers, body: Buffer.concat(chunks) };
        if (rest.length < eol + 2 + size + 2) return null;
        chunks.push(rest.subarray(eol + 2, eol + 2 + size));
        at = eol + 2 + size + 2;
      }
    }
    const length = Number(headers['content-length']);
    if (Number.isFinite(length)) return rest.length >= length ? { status, headers, body: rest.subarray(0, length) } : null;
    return null; // delimited by the close
  }
}

function viaSocket(port: number, bytes: Buffer, head: boolean, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      const data = Buffer.concat(chunks);
      let answer = parseAnswer(data, head);
      let failure: string | undefined;
      if (answer === null && closed) {
        // An answer delimited by the close, or one cut short.
        const end = data.indexOf('\r\n\r\n');
        const headOnly = end === -1 ? null : parseAnswer(data.subarray(0, end + 4), true);
        if (headOnly) {
          answer = { ...headOnly, body: data.subarray(end + 4) };
          if (headOnly.headers['content-length'] !== undefined || headOnly.headers['transfer-encoding'] !== undefined) failure = 'answer cut short';
        }
      }
      if (answer === null && !closed) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (answer === null) { resolve({ status: 0, headers: {}, body: Buffer.alloc(0), failure: 'closed without an answer', raw: true }); return; }
      if (failure) { resolve({ ...answer, failure, raw: true }); return; }
      try {
        resolve({ ...answer, body: decode(answer.status, answer.headers, answer.body, head), raw: true });
      } catch (err) {
        resolve({ ...answer, body: Buffer.alloc(0), failure: `undecodable body: ${(err as Error).message}`, raw: true });
      }
    };
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve({ status: 0, headers: {}, body: Buffer.alloc(0), failure: `no answer within ${timeoutMs} ms`, raw: true });
    }, timeoutMs);
    // Not half-closed after writing: Node's server takes a client's FIN as an abort.
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (c: Buffer) => { chunks.push(c); finish(false); });
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
  });
}

// ——— judging ———————————————————————————————————————————————————————————————————————————————

export type Family = 'api-op' | 'api' | 'oauth' | 'identity' | 'mcp' | 'other';

const OAUTH_ENDPOINTS = new Set(['/oauth/register', '/oauth/token', '/oauth/revoke', '/oauth/introspect', '/oauth/authorize']);
const OP = new RegExp(`^${API.replace(/\//g, '\\/')}\\/(search_pages|read_page|get_company_info|quota)\\/?$`);
const PROTOCOL_CODES = new Set<string>(CLIENT_ERROR_CODES);

export function familyOf(target: string): Family {
  const path = target.split('?')[0]!;
  if (OP.test(path)) return 'api-op';
  if (path === API || path.startsWith(API + '/')) return 'api';
  if (OAUTH_ENDPOINTS.has(path.replace(/\/$/, ''))) return 'oauth';
  if (path.replace(/\/$/, '') === '/agent/identity') return 'identity';
  if (path.replace(/\/$/, '') === '/mcp') return 'mcp';
  return 'other';
}

const header = (a: Answer, name: string) => { const v = a.headers[name]; return Array.isArray(v) ? v.join(', ') : v; };
const keysWithin = (o: object, allowed: string[]) => Object.keys(o).every((k) => allowed.includes(k));

function isRestError(b: any, status: number): boolean {
  return b !== null && typeof b === 'object' && typeof b.code === 'string' && typeof b.message === 'string' && b.message.length > 0
    && b.data !== null && typeof b.data === 'object' && b.data.status === status && keysWithin(b, ['code', 'message', 'data'])
    && keysWithin(b.data, ['status', 'hint']) && (b.data.hint === undefined || typeof b.data.hint === 'string');
}
const isOAuthError = (b: any) => b !== null && typeof b === 'object' && typeof b.error === 'string' && typeof b.error_description === 'string'
  && keysWithin(b, ['error', 'error_description']);
const isJsonRpc = (b: any) => {
  const one = (m: any) => m !== null && typeof m === 'object' && m.jsonrpc === '2.0'
    && ((m.error && typeof m.error.code === 'number' && typeof m.error.message === 'string') || 'result' in m);
  return Array.isArray(b) ? b.length > 0 && b.every(one) : one(b);
};

/**
 * Refused before any route (malformed request, header section too large, timeout, no Host or
 * a Host this server does not answer for): the
 * REST error shape from http/client-errors.ts, without the API's headers. A HEAD answer has
 * no body to tell: those carry no API-Version, which every routed API answer does.
 */
export function isProtocolLevel(r: HostileRequest, a: Answer, body?: any): boolean {
  if (body && typeof body.code === 'string') return PROTOCOL_CODES.has(body.code);
  return r.method === 'HEAD' && [400, 408, 417, 421, 431].includes(a.status) && a.headers['api-version'] === undefined;
}

const RATELIMIT = /^"(anonimo|identificado)";r=\d+;t=\d+$/;
const POLICY = /^"(anonimo|identificado)";q=\d+;w=\d+$/;

/** Every way `a` breaks the rules for `r`; empty when it is fine. */
export function violations(r: HostileRequest, a: Answer): string[] {
  const out: string[] = [];
  if (a.failure !== undefined) return [a.failure];
  if (a.status < 100) return ['no HTTP answer'];
  if (a.status >= 500) out.push(`status ${a.status}`);
  const type = String(header(a, 'content-type') ?? '');
  if (/html/i.test(type)) out.push(`content-type ${type}`);
  const text = a.body.toString('utf8');
  if (/^\s*</.test(text)) out.push('an HTML-looking body');

  const family = familyOf(r.target);
  const headOnly = r.method === 'HEAD';
  let body: any;
  if (a.body.length > 0) {
    if (family === 'mcp' && /^text\/event-stream/.test(type)) {
      const events = text.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim());
      try { body = events.map((e) => JSON.parse(e)); } catch { out.push('an SSE event that is not JSON'); }
      if (body && !body.every(isJsonRpc)) out.push('an SSE event that is not JSON-RPC');
      return out;
    }
    if (!/^application\/([a-z.+-]*\+)?json/.test(type)) out.push(`a ${type || 'typeless'} body`);
    try { body = JSON.parse(text); } catch { out.push(`a body that is not JSON: ${text.slice(0, 80)}`); return out; }
  } else if (a.status >= 400 && !headOnly) {
    out.push(`an empty ${a.status}`);
  }

  if (isProtocolLevel(r, a, body)) {
    if (body !== undefined && !isRestError(body, a.status)) out.push('a protocol error not in the REST shape');
    return out;
  }

  if (body !== undefined && a.status >= 400) {
    if (family === 'oauth') {
      if (!isOAuthError(body)) out.push(`not the OAuth error shape: ${text.slice(0, 120)}`);
      if (!/no-store/.test(String(header(a, 'cache-control')))) out.push('an OAuth error without Cache-Control: no-store');
    } else if (family === 'mcp') {
      if (!isJsonRpc(body) && !isRestError(body, a.status)) out.push(`neither JSON-RPC nor the REST error shape: ${text.slice(0, 120)}`);
    } else if (!isRestError(body, a.status)) {
      out.push(`not the REST error shape: ${text.slice(0, 120)}`);
    }
  }
  if (a.status === 429 || a.status === 503) {
    const retry = Number(header(a, 'retry-after'));
    if (!Number.isInteger(retry) || retry < 1) out.push(`a ${a.status} without a usable Retry-After`);
  }
  if (family === 'mcp' && body !== undefined && a.status < 400 && !isJsonRpc(body)) out.push('an MCP answer that is not JSON-RPC');

  if (family === 'api-op' && (r.method === 'GET' || r.method === 'HEAD')) {
    const rl = header(a, 'ratelimit');
    const policy = header(a, 'ratelimit-policy');
    if (!rl || !RATELIMIT.test(rl)) out.push(`RateLimit missing or malformed: ${rl}`);
    if (!policy || !POLICY.test(policy)) out.push(`RateLimit-Policy missing or malformed: ${policy}`);
    for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) {
      if (!/^\d+$/.test(String(header(a, name)))) out.push(`${name} missing or not an integer`);
    }
    if (header(a, 'api-version') !== '1') out.push('API-Version missing');
    if (a.status === 200 && body !== undefined) {
      const op = OP.exec(r.target.split('?')[0]!)![1]!;
      const schema = { search_pages: SearchResponseSchema, read_page: PageSchema, get_company_info: CompanyInfoSchema, quota: QuotaSchema }[op as 'quota'];
      const parsed = schema.strict().safeParse(body);
      if (!parsed.success) out.push(`a 200 of ${op} not matching its schema: ${parsed.error.issues[0]?.message}`);
    }
  }
  if (headOnly && a.body.length > 0) out.push('a body on HEAD');
  return out;
}
