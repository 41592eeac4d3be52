import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GatewayMetrics } from './gateway-metrics.js';

/** Options of {@link startMetricsServer}. */
export interface MetricsServerOptions {
  readonly port: number;
  /** Default `127.0.0.1`. */
  readonly host?: string;
  /**
   * Whether a scrape may read the metrics (default: every request on this port). The seam for an admin key: the
   * admin API can also serve {@link GatewayMetrics.render} behind its own check.
   */
  readonly authorize?: (request: IncomingMessage) => boolean;
}

/** A running metrics endpoint. */
export interface MetricsServer {
  /** `http://<host>:<port>` (the metrics are at `/metrics`). */
  readonly url: string;
  close(): Promise<void>;
}

/** Serves `GET /metrics` (Prometheus text format) on a port of its own; anything else is a 404. */
export async function startMetricsServer(metrics: GatewayMetrics, options: MetricsServerOptions): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    if (options.authorize !== undefined && !options.authorize(request)) {
      response.writeHead(401, { 'content-type': 'text/plain' }).end('unauthorized\n');
      return;
    }
    metrics.render().then(
      ({ contentType, body }) => response.writeHead(200, { 'content-type': contentType }).end(body),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics failed\n'),
    );
  });
  server.keepAliveTimeout = 5_000;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
