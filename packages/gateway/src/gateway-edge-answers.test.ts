import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from './start-gateway.js';
import { createLogCapture, eventually } from './test-support/log-capture.js';
import { simulatorCatalogue, TEST_CLIENT_KEY } from './test-support/simulator-catalogue.js';

/*
 * Issue #30 item 9: the gateway's smaller answers, through real sockets and the official SDKs.
 */

const HEADERS_TIMEOUT_MS = 1500;
const MAX_BODY = 4096;
let simulator: ProviderSimulator;
let gateway: RunningGateway;
const servers: Server[] = [];
const log = createLogCapture();

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

beforeAll(async () => {
  simulator = await startProviderSimulator();
  // An OpenAI-chat upstream that streams one delta and holds the stream; and one that answers every request with a redirect.
  const holding = await listen(
    createServer((request, response) => {
      request.resume();
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hel' }, finish_reason: null }] })}\n\n`);
    }),
  );
  const redirecting = await listen(createServer((request, response) => (request.resume(), response.writeHead(307, { location: 'http://127.0.0.1:9/v1/chat/completions' }).end())));
  const { catalogue, env } = simulatorCatalogue(
    simulator,
    [
      { name: 'chat', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'gpt-4.1-mini' }] },
      { name: 'resp', taskKind: 'chat', targets: [{ family: 'openai-responses/v1', model: 'gpt-4.1-mini' }] },
      { name: 'refused-openai', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'error.401' }] },
      { name: 'refused-anthropic', taskKind: 'chat', targets: [{ family: 'anthropic-messages/v1', model: 'error.401' }] },
      { name: 'refused-gemini', taskKind: 'chat', targets: [{ family: 'gemini-generate-content/v1', model: 'error.401' }] },
      { name: 'slow', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'slow-first-byte.1500' }] },
      { name: 'held', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'm', baseUrl: holding }] },
      { name: 'redirect', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'm', baseUrl: redirecting }] },
      { name: 'nxdomain', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'm', baseUrl: 'http://no-such-host.invalid/v1', timeouts: { connectMs: 3000 } }] },
    ],
    { maxConcurrentRequests: 1, maxBodyBytes: MAX_BODY, headersTimeoutMs: HEADERS_TIMEOUT_MS, maxAttempts: 1 },
  );
  gateway = await startGateway({ catalogue, env, logger: log });
});
afterAll(async () => {
  await gateway.close();
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await simulator.close();
});

const messages = [{ role: 'user', content: 'hi' }];
const post = (path: string, body: unknown, headers: Record<string, string> = { authorization: `Bearer ${TEST_CLIENT_KEY}` }) =>
  fetch(`${gateway.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
const lineOf = async (requestId: string | null) => {
  await eventually(() => log.requests().some((line) => line.requestId === requestId));
  return log.requests().find((line) => line.requestId === requestId);
};

describe('gateway-side failures are not the client’s (issue #30 item 9)', () => {
  it('an upstream refusing the gateway’s credentials is a 502 to OpenAI, Anthropic and Gemini SDKs, never the client’s 401', async () => {
    const openAi = new OpenAI({ apiKey: TEST_CLIENT_KEY, baseURL: `${gateway.url}/v1`, maxRetries: 0 }).chat.completions.create({ model: 'refused-openai', messages: [{ role: 'user', content: 'hi' }] });
    await expect(openAi).rejects.toBeInstanceOf(OpenAI.InternalServerError);
    await expect(openAi).rejects.toMatchObject({ status: 502 });
    const anthropic = new Anthropic({ apiKey: TEST_CLIENT_KEY, baseURL: gateway.url, maxRetries: 0 }).messages.create({ model: 'refused-anthropic', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] });
    await expect(anthropic).rejects.toBeInstanceOf(Anthropic.InternalServerError);
    await expect(anthropic).rejects.toMatchObject({ status: 502, error: { error: { type: 'api_error' } } });
    const gemini = new GoogleGenAI({ apiKey: TEST_CLIENT_KEY, httpOptions: { baseUrl: gateway.url, retryOptions: { attempts: 1 } } });
    await expect(gemini.models.generateContent({ model: 'refused-gemini', contents: 'hi' })).rejects.toMatchObject({ status: 502 });
  });

  it('the gateway’s own concurrency 429 and an unknown model say they are the gateway’s', async () => {
    const slow = post('/v1/chat/completions', { model: 'slow', messages });
    await eventually(() => gateway.inFlight === 1);
    const busy = await post('/v1/chat/completions', { model: 'chat', messages });
    expect(busy.status).toBe(429);
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(await busy.json()).toMatchObject({ error: { code: 'gateway_concurrency_limit', message: expect.stringMatching(/^The gateway is serving its maximum number of concurrent requests/) } });
    expect((await slow).status).toBe(200);
    await eventually(() => gateway.inFlight === 0);
    const unknown = await post('/v1/chat/completions', { model: 'nope', messages });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'model_not_found', message: expect.stringMatching(/^The gateway catalogue has no model/) } });
  });

  it('a Gemini body too large is 413, and error.param names the client’s field', async () => {
    const big = await post('/v1beta/models/chat:generateContent', { contents: [{ role: 'user', parts: [{ text: 'x'.repeat(MAX_BODY) }] }] }, { 'x-goog-api-key': TEST_CLIENT_KEY });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ error: { code: 413, status: 'INVALID_ARGUMENT' } });
    const temperature = await post('/v1/chat/completions', { model: 'chat', messages, temperature: 3 });
    expect(temperature.status).toBe(400);
    expect(await temperature.json()).toMatchObject({ error: { param: 'temperature' } });
    const maxOutput = await post('/v1/responses', { model: 'resp', input: 'hi', max_output_tokens: 0 });
    expect(await maxOutput.json()).toMatchObject({ error: { param: 'max_output_tokens' } });
  });

  it('a known path with another method is 405 with Allow; an unknown path stays 404', async () => {
    const get = await fetch(`${gateway.url}/v1/chat/completions`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(await get.json()).toMatchObject({ error: { code: 'method_not_allowed' } });
    const remove = await fetch(`${gateway.url}/v1/models`, { method: 'DELETE' });
    expect(remove.status).toBe(405);
    expect(remove.headers.get('allow')).toBe('GET, HEAD');
    expect((await fetch(`${gateway.url}/v1beta/models/chat:generateContent`)).headers.get('allow')).toBe('POST');
    expect((await fetch(`${gateway.url}/v1/nothing-here`)).status).toBe(404);
  });
});

describe('edge timings and logs (issue #30 item 9)', () => {
  it('answers a slow request head 408 close to headersTimeoutMs', async () => {
    const { hostname, port } = new URL(gateway.url);
    const socket = connect({ host: hostname, port: Number(port) });
    const started = performance.now();
    socket.write('POST /v1/chat/completions HTTP/1.1\r\nHost: gateway\r\n');
    const answer = await new Promise<{ text: string; afterMs: number }>((resolve) => {
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('utf8')));
      socket.on('error', () => {});
      socket.once('close', () => resolve({ text, afterMs: performance.now() - started }));
    });
    expect(answer.text).toMatch(/^HTTP\/1\.1 408/);
    expect(answer.afterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
    expect(answer.afterMs).toBeLessThan(HEADERS_TIMEOUT_MS + 1200);
  });

  it('logs a client that leaves an open stream as cancelled', async () => {
    const leaving = new AbortController();
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_CLIENT_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'held', stream: true, messages }),
      signal: leaving.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    leaving.abort();
    const line = await lineOf(response.headers.get('x-request-id'));
    expect(line).toMatchObject({ status: 200, outcome: 'cancelled' });
    await eventually(() => gateway.inFlight === 0);
  });

  it('logs the transport stage and reason of a DNS failure and of a refused redirect', async () => {
    const nxdomain = await post('/v1/chat/completions', { model: 'nxdomain', messages });
    expect(nxdomain.status).toBe(502);
    expect((await lineOf(nxdomain.headers.get('x-request-id')))?.attempts).toMatchObject([{ outcome: 'PROTOCOL_ENGINE_TRANSPORT_FAILED', transport: { stage: 'before-send', reason: 'dns-failed' } }]);
    const redirect = await post('/v1/chat/completions', { model: 'redirect', messages });
    expect(redirect.status).toBe(502);
    expect((await lineOf(redirect.headers.get('x-request-id')))?.attempts).toMatchObject([{ outcome: 'PROTOCOL_ENGINE_TRANSPORT_FAILED', transport: { reason: 'redirect-refused' } }]);
  }, 15_000);
});
