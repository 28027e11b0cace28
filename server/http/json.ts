/** JSON answers written in one `writeHead`. */
import type { ServerResponse } from 'node:http';
import type { Headers } from '../errors.ts';
import type { HeaderList } from './header-list.ts';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Writes a JSON answer: `list` (what the answer already carries: the API's version, CORS and
 * rate-limit headers), then `headers`, then the content headers.
 */
export function sendJson(res: ServerResponse, status: number, body: string | Buffer, headers: Headers = {}, list: HeaderList = []): void {
  for (const name in headers) list.push(name, '' + headers[name]);
  list.push('Content-Type', JSON_CONTENT_TYPE, 'Content-Length', '' + (typeof body === 'string' ? Buffer.byteLength(body) : body.length));
  res.writeHead(status, list);
  res.end(body);
}
