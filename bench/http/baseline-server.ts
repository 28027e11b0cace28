/**
 * The baseline: a bare node:http server, nothing else. For each benchmarked request it answers a
 * response captured from the real server — same status, same header names and values, same body
 * bytes — prepared once as a buffer, so the only difference left is what the server does per
 * request. Request bodies (MCP's POST) are read to the end before answering, as any server must.
 *
 * Routes arrive over IPC from the benchmark: `{ id, route: { method, path, status, headers, body } }`
 * (headers as a flat [name, value, …] list, body base64); each is acknowledged with `{ reply: id }`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface Route { status: number; headers: string[]; body: Buffer }

const routes = new Map<string, Route>();

const server = http.createServer((req, res) => {
  const route = routes.get(req.method + ' ' + req.url);
  if (route === undefined) {
    res.statusCode = 404;
    res.end();
    return;
  }
  if (req.method === 'GET' || req.method === 'HEAD') {
    res.writeHead(route.status, route.headers);
    res.end(route.body);
    return;
  }
  req.on('data', () => {});
  req.on('end', () => {
    res.writeHead(route.status, route.headers);
    res.end(route.body);
  });
});
// The real server's keep-alive timeout, so both announce the same `Keep-Alive` header.
server.keepAliveTimeout = 5000;

process.on('message', (m: { id: number; route?: { method: string; path: string; status: number; headers: string[]; body: string } }) => {
  if (m.route) {
    const { method, path, status, headers, body } = m.route;
    routes.set(method + ' ' + path, { status, headers, body: Buffer.from(body, 'base64') });
  }
  process.send!({ reply: m.id, value: true });
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.send!({ ready: true, url: `http://127.0.0.1:${port}` });
});
