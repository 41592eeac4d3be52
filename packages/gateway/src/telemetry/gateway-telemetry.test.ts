import { metrics, trace, type Attributes } from '@opentelemetry/api';
import { MeterProvider, MetricReader, type HistogramMetricData } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import OpenAI from 'openai';
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
const PROVIDER_LABEL = 'acme-sim';
const PROMPT_CANARY = 'CANARY-PROMPT-7f3a9c1e-do-not-record';

let simulator: ProviderSimulator;
let gateway: RunningGateway;
let secrets: string[];
const outputs: string[] = [];
let jobId = 'no-job-yet';

beforeAll(async () => {
  // What an operator does: register an SDK globally before the gateway starts.
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  simulator = await startProviderSimulator();
  const { catalogue, env } = simulatorCatalogue(
    simulator,
    [
      { name: 'otel-chat', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'upstream-model-x' }] },
      { name: 'otel-fallback', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'error.500' }, { family: 'anthropic-messages/v1', model: 'upstream-model-y' }] },
      { name: 'otel-refused', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'error.400' }] },
      { name: 'otel-video', taskKind: 'video-generation', targets: [{ family: 'kling-video/v1', model: 'upstream-video-v' }] },
      { name: 'otel-embed', taskKind: 'embedding', targets: [{ family: 'openai-embeddings/v1', model: 'upstream-embed-z', capability: { embedding: { spaceId: 'simulator-embedding-16', defaultDimensions: 16 } } }] },
    ],
    { maxAttempts: 3 },
  );
  const labelled = { ...catalogue, models: catalogue.models.map((model) => ({ ...model, targets: model.targets.map((target) => ({ ...target, provider: PROVIDER_LABEL })) })) };
  secrets = [TEST_CLIENT_KEY, ...Object.values(env)];
  gateway = await startGateway({ catalogue: labelled, env, logger: createLogCapture() });
});
afterAll(async () => {
  await gateway.close();
  await simulator.close();
  trace.disable();
  metrics.disable();
  await tracerProvider.shutdown();
  await meterProvider.shutdown();
});

const openAi = (): OpenAI => new OpenAI({ apiKey: TEST_CLIENT_KEY, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
const scoped = (span: ReadableSpan): boolean => span.instrumentationScope.name === GATEWAY_INSTRUMENTATION_SCOPE;

function requestSpan(model: string): ReadableSpan {
  const span = exporter.getFinishedSpans().find((entry) => scoped(entry) && entry.parentSpanContext === undefined && entry.attributes['gen_ai.request.model'] === model);
  if (span === undefined) throw new Error(`no request span for ${model}`);
  return span;
}
const attemptsOf = (parent: ReadableSpan): ReadableSpan[] =>
  exporter.getFinishedSpans().filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId);

async function histogram(name: string): Promise<HistogramMetricData | undefined> {
  const { resourceMetrics } = await reader.collect();
  for (const scope of resourceMetrics.scopeMetrics) {
    if (scope.scope.name !== GATEWAY_INSTRUMENTATION_SCOPE) continue;
    const found = scope.metrics.find((metric) => metric.descriptor.name === name);
    if (found !== undefined) return found as HistogramMetricData;
  }
  return undefined;
}
const pointFor = (data: HistogramMetricData | undefined, match: Attributes) =>
  data?.dataPoints.find((point) => Object.entries(match).every(([key, value]) => point.attributes[key] === value));

describe('OpenTelemetry GenAI spans and metrics of the gateway', () => {
  it('a sync chat call: one server span named after the public model, its attempt, usage and finish reason', async () => {
    const completion = await openAi().chat.completions.create({ model: 'otel-chat', messages: [{ role: 'user', content: `Say hello. ${PROMPT_CANARY}` }] });
    outputs.push(completion.choices[0]?.message.content ?? '');
    await eventually(() => exporter.getFinishedSpans().some((span) => span.attributes['gen_ai.request.model'] === 'otel-chat' && span.parentSpanContext === undefined));
    const span = requestSpan('otel-chat');
    expect(span.name).toBe('chat otel-chat');
    expect(span.kind).toBe(1); // SERVER
    expect(span.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': PROVIDER_LABEL,
      'gen_ai.request.model': 'otel-chat',
      'gen_ai.request.stream': false,
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': completion.usage?.prompt_tokens,
      'gen_ai.usage.output_tokens': completion.usage?.completion_tokens,
      'http.response.status_code': 200,
      'tokenforge.gateway.attempts': 1,
    });
    expect(span.attributes['error.type']).toBeUndefined();
    // What the provider reported is carried (OpenAI reports cached tokens, even 0); what it did not stays absent.
    expect(span.attributes['gen_ai.usage.cache_read.input_tokens']).toBe(completion.usage?.prompt_tokens_details?.cached_tokens);
    expect(span.attributes['gen_ai.usage.cache_creation.input_tokens']).toBeUndefined();
    expect(span.attributes['gen_ai.response.time_to_first_chunk']).toBeUndefined();
    const attempts = attemptsOf(span);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]?.kind).toBe(2); // CLIENT
    expect(attempts[0]?.attributes).toMatchObject({ 'gen_ai.provider.name': PROVIDER_LABEL, 'gen_ai.request.model': 'otel-chat', 'tokenforge.target.family': 'openai-chat/v1' });

    const duration = pointFor(await histogram('gen_ai.client.operation.duration'), { 'gen_ai.request.model': 'otel-chat' });
    expect(duration?.value.count).toBe(1);
    expect(duration?.attributes).toEqual({ 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'otel-chat', 'gen_ai.provider.name': PROVIDER_LABEL });
    const tokens = await histogram('gen_ai.client.token.usage');
    expect(pointFor(tokens, { 'gen_ai.request.model': 'otel-chat', 'gen_ai.token.type': 'input' })?.value.sum).toBe(completion.usage?.prompt_tokens);
    expect(pointFor(tokens, { 'gen_ai.request.model': 'otel-chat', 'gen_ai.token.type': 'output' })?.value.sum).toBe(completion.usage?.completion_tokens);
    expect(pointFor(await histogram('gen_ai.client.operation.time_to_first_chunk'), { 'gen_ai.request.model': 'otel-chat' })).toBeUndefined();
  });

  it('a stream that fell back: a failed attempt with its code, then the answer, and time to first chunk', async () => {
    const stream = await openAi().chat.completions.create({
      model: 'otel-fallback',
      messages: [{ role: 'user', content: `Say hello. ${PROMPT_CANARY}` }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    outputs.push(text);
    await eventually(() => exporter.getFinishedSpans().some((span) => span.attributes['gen_ai.request.model'] === 'otel-fallback' && span.parentSpanContext === undefined));
    const span = requestSpan('otel-fallback');
    expect(span.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': PROVIDER_LABEL,
      'gen_ai.request.stream': true,
      'gen_ai.response.finish_reasons': ['stop'],
      'tokenforge.gateway.attempts': 2,
      'tokenforge.target.family': 'anthropic-messages/v1',
    });
    expect(span.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
    const firstChunk = span.attributes['gen_ai.response.time_to_first_chunk'] as number;
    expect(firstChunk).toBeGreaterThan(0);
    expect(firstChunk).toBeLessThan((span.duration[0] + span.duration[1] / 1e9) + 1e-6);
    const attempts = attemptsOf(span).sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
    expect(attempts.map((attempt) => attempt.attributes['error.type'])).toEqual(['provider-error', undefined]);
    expect(attempts[0]?.attributes).toMatchObject({ 'tokenforge.attempt.retryable': true, 'tokenforge.target.family': 'openai-chat/v1' });
    expect(attempts[0]?.status.code).toBe(2); // ERROR
    const ttfc = pointFor(await histogram('gen_ai.client.operation.time_to_first_chunk'), { 'gen_ai.request.model': 'otel-fallback' });
    expect(ttfc?.value.count).toBe(1);
  });

  it('a failed call: error.type on the span, its attempt and the duration metric', async () => {
    await expect(openAi().chat.completions.create({ model: 'otel-refused', messages: [{ role: 'user', content: PROMPT_CANARY }] })).rejects.toMatchObject({ status: 400 });
    await eventually(() => exporter.getFinishedSpans().some((span) => span.attributes['gen_ai.request.model'] === 'otel-refused' && span.parentSpanContext === undefined));
    const span = requestSpan('otel-refused');
    const errorType = span.attributes['error.type'];
    expect(typeof errorType).toBe('string');
    expect(span.status.code).toBe(2);
    expect(span.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'http.response.status_code': 400, 'tokenforge.gateway.attempts': 1 });
    expect(span.attributes['gen_ai.response.finish_reasons']).toBeUndefined();
    expect(attemptsOf(span)[0]?.attributes).toMatchObject({ 'error.type': errorType, 'tokenforge.attempt.retryable': false });
    const duration = pointFor(await histogram('gen_ai.client.operation.duration'), { 'gen_ai.request.model': 'otel-refused' });
    expect(duration?.attributes['error.type']).toBe(errorType);
  });

  it('an embeddings call is operation `embeddings`', async () => {
    await openAi().embeddings.create({ model: 'otel-embed', input: PROMPT_CANARY, encoding_format: 'float' });
    await eventually(() => exporter.getFinishedSpans().some((span) => span.attributes['gen_ai.request.model'] === 'otel-embed' && span.parentSpanContext === undefined));
    const span = requestSpan('otel-embed');
    expect(span.name).toBe('embeddings otel-embed');
    expect(span.attributes['gen_ai.operation.name']).toBe('embeddings');
  });

  it('a job create is a generate_content span with its attempt; a poll is a plain request span', async () => {
    const headers = { authorization: `Bearer ${TEST_CLIENT_KEY}`, 'content-type': 'application/json' };
    const created = await fetch(`${gateway.url}/v1/jobs`, { method: 'POST', headers, body: JSON.stringify({ model: 'otel-video', prompt: PROMPT_CANARY, durationSeconds: 5 }) });
    expect(created.status).toBe(202);
    jobId = ((await created.json()) as { id: string }).id;
    const polled = await fetch(`${gateway.url}/v1/jobs/${jobId}`, { headers });
    expect(polled.status).toBe(200);
    await polled.text();
    await eventually(() => exporter.getFinishedSpans().some((span) => span.name === 'GET /v1/jobs/{id}'));
    const span = requestSpan('otel-video');
    expect(span.name).toBe('generate_content otel-video');
    expect(span.attributes).toMatchObject({ 'gen_ai.operation.name': 'generate_content', 'gen_ai.provider.name': PROVIDER_LABEL, 'http.response.status_code': 202, 'tokenforge.gateway.outcome': 'accepted' });
    expect(span.attributes['error.type']).toBeUndefined();
    expect(attemptsOf(span).map((attempt) => attempt.attributes['tokenforge.target.family'])).toEqual(['kling-video/v1']);
    const poll = exporter.getFinishedSpans().find((entry) => entry.name === 'GET /v1/jobs/{id}');
    expect(poll?.attributes['error.type']).toBeUndefined();
    expect(poll?.attributes['gen_ai.operation.name']).toBeUndefined();
  });

  it('a refused client key is a span with error.type and no GenAI metric', async () => {
    await expect(new OpenAI({ apiKey: 'wrong-key-0123456789', baseURL: `${gateway.url}/v1`, maxRetries: 0 }).chat.completions.create({ model: 'otel-chat', messages: [] })).rejects.toMatchObject({ status: 401 });
    await eventually(() => exporter.getFinishedSpans().some((span) => span.attributes['error.type'] === 'client-key'));
    const span = exporter.getFinishedSpans().find((entry) => entry.attributes['error.type'] === 'client-key');
    expect(span?.name).toBe('POST /v1/chat/completions');
    expect(span?.attributes['gen_ai.request.model']).toBeUndefined();
  });

  it('canary: no prompt, output, key or provider model in any exported attribute, event or name', async () => {
    const spans = exporter.getFinishedSpans().filter(scoped);
    expect(spans.length).toBeGreaterThanOrEqual(8);
    const { resourceMetrics } = await reader.collect();
    const exported = JSON.stringify({
      spans: spans.map((span) => ({ name: span.name, attributes: span.attributes, events: span.events, status: span.status, links: span.links })),
      metrics: resourceMetrics.scopeMetrics.map((scope) => scope.metrics.map((metric) => metric.dataPoints.map((point) => point.attributes))),
    });
    const forbidden = [PROMPT_CANARY, 'Say hello', ...secrets, 'upstream-model-x', 'upstream-model-y', 'upstream-embed-z', 'upstream-video-v', jobId, 'error.500', 'error.400', simulator.url];
    for (const output of outputs) if (output.length >= 8) forbidden.push(output);
    expect(outputs.some((output) => output.length >= 8)).toBe(true);
    for (const value of forbidden) expect(exported.includes(value), value).toBe(false);
  });
});
