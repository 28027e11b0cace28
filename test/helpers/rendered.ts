/**
 * The bytes a renderer writes on a real ServerResponse: an HTTP server in this process answers
 * one request with `write`, and the answer comes back as sent (status line, headers in order,
 * body), without the Date line. For unit tests of the error renderers.
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';

export async function rendered(write: (res: http.ServerResponse) => void): Promise<string> {
  const server = http.createServer((_req, res) => write(res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await new Promise<string>((resolve, reject) => {
      const socket = net.connect((server.address() as AddressInfo).port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8').replace(/\r\nDate: [^\r]*/, '')));
      socket.end('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    });
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** A whole answer as `rendered` gives it: the status line, the headers, a blank line, the body. */
export const answer = (status: string, headers: readonly string[], body: string): string =>
  [`HTTP/1.1 ${status}`, ...headers, '', body].join('\r\n');

/** The headers sendJson ends with, for `body`, on a connection the request asked to close. */
export const jsonHeaders = (body: string): string[] =>
  ['Content-Type: application/json; charset=utf-8', `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close'];
