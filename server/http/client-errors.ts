/**
 * Answers for requests that never reach a route: what Node's HTTP parser refuses (a malformed
 * request line or header, a header section over 16 KB), requests whose headers did not arrive
 * within headersTimeout or whose body did not within requestTimeout, CONNECT, and an `Expect`
 * other than 100-continue. Node's defaults answer these with an empty body or just close the
 * connection; here they get the REST error shape like every other error, then the connection
 * is closed (the request stream can no longer be trusted).
 *
 * An HTTP/1.1 request without Host is refused here too (RFC 9112 §3.2 requires the 400; Node's
 * own check, switched off in main.ts, would send it without a body), and one whose Host names
 * another site gets 421 (RFC 9110 §15.5.20), before any route runs (net/host.ts says which).
 *
 * Codes (errors.ts: PROTOCOL_CODES, and API_CODES for the 405): `agentes_bad_request` 400,
 * `agentes_request_timeout` 408, `agentes_expectation_failed` 417, `agentes_misdirected_request`
 * 421, `agentes_headers_too_large` 431, and `rest_method_not_allowed` 405 for CONNECT.
 */
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { API_CODES, ApiError, methodNotAllowed, PROTOCOL_CODES } from '../errors.ts';
import { errorBody } from './error-response.ts';
import { sendJson } from './json.ts';
import { closeLingering } from './lingering-close.ts';
import type { HostPolicy } from '../net/host.ts';
import { memoize } from '../memo.ts';

/** The codes these answers carry. */
export const CLIENT_ERROR_CODES = [
  PROTOCOL_CODES.badRequest, PROTOCOL_CODES.requestTimeout, PROTOCOL_CODES.expectationFailed, PROTOCOL_CODES.headersTooLarge,
  PROTOCOL_CODES.misdirected, API_CODES.methodNotAllowed,
] as const;

const REASONS: Record<number, string> = {
  400: 'Bad Request', 405: 'Method Not Allowed', 408: 'Request Timeout', 417: 'Expectation Failed', 431: 'Request Header Fields Too Large',
};

/** A whole HTTP/1.1 response, for a socket that has no ServerResponse; `head`: without the body. */
function rawResponse(a: ApiError, head = false): Buffer {
  const json = errorBody(a);
  const lines = [
    `HTTP/1.1 ${a.status} ${REASONS[a.status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${json.length}`,
    'Cache-Control: no-store',
    'Connection: close',
    ...Object.entries(a.headers).map(([k, v]) => `${k}: ${v}`),
  ].join('\r\n');
  return Buffer.concat([Buffer.from(lines + '\r\n\r\n'), head ? Buffer.alloc(0) : json]);
}

const answers = (a: ApiError) => ({ full: rawResponse(a), head: rawResponse(a, true) });
const BAD_REQUEST = answers(new ApiError(400, PROTOCOL_CODES.badRequest, 'Petición HTTP mal formada.',
  'Revise la línea de petición y las cabeceras (RFC 9112).'));
const TIMEOUT = answers(new ApiError(408, PROTOCOL_CODES.requestTimeout, 'La petición no llegó completa a tiempo.',
  'Envíe las cabeceras y el cuerpo sin pausas.'));
const TOO_LARGE = answers(new ApiError(431, PROTOCOL_CODES.headersTooLarge, 'Las cabeceras de la petición son demasiado grandes.',
  'Las cabeceras no pueden superar 16 KB en total.'));
const CONNECT = rawResponse(methodNotAllowed('GET, HEAD, OPTIONS, POST',
  { message: 'Método no permitido: este servidor no es un proxy.', hint: 'Use GET, HEAD, OPTIONS o POST.' }));
const NO_HOST = new ApiError(400, PROTOCOL_CODES.badRequest, 'Falta la cabecera Host.', 'Toda petición HTTP/1.1 lleva Host (RFC 9112 §3.2).');
const EXPECTATION = new ApiError(417, PROTOCOL_CODES.expectationFailed, 'Expectativa no admitida.',
  'La única expectativa admitida es Expect: 100-continue.');

type ParserSocket = Duplex & { _httpMessage?: { headersSent?: boolean } | null };

const BAD_HOST = new ApiError(400, PROTOCOL_CODES.badRequest, 'Cabecera Host no válida.',
  'Envíe una sola cabecera Host con el nombre del sitio y, si hace falta, el puerto (RFC 9112 §3.2).');
/** RFC 9112 §3.2, RFC 3986 §3.2.2: `uri-host [ ":" port ]`, no user information. */
const HOST_VALUE = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::[0-9]*)?$/;
const ABSOLUTE_FORM = /^https?:\/\//i;

/** How many Host lines the request carries (Node keeps only the first in `headers`). */
function hostLines(raw: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    // The usual spellings are compared as they are: lower-casing makes a string per header.
    if (name.length === 4 && (name === 'Host' || name === 'host' || name.toLowerCase() === 'host')) n++;
  }
  return n;
}

/**
 * True (and answered) for a request whose Host is missing under HTTP/1.1, empty, not a host
 * (`a b`, `user@host`) or given twice (400, RFC 9112 §3.2), or names a site this server does not
 * answer for (421). A request in absolute form (`GET http://host/path`, RFC 9112 §3.2.2) is
 * checked on its target's authority and handed on in origin form. A request without Host under
 * HTTP/1.0 has nothing to check.
 */
export function createHostCheck(policy: HostPolicy): (req: http.IncomingMessage, res: http.ServerResponse) => boolean {
  const misdirected = new ApiError(421, PROTOCOL_CODES.misdirected, 'Este servidor no atiende a ese nombre de host.',
    `Use la dirección del sitio, ${policy.siteUrl}.`);
  // Clients send the same few values: the verdict of each is kept (bounded), and the last one
  // is compared first (a comparison of a few characters; a map lookup hashes the value).
  const verdicts = memoize((host: string): ApiError | null =>
    host === '' || !HOST_VALUE.test(host) ? BAD_HOST : policy.allowsHost(host) ? null : misdirected, 256);
  let lastHost: string | undefined;
  let lastVerdict: ApiError | null = null;
  const verdict = (host: string): ApiError | null => {
    if (host !== lastHost) {
      lastVerdict = verdicts(host);
      lastHost = host;
    }
    return lastVerdict;
  };
  return (req, res) => {
    let host = req.headers.host;
    const url = req.url ?? '/';
    if (url.charCodeAt(0) !== 47 && ABSOLUTE_FORM.test(url)) {
      const rest = url.slice(url.indexOf('//') + 2);
      const end = rest.search(/[/?#]/);
      host = end === -1 ? rest : rest.slice(0, end);
      const path = end === -1 ? '/' : rest.slice(end);
      req.url = path.charCodeAt(0) === 47 ? path : '/' + path;
    }
    let refusal: ApiError | null;
    if (host === undefined) {
      if (req.httpVersionMajor !== 1 || req.httpVersionMinor === 0) return false;
      refusal = NO_HOST;
    } else {
      refusal = hostLines(req.rawHeaders) > 1 ? BAD_HOST : verdict(host);
      if (refusal === null) return false;
    }
    if (refusal.status === 400) res.shouldKeepAlive = false;
    sendJson(res, refusal.status, errorBody(refusal), { 'Cache-Control': 'no-store' });
    return true;
  };
}

export function answerClientErrors(server: http.Server): void {
  const answered = new WeakSet<Duplex>();
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: ParserSocket) => {
    // The parser reports every later chunk of a refused connection again: answer once.
    if (answered.has(socket)) return;
    answered.add(socket);
    // As Node's own handler: answer only when no response has started on this connection.
    if (err.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    const answer = err.code === 'HPE_HEADER_OVERFLOW' ? TOO_LARGE : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? TIMEOUT : BAD_REQUEST;
    // An answer to HEAD has no body, or the client would read it as the next answer.
    const head = err.rawPacket !== undefined && err.rawPacket.subarray(0, 5).toString('latin1') === 'HEAD ';
    closeLingering(socket, head ? answer.head : answer.full);
  });
  server.on('connect', (_req: http.IncomingMessage, socket: Duplex) => closeLingering(socket, CONNECT));
  server.on('checkExpectation', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.shouldKeepAlive = false;
    sendJson(res, EXPECTATION.status, errorBody(EXPECTATION), { 'Cache-Control': 'no-store' });
  });
}
