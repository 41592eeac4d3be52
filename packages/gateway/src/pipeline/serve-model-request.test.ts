import { describe, expect, it } from 'vitest';
import { eventually } from '../test-support/log-capture.js';
import { PIPELINE_CLIENT_KEY as KEY, pipelineGateway as gateway } from '../test-support/pipeline-gateway.js';

const chat = (body: BodyInit, key = KEY): Request =>
  new Request('http://gateway.test/v1/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit);
const CHAT_BODY = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });

describe('serveModelRequest', () => {
  it('answers through every stage and writes one log line naming client, model, target and usage', async () => {
    const { app, runtime, log } = gateway();
    const response = await app.request(chat(CHAT_BODY));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ choices: [{ message: { content: 'Hi' } }] });
    await eventually(() => log.requests().length === 1);
    expect(log.requests()[0]).toMatchObject({ client: 'main', model: 'm', target: { ref: 'm#0' }, status: 200, outcome: 'completed', usage: { inputTokens: 1, outputTokens: 1 } });
    expect(log.requests()[0]?.requestId).toBe(response.headers.get('x-request-id'));
    expect(runtime.limiter.inFlight).toBe(0);
  });

  it('refuses a wrong key before taking a slot: the dialect’s 401, logged without a first byte', async () => {
    const { app, runtime, log, executed } = gateway();
    runtime.limiter.tryAcquire();
    const response = await app.request(chat(CHAT_BODY, 'wrong-key-0123456789'));
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: 'invalid_api_key' } });
    await eventually(() => log.requests().length === 1);
    expect(log.requests()[0]).toMatchObject({ outcome: 'refused:client-key', status: 401 });
    expect(log.requests()[0]).not.toHaveProperty('client');
    expect(log.requests()[0]).not.toHaveProperty('timeToFirstByteMs');
    expect(executed).toEqual([]);
  });

  it('reads the body before taking a slot: a slow body holds none, and its refusal is logged', async () => {
    const { app, runtime, log } = gateway();
    let push!: ReadableStreamDefaultController<Uint8Array>;
    const slow = new ReadableStream<Uint8Array>({ start: (controller) => void (push = controller) });
    const first = app.request(chat(slow));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(runtime.limiter.inFlight).toBe(0);
    const second = await app.request(chat(CHAT_BODY));
    expect(second.status).toBe(200);
    push.enqueue(new Uint8Array(1001));
    push.close();
    const refused = await first;
    expect(refused.status).toBe(413);
    expect(runtime.limiter.inFlight).toBe(0);
    await eventually(() => log.requests().length === 2);
    expect(log.requests().map((line) => line.outcome).sort()).toEqual(['completed', 'refused:body-too-large']);
  });

  it('answers a body slower than its idle deadline 408 in the dialect, closing the connection, without taking a slot', async () => {
    const { app, runtime, log } = gateway({ bodyIdleTimeoutMs: 50 });
    const stalled = new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(new TextEncoder().encode('{')) });
    const refused = await app.request(chat(stalled));
    expect(refused.status).toBe(408);
    expect(refused.headers.get('connection')).toBe('close');
    expect(await refused.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'request_timeout' } });
    expect(runtime.limiter.inFlight).toBe(0);
    await eventually(() => log.requests().length === 1);
    expect(log.requests()[0]).toMatchObject({ client: 'main', status: 408, outcome: 'refused:body-timeout-idle' });
  });

  it('refuses with the concurrency 429 once the body is read and every slot is taken', async () => {
    const { app, runtime, log } = gateway();
    runtime.limiter.tryAcquire();
    const refused = await app.request(chat(CHAT_BODY));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    await eventually(() => log.requests().length === 1);
    expect(log.requests()[0]).toMatchObject({ model: 'm', outcome: 'refused:concurrency' });
  });

  it('refuses an unknown model in the dialect’s envelope without calling the engine', async () => {
    const { app, log, executed } = gateway();
    const response = await app.request(chat(JSON.stringify({ model: 'nope', messages: [{ role: 'user', content: 'hi' }] })));
    expect(response.status).toBe(404);
    expect(executed).toEqual([]);
    await eventually(() => log.requests().length === 1);
    expect(log.requests()[0]).toMatchObject({ client: 'main', model: 'unknown', outcome: 'refused:model-not-found' });
  });
});
