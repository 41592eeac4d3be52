import type { GatewayMetricsV1 } from '../catalogue/gateway-catalogue-v1.js';
import type { GatewayMetrics } from './gateway-metrics.js';
import { startMetricsServer, type MetricsServer } from './metrics-server.js';

/** What {@link MetricsEndpoint.apply} did. */
export type MetricsEndpointChange = 'unchanged' | 'started' | 'rebound' | 'stopped';

/**
 * The metrics endpoint of a gateway, which a reload may move: a new port or host is bound first and the old
 * listener closed only once the new one listens, so a failed bind (port taken) leaves the old endpoint serving.
 */
export class MetricsEndpoint {
  readonly #metrics: GatewayMetrics;
  #server: MetricsServer | undefined;
  #options: GatewayMetricsV1 | undefined;

  constructor(metrics: GatewayMetrics) {
    this.#metrics = metrics;
  }

  /** `http://<host>:<port>` of the endpoint serving now (absent: none). */
  get url(): string | undefined {
    return this.#server?.url;
  }

  /** Serves `options` (absent: no endpoint). Throws the bind error and keeps what served before when it cannot listen. */
  async apply(options: GatewayMetricsV1 | undefined): Promise<MetricsEndpointChange> {
    const before = this.#options;
    if (before?.port === options?.port && (before?.host ?? '127.0.0.1') === (options?.host ?? '127.0.0.1')) return 'unchanged';
    const previous = this.#server;
    const next = options === undefined ? undefined : await startMetricsServer(this.#metrics, { port: options.port, ...(options.host === undefined ? {} : { host: options.host }) });
    this.#server = next;
    this.#options = options;
    await previous?.close();
    return next === undefined ? 'stopped' : previous === undefined ? 'started' : 'rebound';
  }

  async close(): Promise<void> {
    await this.#server?.close();
    this.#server = undefined;
  }
}
