// A listener of its own for GET /metrics (--metrics-port), always on 127.0.0.1: scrapes need not
// pass through the MCP listener's host checks, and metrics are not exposed where MCP is.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProxyMetrics } from './metrics.js';

export const METRICS_PATH = '/metrics';

export interface MetricsListener {
  url: string;
  close(): Promise<void>;
}

export async function startMetricsListener(port: number, metrics: ProxyMetrics): Promise<MetricsListener> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== METRICS_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: metrics are at GET /metrics\n');
      return;
    }
    metrics.expose().then(
      ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(req.method === 'HEAD' ? undefined : body),
      (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${err.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}${METRICS_PATH}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
