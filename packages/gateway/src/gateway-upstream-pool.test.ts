import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayCatalogueV1, GatewayTargetV1 } from './catalogue/gateway-catalogue-v1.js';
import { startGateway, type RunningGateway } from './start-gateway.js';
import { createLogCapture } from './test-support/log-capture.js';
import { TEST_CLIENT_KEY } from './test-support/simulator-catalogue.js';

const UPSTREAM_KEY = 'sk-pool-test-upstream-key-000';
const held: ServerResponse[] = [];
let busy: { url: string; requests: number; close(): Promise<void> };
let spare: { url: string; requests: number; close(): Promise<void> };
let gateway: RunningGateway;

/** An OpenAI-compatible upstream on a real socket: `hold` streams forever (until closed), else answers at once. */
async function upstream(hold: boolean): Promise<{ url: string; requests: number; close(): Promise<void> }> {
  const state = { url: '', requests: 0, close: async () => undefined as void };
  const server = createServer((request, response) => {
    state.requests += 1;
    request.resume();
    request.on('end', () => {
      if (hold) {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: 'hi' }, finish_reason: null }] })}\n\n`);
        held.push(response);
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ id: 'c2', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'from the spare' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 3, total_tokens: 4 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = () => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return state;
}

const target = (baseUrl: string, extra: Partial<GatewayTargetV1> = {}): GatewayTargetV1 => ({
  provider: 'local', family: 'openai-chat/v1', model: 'm', baseUrl, credentials: { apiKeyEnv: 'UPSTREAM_KEY' }, network: { allowLoopback: true }, ...extra,
});

beforeAll(async () => {
  busy = await upstream(true);
  spare = await upstream(false);
  const small = { maxConnections: 2, timeouts: { connectMs: 400 } };
  const catalogue: GatewayCatalogueV1 = {
    version: 1,
    clientKeys: [{ id: 'main', env: 'TEST_CLIENT_KEY' }],
    models: [
      { name: 'only-busy', taskKind: 'chat', targets: [target(busy.url, small)] },
      { name: 'busy-then-spare', taskKind: 'chat', targets: [target(busy.url, small), target(spare.url)] },
    ],
  };
  gateway = await startGateway({ catalogue, env: { TEST_CLIENT_KEY, UPSTREAM_KEY }, logger: createLogCapture() });
});
afterAll(async () => {
  for (const response of held) response.destroy();
  await gateway.close();
  await busy.close();
  await spare.close();
});

const openAi = (model: string, stream: boolean, signal?: AbortSignal) =>
  fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_CLIENT_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'hi' }] }),
    ...(signal === undefined ? {} : { signal }),
  });

describe('a target whose connections are all busy (targets[].maxConnections)', () => {
  it('fills the pool, then answers a retryable 503 within connectMs instead of a silent queue, and falls back where it can', async () => {
    const controller = new AbortController();
    // Two open streams fill the busy target's two connections (each model has its own transport per target).
    const streams = [await openAi('only-busy', true, controller.signal), await openAi('only-busy', true, controller.signal)];
    for (const stream of streams) expect(stream.status).toBe(200);
    for (const stream of streams) await stream.body?.getReader().read();
    expect(busy.requests).toBe(2);

    const started = performance.now();
    const refused = await openAi('only-busy', true);
    const waited = performance.now() - started;
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('overloaded');
    expect(waited).toBeGreaterThanOrEqual(350);
    expect(waited).toBeLessThan(3_000);
    expect(busy.requests).toBe(2);

    const anthropic = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': TEST_CLIENT_KEY, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'only-busy', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(anthropic.status).toBeGreaterThanOrEqual(503);
    expect(await anthropic.json()).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
    controller.abort();
  });

  it('a request that finds the first target full falls back to the next one', async () => {
    const controller = new AbortController();
    const streams = [await openAi('busy-then-spare', true, controller.signal), await openAi('busy-then-spare', true, controller.signal)];
    for (const stream of streams) await stream.body?.getReader().read();
    const before = spare.requests;
    const answered = await openAi('busy-then-spare', false);
    expect(answered.status).toBe(200);
    expect(((await answered.json()) as { choices: { message: { content: string } }[] }).choices[0]?.message.content).toBe('from the spare');
    expect(spare.requests).toBe(before + 1);
    controller.abort();
  });
});
