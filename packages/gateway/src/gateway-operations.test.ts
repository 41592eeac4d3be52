import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from './start-gateway.js';
import { createLogCapture, eventually } from './test-support/log-capture.js';
import { simulatorCatalogue, TEST_CLIENT_KEY } from './test-support/simulator-catalogue.js';

let simulator: ProviderSimulator;
let gateway: RunningGateway;
const log = createLogCapture();
const MAX_BODY = 4096;

beforeAll(async () => {
  simulator = await startProviderSimulator();
  const { catalogue, env } = simulatorCatalogue(
    simulator,
    [
      { name: 'chat', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'gpt-4.1-mini' }] },
      { name: 'claude', taskKind: 'chat', targets: [{ family: 'anthropic-messages/v1', model: 'claude-sonnet-4-5' }] },
      { name: 'slow', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'slow-first-byte.600' }] },
    ],
    { maxBodyBytes: MAX_BODY, maxConcurrentRequests: 1 },
  );
  gateway = await startGateway({ catalogue, env, logger: log });
});
afterAll(async () => {
  await gateway.close();
  await simulator.close();
});

const chatBody = (model = 'chat', content = 'hi'): string => JSON.stringify({ model, messages: [{ role: 'user', content }] });
const post = (path: string, body: string, headers: Record<string, string> = { authorization: `Bearer ${TEST_CLIENT_KEY}` }) =>
  fetch(`${gateway.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('client keys', () => {
  it('each SDK gets its own dialect’s 401 for a wrong key', async () => {
    await expect(new OpenAI({ apiKey: 'wrong-key-123456', baseURL: `${gateway.url}/v1`, maxRetries: 0 }).chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: 'hi' }] })).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    await expect(new Anthropic({ apiKey: 'wrong-key-123456', baseURL: gateway.url, maxRetries: 0 }).messages.create({ model: 'claude', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] })).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
    const gemini = new GoogleGenAI({ apiKey: 'wrong-key-123456', httpOptions: { baseUrl: gateway.url, retryOptions: { attempts: 1 } } });
    await expect(gemini.models.generateContent({ model: 'chat', contents: 'hi' })).rejects.toMatchObject({ status: 401 });
  });

  it('takes the Gemini key from ?key= and from x-goog-api-key, and a missing key is refused', async () => {
    const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
    expect((await post(`/v1beta/models/chat:generateContent?key=${TEST_CLIENT_KEY}`, body, {})).status).toBe(200);
    expect((await post('/v1beta/models/chat:generateContent', body, { 'x-goog-api-key': TEST_CLIENT_KEY })).status).toBe(200);
    expect((await post('/v1beta/models/chat:generateContent', body, {})).status).toBe(401);
  });
});

describe('limits and malformed requests', () => {
  it('an oversized body gets a clear dialect error and nothing is forwarded', async () => {
    const before = simulator.requests.length;
    const big = chatBody('chat', 'x'.repeat(MAX_BODY));
    const openAiAnswer = await post('/v1/chat/completions', big);
    expect(openAiAnswer.status).toBe(413);
    expect(await openAiAnswer.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    const anthropicAnswer = await post('/v1/messages', JSON.stringify({ model: 'claude', max_tokens: 8, messages: [{ role: 'user', content: 'x'.repeat(MAX_BODY) }] }), { 'x-api-key': TEST_CLIENT_KEY });
    expect(anthropicAnswer.status).toBe(413);
    expect(await anthropicAnswer.json()).toMatchObject({ type: 'error' });
    expect(simulator.requests.length).toBe(before);
  });

  it('malformed JSON and an unknown model are refused in the dialect’s envelope, nothing forwarded', async () => {
    const before = simulator.requests.length;
    const malformed = await post('/v1/chat/completions', '{"model": "chat", "messages": [');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    const unknown = await post('/v1/messages', JSON.stringify({ model: 'nope', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }), { 'x-api-key': TEST_CLIENT_KEY });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    expect(simulator.requests.length).toBe(before);
  });

  it('the concurrency cap answers 429 with retry-after in the dialect’s envelope', async () => {
    const slow = post('/v1/chat/completions', chatBody('slow'));
    await eventually(() => gateway.inFlight === 1);
    const refused = await post('/v1/messages', JSON.stringify({ model: 'claude', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }), { 'x-api-key': TEST_CLIENT_KEY });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    expect((await slow).status).toBe(200);
    await eventually(() => gateway.inFlight === 0);
  });
});

describe('the operator log', () => {
  it('has one line per request with the facts operators need, and never a prompt, an output or a key', async () => {
    const canary = 'CANARY-PROMPT-7f3a9c';
    const from = log.lines.length;
    const answer = await new OpenAI({ apiKey: TEST_CLIENT_KEY, baseURL: `${gateway.url}/v1`, maxRetries: 0 }).chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: canary }] });
    const output = answer.choices[0]?.message.content ?? '';
    expect(output.length).toBeGreaterThan(5);
    let streamed = '';
    for await (const chunk of await new Anthropic({ apiKey: TEST_CLIENT_KEY, baseURL: gateway.url, maxRetries: 0 }).messages.create({ model: 'claude', max_tokens: 64, stream: true, messages: [{ role: 'user', content: canary }] })) {
      if (chunk.type === 'content_block_delta' && chunk.delta.type === 'text_delta') streamed += chunk.delta.text;
    }
    await post(`/v1beta/models/chat:generateContent?key=${TEST_CLIENT_KEY}`, JSON.stringify({ contents: [{ role: 'user', parts: [{ text: canary }] }] }), {});
    // Lines are written just after their responses: wait for the last one (a late line of an earlier test may come first).
    await eventually(() => log.lines.length - from >= 3 && log.requests().at(-1)?.route === 'POST /v1beta/models/{model}:generateContent');
    const written = log.lines.slice(from).join('\n');
    const secrets = [canary, output, streamed, TEST_CLIENT_KEY, ...Object.values(simulator.credentials)];
    for (const secret of secrets) expect(written, 'a secret reached the operator log').not.toContain(secret);
    const [first] = log.requests().slice(-3);
    expect(first).toMatchObject({
      route: 'POST /v1/chat/completions',
      client: 'main',
      model: 'chat',
      target: { provider: 'simulator', family: 'openai-chat/v1' },
      status: 200,
      outcome: 'completed',
      attempts: [{ outcome: 'ok' }],
    });
    expect(first?.usage).toMatchObject({ inputTokens: expect.any(Number) });
    expect(first?.timeToFirstByteMs).toEqual(expect.any(Number));
    expect(first?.totalMs).toEqual(expect.any(Number));
    expect(typeof first?.requestId).toBe('string');
    expect(log.requests().slice(-3).map((line) => line.route)).toEqual(['POST /v1/chat/completions', 'POST /v1/messages', 'POST /v1beta/models/{model}:generateContent']);
  });
});

describe('draining', () => {
  it('close() refuses new requests, lets an open request finish, then stops', async () => {
    const { catalogue, env } = simulatorCatalogue(simulator, [{ name: 'slow', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'slow-first-byte.500' }] }], { drainTimeoutMs: 5000 });
    const draining = await startGateway({ catalogue, env, logger: createLogCapture() });
    const open = fetch(`${draining.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${TEST_CLIENT_KEY}`, 'content-type': 'application/json' }, body: chatBody('slow') });
    await eventually(() => draining.inFlight === 1);
    const closed = draining.close();
    const answer = await open;
    expect(answer.status).toBe(200);
    expect((await answer.json()) as object).toMatchObject({ object: 'chat.completion' });
    await closed;
    await expect(fetch(`${draining.url}/healthz`)).rejects.toThrow();
  });
});

describe('request timeout', () => {
  it('ends a request that outlives requestTimeoutMs, sync and stream, and leaves no slot taken', async () => {
    const capture = createLogCapture();
    const { catalogue, env } = simulatorCatalogue(simulator, [{ name: 'slow', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'slow-first-byte.3000' }] }], { requestTimeoutMs: 300, maxAttempts: 1 });
    const timed = await startGateway({ catalogue, env, logger: capture });
    try {
      for (const stream of [false, true]) {
        const started = Date.now();
        const answer = await fetch(`${timed.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TEST_CLIENT_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'slow', messages: [{ role: 'user', content: 'hi' }], stream }),
        });
        await answer.text();
        // The engine reports the aborted call; the gateway answers it as it does a cancelled one.
        expect(answer.status).toBe(499);
        expect(Date.now() - started).toBeLessThan(2500);
        await eventually(() => capture.requests().length === (stream ? 2 : 1));
        expect(capture.requests().at(-1)).toMatchObject({ model: 'slow', status: 499, outcome: 'engine:PROTOCOL_ENGINE_ABORTED' });
        expect(timed.inFlight).toBe(0);
      }
    } finally {
      await timed.close();
    }
  });
});
