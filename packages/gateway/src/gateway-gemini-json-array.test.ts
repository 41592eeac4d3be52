import { GoogleGenAI } from '@google/genai';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from './start-gateway.js';
import { createLogCapture } from './test-support/log-capture.js';
import { simulatorCatalogue, TEST_CLIENT_KEY } from './test-support/simulator-catalogue.js';

/*
 * `:streamGenerateContent` without `alt=sse`: Google answers one JSON array of GenerateContentResponse objects,
 * streamed as it is produced; some client libraries ask for exactly that. The gateway serves it over a real socket,
 * written progressively, for a Gemini target and across dialects.
 */

let simulator: ProviderSimulator;
let gateway: RunningGateway;
const log = createLogCapture();
const STALL_MS = 1500;

beforeAll(async () => {
  simulator = await startProviderSimulator();
  const { catalogue, env } = simulatorCatalogue(simulator, [
    { name: 'gemini-text', taskKind: 'chat', targets: [{ family: 'gemini-generate-content/v1', model: 'text.4' }] },
    { name: 'chat-text', taskKind: 'chat', targets: [{ family: 'openai-chat/v1', model: 'text.4' }] },
    { name: 'gemini-stall', taskKind: 'chat', targets: [{ family: 'gemini-generate-content/v1', model: `stall.${STALL_MS}` }] },
    { name: 'gemini-mid-stream-error', taskKind: 'chat', targets: [{ family: 'gemini-generate-content/v1', model: 'mid-stream-error' }] },
  ]);
  gateway = await startGateway({ catalogue, env, logger: log });
});
afterAll(async () => {
  await gateway.close();
  await simulator.close();
});

const BODY = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Say hello.' }] }] });

function streamRequest(model: string, query = ''): Promise<Response> {
  return fetch(`${gateway.url}/v1beta/models/${model}:streamGenerateContent${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': TEST_CLIENT_KEY },
    body: BODY,
  });
}

interface ArrayResponse {
  readonly candidates?: { content?: { parts?: { text?: string }[] }; finishReason?: string }[];
  readonly usageMetadata?: Record<string, number>;
  readonly error?: { code: number; status: string };
}

function textOf(responses: readonly ArrayResponse[]): string {
  return responses.map((response) => response.candidates?.[0]?.content?.parts?.map((part) => part.text ?? '').join('') ?? '').join('');
}

describe('Gemini :streamGenerateContent without alt=sse', () => {
  it.each([
    ['a Gemini target', 'gemini-text', ''],
    ['an OpenAI chat target', 'chat-text', ''],
    ['a Gemini target, alt=json', 'gemini-text', '?alt=json'],
  ])('answers one JSON array of responses from %s', async (_label, model, query) => {
    const response = await streamRequest(model, query);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = await response.text();
    expect(body.startsWith('[{')).toBe(true);
    const responses = JSON.parse(body) as ArrayResponse[];
    expect(responses.length).toBeGreaterThan(1);
    expect(textOf(responses).length).toBeGreaterThan(0);
    expect(responses.at(-1)?.candidates?.[0]?.finishReason).toBe('STOP');
    expect(responses.at(-1)?.usageMetadata?.promptTokenCount).toBeGreaterThan(0);
  });

  it('writes the array progressively: the first element reaches the client while the provider still stalls', async () => {
    const started = performance.now();
    const response = await streamRequest('gemini-stall');
    const reader = response.body?.getReader();
    if (reader === undefined) throw new Error('no body');
    const first = await reader.read();
    const firstAt = performance.now() - started;
    const pieces = [new TextDecoder().decode(first.value)];
    for (let next = await reader.read(); next.done !== true; next = await reader.read()) pieces.push(new TextDecoder().decode(next.value));
    const endAt = performance.now() - started;
    expect(pieces[0]?.startsWith('[{')).toBe(true);
    expect(firstAt).toBeLessThan(STALL_MS - 300);
    expect(endAt).toBeGreaterThanOrEqual(STALL_MS - 50);
    expect(textOf(JSON.parse(pieces.join('')) as ArrayResponse[]).length).toBeGreaterThan(0);
  });

  it('ends an answer that fails mid-stream with an error element, the body still one JSON array', async () => {
    const response = await streamRequest('gemini-mid-stream-error');
    expect(response.status).toBe(200);
    const responses = JSON.parse(await response.text()) as ArrayResponse[];
    expect(responses.at(-1)?.error).toMatchObject({ code: expect.any(Number) as number, status: expect.any(String) as string });
    expect(textOf(responses.slice(0, -1)).length).toBeGreaterThan(0);
  });

  it('still streams server-sent events for alt=sse, as the official SDK asks', async () => {
    const client = new GoogleGenAI({ apiKey: TEST_CLIENT_KEY, httpOptions: { baseUrl: gateway.url, retryOptions: { attempts: 1 } } });
    let text = '';
    for await (const chunk of await client.models.generateContentStream({ model: 'gemini-text', contents: 'Say hello.' })) text += chunk.text ?? '';
    expect(text.length).toBeGreaterThan(0);
    const sse = await streamRequest('gemini-text', '?alt=sse');
    expect(sse.headers.get('content-type')).toBe('text/event-stream');
  });

  it('refuses an alt it cannot serve in Google\'s error envelope', async () => {
    const response = await streamRequest('gemini-text', '?alt=proto');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
  });
});
