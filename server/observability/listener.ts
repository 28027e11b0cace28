/**
 * The metrics listener (METRICS_PORT, METRICS_HOST): `GET /metrics` in the Prometheus text
 * format, on its own port, bound to loopback unless told otherwise, so metrics are never public by
 * accident and a scrape never counts in the API's metrics or quotas.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { Logger } from '../log.ts';

export const METRICS_PATH = '/metrics';

export interface MetricsListenerOptions {
  registry: Registry;
  host: string;
  port: number;
  log: Logger;
}

export interface MetricsListener {
  /** e.g. http://127.0.0.1:9464 */
  url: string;
  close(): Promise<void>;
}

export async function startMetricsListener(options: MetricsListenerOptions): Promise<MetricsListener> {
  const { registry, log } = options;
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const text = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
      res.end(body);
    };
    if (path !== METRICS_PATH) { text(404, `Not found: metrics are at ${METRICS_PATH}\n`); return; }
    if (req.method !== 'GET' && req.method !== 'HEAD') { text(405, 'Method not allowed\n', { Allow: 'GET, HEAD' }); return; }
    registry.metrics().then(
      (body) => {
        res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' });
        res.end(body);
      },
      (err: unknown) => {
        log.error('metrics: collecting failed', err);
        text(500, 'Metrics could not be collected\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => { server.off('error', reject); resolve(); });
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
