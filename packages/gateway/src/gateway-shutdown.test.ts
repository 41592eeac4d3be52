import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway } from './start-gateway.js';
import { createLogCapture, eventually } from './test-support/log-capture.js';
import { simulatorCatalogue, TEST_CLIENT_KEY } from './test-support/simulator-catalogue.js';

const DRAIN_MS = 1500;
let simulator: ProviderSimulator;
let upstream: Server;
let upstreamUrl: string;

/** An OpenAI-chat upstream that streams one text delta and then holds the stream open until the gateway leaves. */
function holdingUpstream(): Server {
  return createServer((request, response) => {
    request.resume();
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hel' }, finish_reason: null }] };
    response.write(`data: ${JSON.stringify(chunk)}\n\n`);
  });
}

beforeAll(async () => {
  simulator = await startProviderSimulator();
  upstream = holdingUpstream();
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
  await simulator.close();
});

const openAi = { authorization: `Bearer ${TEST_CLIENT_KEY}`, 'content-type': 'application/json' };
const anthropic = { 'x-api-key': TEST_CLIENT_KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' };
const gemini = { 'x-goog-api-key': TEST_CLIENT_KEY, 'content-type': 'application/json' };
const messages = [{ role: 'user', content: 'hi' }];

/** A streamed request whose head has arrived; `rest` is the whole body text once the gateway ends it. */
async function openStream(url: string, headers: Record<string, string>, body: object): Promise<{ status: number; text: Promise<string> }> {
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: response.status, text: response.text() };
}

describe('shutdown (issue #30 item 6)', () => {
  it('at the drain deadline every open stream ends with its dialect’s in-stream error, /readyz is 503 during the drain, and every request has its log line', async () => {
    const log = createLogCapture();
    const { catalogue, env } = simulatorCatalogue(
      simulator,
      [
        // Every client dialect is served from the same holding OpenAI-chat upstream.
        { name: 'held', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'm', baseUrl: upstreamUrl }] },
        { name: 'slow', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'slow-first-byte.60000' }] },
      ],
      { drainTimeoutMs: DRAIN_MS },
    );
    const gateway = await startGateway({ catalogue, env, logger: log });
    const url = gateway.url;
    const streams = await Promise.all([
      openStream(`${url}/v1/chat/completions`, openAi, { model: 'held', stream: true, messages }),
      openStream(`${url}/v1/messages`, anthropic, { model: 'held', max_tokens: 16, stream: true, messages }),
      openStream(`${url}/v1beta/models/held:streamGenerateContent?alt=sse`, gemini, { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
      openStream(`${url}/v1/responses`, openAi, { model: 'held', stream: true, input: 'hi' }),
    ]);
    expect(streams.map((stream) => stream.status)).toEqual([200, 200, 200, 200]);
    const sync = fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: openAi, body: JSON.stringify({ model: 'slow', messages }) });
    await eventually(() => gateway.inFlight === 5);
    // A body still arriving at the deadline (it holds no slot) is answered too.
    const { hostname, port } = new URL(url);
    const slowBody = connect({ host: hostname, port: Number(port) });
    slowBody.write(`POST /v1/chat/completions HTTP/1.1\r\nHost: g\r\nAuthorization: Bearer ${TEST_CLIENT_KEY}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`);
    const slowBodyAnswer = new Promise<string>((resolve) => {
      let text = '';
      slowBody.on('data', (chunk) => (text += chunk.toString('utf8')));
      slowBody.on('error', () => {});
      slowBody.once('close', () => resolve(text));
    });

    const started = performance.now();
    const closed = gateway.close();
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(503);
    const refusedOpenAi = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: openAi, body: JSON.stringify({ model: 'held', messages }) });
    expect(refusedOpenAi.status).toBe(503);
    expect(refusedOpenAi.headers.get('retry-after')).toBe('1');
    expect(await refusedOpenAi.json()).toMatchObject({ error: { code: 'gateway_unavailable', message: 'The gateway is shutting down; retry on another instance.' } });
    const refusedAnthropic = await fetch(`${url}/v1/messages`, { method: 'POST', headers: anthropic, body: JSON.stringify({ model: 'held', max_tokens: 8, messages }) });
    expect(refusedAnthropic.status).toBe(529);
    expect(await refusedAnthropic.json()).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });

    const [chatText, anthropicText, geminiText, responsesText] = await Promise.all(streams.map((stream) => stream.text));
    expect(performance.now() - started).toBeGreaterThanOrEqual(DRAIN_MS - 50);
    expect(chatText).toMatch(/data: \{"error":\{[^\n]*"type":"server_error"/);
    expect(anthropicText).toMatch(/event: error\ndata: \{"type":"error","error":\{"type":"overloaded_error"/);
    expect(geminiText).toMatch(/"error":\{"code":503,[^\n]*"status":"UNAVAILABLE"/);
    expect(responsesText).toContain('event: response.failed');
    const syncAnswer = await sync;
    expect(syncAnswer.status).toBe(503);
    expect(await syncAnswer.json()).toMatchObject({ error: { code: 'gateway_unavailable' } });
    expect(await slowBodyAnswer).toMatch(/^HTTP\/1\.1 503/);
    await closed;

    // Four streams, one sync request and one body cut at the deadline, two refused during the drain: eight lines.
    const lines = log.requests();
    expect(lines).toHaveLength(8);
    expect(lines.map((line) => line.outcome).sort()).toEqual([
      'cancelled:shutdown',
      'cancelled:shutdown',
      'failed-in-stream:shutdown',
      'failed-in-stream:shutdown',
      'failed-in-stream:shutdown',
      'failed-in-stream:shutdown',
      'refused:draining',
      'refused:draining',
    ]);
    await expect(fetch(`${url}/readyz`)).rejects.toThrow();
  }, 30_000);
});
