import type { Attributes } from '@opentelemetry/api';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../start-gateway.js';
import { createLogCapture, eventually } from '../test-support/log-capture.js';
import { simulatorCatalogue, TEST_CLIENT_KEY } from '../test-support/simulator-catalogue.js';
import { GATEWAY_INSTRUMENTATION_SCOPE } from './gateway-telemetry.js';

class CollectingReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const reader = new CollectingReader();
const meterProvider = new MeterProvider({ readers: [reader] });
const log = createLogCapture();
const CATALOGUE_MODELS = ['card-chat', 'card-fallback'];
const UNKNOWN_NAMES = 600;
let simulator: ProviderSimulator;
let gateway: RunningGateway;

beforeAll(async () => {
  simulator = await startProviderSimulator();
  const { catalogue, env } = simulatorCatalogue(simulator, [
    { name: 'card-chat', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'upstream-chat' }] },
    { name: 'card-fallback', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'error.500' }, { family: 'anthropic-messages/v1', model: 'upstream-y' }] },
  ]);
  gateway = await startGateway({ catalogue, env, logger: log, telemetry: { tracerProvider, meterProvider } });
});
afterAll(async () => {
  await gateway.close();
  await simulator.close();
  await tracerProvider.shutdown();
  await meterProvider.shutdown();
});

/** One request in a dialect chosen by `index`, for `model`, on a real socket. */
function send(index: number, model: string): Promise<Response> {
  const body = { messages: [{ role: 'user', content: 'hi' }] };
  switch (index % 3) {
    case 0:
      return fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${TEST_CLIENT_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ model, ...body }) });
    case 1:
      return fetch(`${gateway.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': TEST_CLIENT_KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model, max_tokens: 16, ...body }),
      });
    default:
      return fetch(`${gateway.url}/v1beta/models/${encodeURIComponent(model)}:generateContent`, {
        method: 'POST',
        headers: { 'x-goog-api-key': TEST_CLIENT_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
      });
  }
}

describe('client-chosen model names never become series, span names or aggregated log fields', () => {
  it(`${UNKNOWN_NAMES} unknown model names across three dialects add one "unknown" value, beside the catalogue names`, async () => {
    const names = Array.from({ length: UNKNOWN_NAMES }, (_, index) => `made-up-model-${index}-${Math.random().toString(36).slice(2, 8)}`);
    for (let start = 0; start < names.length; start += 32) {
      const statuses = await Promise.all(names.slice(start, start + 32).map(async (name, offset) => (await send(start + offset, name)).status));
      for (const status of statuses) expect(status).toBe(404);
    }
    for (const [index, model] of CATALOGUE_MODELS.entries()) expect((await send(index * 3, model)).status).toBe(200);
    await eventually(() => log.requests().length >= UNKNOWN_NAMES + CATALOGUE_MODELS.length, 10_000);

    const allowed = new Set([...CATALOGUE_MODELS, 'unknown']);
    const { resourceMetrics } = await reader.collect();
    const modelValues = new Set<unknown>();
    let series = 0;
    for (const scope of resourceMetrics.scopeMetrics) {
      if (scope.scope.name !== GATEWAY_INSTRUMENTATION_SCOPE) continue;
      for (const metric of scope.metrics) {
        for (const point of metric.dataPoints as { attributes: Attributes }[]) {
          series += 1;
          for (const value of Object.values(point.attributes)) if (typeof value === 'string' && value.startsWith('made-up-model')) modelValues.add(value);
          if (point.attributes['gen_ai.request.model'] !== undefined) modelValues.add(point.attributes['gen_ai.request.model']);
        }
      }
    }
    expect([...modelValues].filter((value) => !allowed.has(String(value)))).toEqual([]);
    expect(modelValues.has('unknown')).toBe(true);
    expect(series).toBeLessThan(60);

    const spans = exporter.getFinishedSpans().filter((span) => span.instrumentationScope.name === GATEWAY_INSTRUMENTATION_SCOPE);
    const leaking = spans.filter((span) => JSON.stringify([span.name, span.attributes]).includes('made-up-model'));
    expect(leaking.map((span) => span.name)).toEqual([]);
    expect(new Set(spans.map((span) => span.name)).size).toBeLessThan(20);

    const loggedModels = new Set(log.requests().map((line) => line.model).filter((model) => model !== undefined));
    expect([...loggedModels].filter((model) => !allowed.has(String(model)))).toEqual([]);
    expect(log.lines.join('\n')).not.toContain('made-up-model');
  });
});
