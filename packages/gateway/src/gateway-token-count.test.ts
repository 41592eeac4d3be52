import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from './start-gateway.js';
import { createLogCapture } from './test-support/log-capture.js';

/*
 * The three client counting routes over real sockets, against the embedded catalogue over the simulator: the
 * count comes from the target provider's counting endpoint (same dialect and across dialects), and a model whose
 * targets cannot count answers the client dialect's not-supported error, never a zero.
 */

let gateway: RunningGateway;
const log = createLogCapture();

beforeAll(async () => {
  gateway = await startGateway({ logger: log });
});
afterAll(async () => {
  await gateway.close();
});

const anthropic = (): Anthropic => new Anthropic({ apiKey: gateway.clientKey, baseURL: gateway.url, maxRetries: 0 });
const gemini = (): GoogleGenAI => new GoogleGenAI({ apiKey: gateway.clientKey ?? '', httpOptions: { baseUrl: gateway.url, retryOptions: { attempts: 1 } } });

async function postJson(path: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${gateway.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, json: text.length === 0 ? undefined : JSON.parse(text) };
}
const bearer = () => ({ authorization: `Bearer ${gateway.clientKey}` });

const COUNTING_MODELS = ['sim-anthropic', 'sim-openai-responses', 'sim-gemini'] as const;
const weatherTool = { name: 'get_weather', description: 'Weather of a city', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } } };

describe.each(COUNTING_MODELS)('an Anthropic SDK client counting with messages.countTokens, served by %s', (model) => {
  it('gets the provider count, the same for the same input and larger with more input and tools', async () => {
    const messages = [{ role: 'user' as const, content: 'How many tokens is this?' }];
    const first = await anthropic().messages.countTokens({ model, system: 'Be brief.', messages });
    expect(first.input_tokens).toBeGreaterThan(0);
    expect((await anthropic().messages.countTokens({ model, system: 'Be brief.', messages })).input_tokens).toBe(first.input_tokens);
    const longer = await anthropic().messages.countTokens({ model, system: 'Be brief.', messages: [{ role: 'user', content: 'How many tokens is this much longer question about the weather in Paris?' }] });
    expect(longer.input_tokens).toBeGreaterThan(first.input_tokens);
    const withTools = await anthropic().messages.countTokens({ model, system: 'Be brief.', messages, tools: [weatherTool] });
    expect(withTools.input_tokens).toBeGreaterThan(first.input_tokens);
  });
});

describe.each(COUNTING_MODELS)('a Gemini SDK client counting with models.countTokens, served by %s', (model) => {
  it('gets totalTokens from the provider count', async () => {
    const counted = await gemini().models.countTokens({ model, contents: [{ role: 'user', parts: [{ text: 'Count me, please.' }] }] });
    expect(counted.totalTokens).toBeGreaterThan(0);
  });
});

describe.each(COUNTING_MODELS)('an OpenAI Responses client on POST /v1/responses/input_tokens, served by %s', (model) => {
  it('gets {object: response.input_tokens, input_tokens}', async () => {
    const answer = await postJson('/v1/responses/input_tokens', bearer(), { model, instructions: 'Be brief.', input: 'Count me, please.' });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ object: 'response.input_tokens', input_tokens: expect.any(Number) });
    expect(answer.json.input_tokens).toBeGreaterThan(0);
  });
});

describe('a model whose targets cannot count', () => {
  it('answers an Anthropic client a 400 invalid_request_error, never a count', async () => {
    const refused = await postJson('/v1/messages/count_tokens', { 'x-api-key': gateway.clientKey ?? '', 'anthropic-version': '2023-06-01' }, {
      model: 'sim-openai-chat',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(JSON.stringify(refused.json)).not.toContain('input_tokens');
    await expect(anthropic().messages.countTokens({ model: 'sim-openai-chat', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 400 });
  });

  it('answers an OpenAI Responses client a 400 with a stable error code, never a count', async () => {
    const refused = await postJson('/v1/responses/input_tokens', bearer(), { model: 'sim-openai-chat', input: 'hi' });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatchObject({ type: 'invalid_request_error', code: 'unsupported_task' });
    expect(refused.json.input_tokens).toBeUndefined();
  });

  it('answers a Gemini client a 400 INVALID_ARGUMENT, never a count', async () => {
    const refused = await postJson(`/v1beta/models/sim-openai-chat:countTokens`, { 'x-goog-api-key': gateway.clientKey ?? '' }, { contents: [{ parts: [{ text: 'hi' }] }] });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ error: { status: 'INVALID_ARGUMENT' } });
    expect(refused.json.totalTokens).toBeUndefined();
  });
});

describe('the counting routes stay closed', () => {
  it('refuse a request without the client key', async () => {
    const refused = await postJson('/v1/messages/count_tokens', { 'x-api-key': 'nope', 'anthropic-version': '2023-06-01' }, { model: 'sim-anthropic', messages: [{ role: 'user', content: 'hi' }] });
    expect(refused.status).toBe(401);
  });

  it('refuse a streamed count and a body that is not a count request', async () => {
    const headers = { 'x-api-key': gateway.clientKey ?? '', 'anthropic-version': '2023-06-01' };
    expect((await postJson('/v1/messages/count_tokens', headers, { model: 'sim-anthropic', stream: true, messages: [{ role: 'user', content: 'hi' }] })).status).toBe(400);
    expect((await postJson('/v1/messages/count_tokens', headers, { model: 'sim-anthropic' })).status).toBe(400);
  });
});
