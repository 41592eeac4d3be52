/**
 * What the gateway's telemetry costs per request on the no-op API (no SDK registered) and with an SDK whose spans
 * and metrics stay in memory: one request span, one attempt span, the end with usage and the metrics.
 * Run: npx --yes pnpm@12.4.2 exec tsx packages/gateway/src/bench/measure-telemetry-overhead.ts
 */
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { GatewayTelemetry, type GatewayTelemetryOptions } from '../telemetry/gateway-telemetry.js';

class Reader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

const TARGET = { provider: 'acme', family: 'openai-chat/v1', ref: 'chat#0' };

function perRequestNs(options: GatewayTelemetryOptions, rounds: number, reset: () => void): number {
  const telemetry = new GatewayTelemetry(options);
  const run = (count: number): number => {
    const started = process.hrtime.bigint();
    for (let index = 0; index < count; index += 1) {
      const request = telemetry.startRequest('POST /v1/chat/completions');
      request.startAttempt(TARGET, 'chat', 'chat')({ outcome: 'ok' });
      request.end({ status: 200, outcome: 'completed', model: 'chat', taskKind: 'chat', target: TARGET, attempts: 1, streamed: false, usage: { inputTokens: 12, outputTokens: 34 }, finishReason: { unified: 'stop' } });
      if (index % 1000 === 999) reset();
    }
    return Number(process.hrtime.bigint() - started) / count;
  };
  run(rounds / 10);
  return run(rounds);
}

const exporter = new InMemorySpanExporter();
const noop = perRequestNs({}, 200_000, () => undefined);
const sdk = perRequestNs(
  { tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }), meterProvider: new MeterProvider({ readers: [new Reader()] }) },
  50_000,
  () => exporter.reset(),
);
console.log(`telemetry per request: no SDK ${(noop / 1000).toFixed(2)} us, in-memory SDK ${(sdk / 1000).toFixed(2)} us`);
