import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from './start-gateway.js';
import { createLogCapture, eventually } from './test-support/log-capture.js';
import { simulatorCatalogue, TEST_CLIENT_KEY } from './test-support/simulator-catalogue.js';

let simulator: ProviderSimulator;
let gateway: RunningGateway;
const log = createLogCapture();

beforeAll(async () => {
  simulator = await startProviderSimulator();
  const { catalogue, env } = simulatorCatalogue(simulator, [
    { name: 'chat', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'gpt-4.1-mini' }] },
    { name: 'flaky', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'error.503' }, { family: 'anthropic-messages/v1', model: 'claude-sonnet-4-5' }] },
  ]);
  gateway = await startGateway({ catalogue: { ...catalogue, metrics: { port: 0 } }, env, logger: log });
});
afterAll(async () => {
  await gateway.close();
  await simulator.close();
});

const chat = (model: string, headers: Record<string, string> = {}, path = '/v1/chat/completions') =>
  fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_CLIENT_KEY}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }], stream: false }),
  });

async function scrape(): Promise<string> {
  const response = await fetch(`${gateway.metricsUrl}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** Every label value of every series in a Prometheus exposition. */
function labelValues(exposition: string): Set<string> {
  const values = new Set<string>();
  for (const line of exposition.split('\n')) {
    if (line.startsWith('#')) continue;
    for (const match of line.matchAll(/[a-z_]+="((?:[^"\\]|\\.)*)"/g)) values.add(match[1] as string);
  }
  return values;
}

describe('GET /metrics on its own port', () => {
  it('binds 127.0.0.1 and is not served on the client port', async () => {
    expect(gateway.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(gateway.metricsUrl).not.toBe(gateway.url);
    expect((await fetch(`${gateway.url}/metrics`)).status).toBe(404);
  });

  it('counts requests, attempts, outcomes, latency, first byte, tokens and in-flight requests, plus process metrics', async () => {
    const before = log.requests().length;
    expect((await chat('chat')).status).toBe(200);
    expect((await chat('flaky')).status).toBe(200);
    await eventually(() => log.requests().length >= before + 2);
    const text = await scrape();
    expect(text).toMatch(/tokenforge_gateway_requests_total\{route="POST \/v1\/chat\/completions",model="chat",outcome="completed",code="",status="200"\} [1-9]/);
    expect(text).toMatch(/tokenforge_gateway_attempts_total\{model="flaky",target="flaky#0",provider="simulator",outcome="provider-error"\} [1-9]/);
    expect(text).toMatch(/tokenforge_gateway_attempts_total\{model="flaky",target="flaky#1",provider="simulator",outcome="ok"\} 1/);
    expect(text).toMatch(/tokenforge_gateway_request_duration_seconds_count\{route="POST \/v1\/chat\/completions",model="chat"\} [1-9]/);
    expect(text).toMatch(/tokenforge_gateway_time_to_first_byte_seconds_bucket\{le="\+Inf",route="POST \/v1\/chat\/completions",model="chat"\} [1-9]/);
    expect(text).toMatch(/tokenforge_gateway_tokens_total\{model="chat",target="chat#0",kind="input"\} [1-9]/);
    expect(text).toMatch(/tokenforge_gateway_in_flight_requests 0/);
    expect(text).toMatch(/^process_cpu_seconds_total /m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes /m);
  });

  it('counts refusals by code', async () => {
    const before = log.requests().length;
    expect((await chat('chat', { authorization: 'Bearer wrong-key-0123456789' })).status).toBe(401);
    await eventually(() => log.requests().length >= before + 1);
    expect(await scrape()).toMatch(/tokenforge_gateway_requests_total\{route="POST \/v1\/chat\/completions",model="other",outcome="refused",code="client-key",status="401"\} 1/);
  });

  it('never turns an unknown model name or another client-chosen string into a label value', async () => {
    const before = log.requests().length;
    const chosen = ['attacker-model-7f3a9', 'x'.repeat(120), 'gpt-4o"}evil{', 'sim-openai-chat'];
    for (const model of chosen) await chat(model, { 'x-request-id': 'client-chosen-id-42', 'user-agent': 'client-chosen-agent' });
    // A Gemini path carries the model in the URL.
    await fetch(`${gateway.url}/v1beta/models/path-chosen-model:generateContent?key=${TEST_CLIENT_KEY}`, { method: 'POST', body: '{"contents":[]}' });
    await eventually(() => log.requests().length >= before + chosen.length + 1);
    const values = labelValues(await scrape());
    for (const value of [...chosen, 'client-chosen-id-42', 'client-chosen-agent', 'path-chosen-model']) expect(values.has(value)).toBe(false);
    expect(values.has('other')).toBe(true);
    for (const value of values) expect(['chat', 'flaky', 'flaky#0', 'flaky#1', 'chat#0', 'simulator', 'other', ''].includes(value) || /^[A-Za-z0-9_.:+\-/ {}]+$/.test(value)).toBe(true);
  });
});
