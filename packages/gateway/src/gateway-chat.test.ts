import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from './start-gateway.js';
import { createLogCapture } from './test-support/log-capture.js';

let gateway: RunningGateway;
const log = createLogCapture();

beforeAll(async () => {
  gateway = await startGateway({ logger: log });
});
afterAll(async () => {
  await gateway.close();
});

const openAi = (): OpenAI => new OpenAI({ apiKey: gateway.clientKey, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
const anthropic = (): Anthropic => new Anthropic({ apiKey: gateway.clientKey, baseURL: gateway.url, maxRetries: 0 });
const gemini = (): GoogleGenAI => new GoogleGenAI({ apiKey: gateway.clientKey ?? '', httpOptions: { baseUrl: gateway.url, retryOptions: { attempts: 1 } } });

const CHAT_MODELS = ['sim-openai-chat', 'sim-openai-responses', 'sim-anthropic', 'sim-gemini'] as const;

describe('the embedded default', () => {
  it('serves every family with one generated client key', () => {
    expect(gateway.embedded).toBe(true);
    expect(gateway.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(gateway.clientKey).toMatch(/^tfg-local-/);
    expect(new Set(gateway.models.map((model) => model.family)).size).toBe(9);
  });
});

describe.each(CHAT_MODELS)('an OpenAI chat client served by %s', (model) => {
  it('gets a whole answer', async () => {
    const completion = await openAi().chat.completions.create({ model, messages: [{ role: 'user', content: 'Say hello.' }] });
    expect(completion.model).toBe(model);
    expect(completion.choices[0]?.message.content?.length).toBeGreaterThan(0);
    expect(completion.choices[0]?.finish_reason).toBe('stop');
  });

  it('streams', async () => {
    const stream = await openAi().chat.completions.create({ model, messages: [{ role: 'user', content: 'Say hello.' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish ??= chunk.choices[0]?.finish_reason;
    }
    expect(text.length).toBeGreaterThan(0);
    expect(finish).toBe('stop');
  });
});

describe.each(CHAT_MODELS)('an OpenAI Responses client served by %s', (model) => {
  it('gets a whole answer and a stream', async () => {
    const response = await openAi().responses.create({ model, input: 'Say hello.' });
    expect(response.output_text.length).toBeGreaterThan(0);
    const stream = await openAi().responses.create({ model, input: 'Say hello.', stream: true });
    let text = '';
    let completed = false;
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = true;
    }
    expect(text).toBe(response.output_text);
    expect(completed).toBe(true);
  });
});

describe.each(CHAT_MODELS)('a Responses client offering a hosted tool, served by %s', (model) => {
  it('is served with the hosted tool dropped, named in a response header and in the operator log', async () => {
    const post = (stream: boolean): Promise<Response> =>
      fetch(`${gateway.url}/v1/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${gateway.clientKey ?? ''}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, input: 'Say hello.', tools: [{ type: 'file_search', vector_store_ids: ['vs_1'] }, { type: 'function', name: 'f', parameters: { type: 'object' } }], stream }),
      });
    const whole = await post(false);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('x-tokenforge-dropped-tools')).toBe('file_search');
    const body = (await whole.json()) as { output: unknown[] };
    expect(body.output.length).toBeGreaterThan(0);
    const streamed = await post(true);
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get('x-tokenforge-dropped-tools')).toBe('file_search');
    expect(await streamed.text()).toContain('response.completed');
    expect(log.requests().some((line) => line.model === model && JSON.stringify(line.droppedHostedTools) === '["file_search"]')).toBe(true);
  });
});

describe.each(CHAT_MODELS)('an Anthropic client offering a server tool, served by %s', (model) => {
  it('is served with the server tool dropped and named in a response header', async () => {
    const answer = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': gateway.clientKey ?? '', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model, max_tokens: 64, messages: [{ role: 'user', content: 'Say hello.' }], tools: [{ type: 'code_execution_20250825', name: 'code_execution' }] }),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-tokenforge-dropped-tools')).toBe('code_execution_20250825');
    expect(((await answer.json()) as { content: unknown[] }).content.length).toBeGreaterThan(0);
  });
});

describe.each(CHAT_MODELS)('an Anthropic client served by %s', (model) => {
  it('gets a whole answer and a stream', async () => {
    const message = await anthropic().messages.create({ model, max_tokens: 256, messages: [{ role: 'user', content: 'Say hello.' }] });
    const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    expect(text.length).toBeGreaterThan(0);
    expect(message.stop_reason).toBe('end_turn');
    const stream = anthropic().messages.stream({ model, max_tokens: 256, messages: [{ role: 'user', content: 'Say hello.' }] });
    const final = await stream.finalMessage();
    expect(final.content.map((block) => (block.type === 'text' ? block.text : '')).join('')).toBe(text);
  });

  it('is served through the beta path as well', async () => {
    const message = await anthropic().beta.messages.create({ model, max_tokens: 64, messages: [{ role: 'user', content: 'Say hello.' }] });
    expect(message.content.length).toBeGreaterThan(0);
  });
});

describe.each(CHAT_MODELS)('a Gemini client served by %s', (model) => {
  it('gets a whole answer and a stream', async () => {
    const answer = await gemini().models.generateContent({ model, contents: 'Say hello.' });
    expect(answer.text?.length).toBeGreaterThan(0);
    let text = '';
    for await (const chunk of await gemini().models.generateContentStream({ model, contents: 'Say hello.' })) text += chunk.text ?? '';
    expect(text).toBe(answer.text);
  });
});

describe('models', () => {
  it('lists the catalogue in each dialect', async () => {
    const openAiModels = await openAi().models.list();
    expect(openAiModels.data.map((model) => model.id)).toEqual(gateway.models.map((model) => model.name));
    const anthropicModels = await anthropic().models.list();
    expect(anthropicModels.data.map((model) => model.id)).toEqual(expect.arrayContaining([...CHAT_MODELS]));
    const geminiModels = await gemini().models.list();
    const names: string[] = [];
    for await (const entry of geminiModels) names.push(entry.name ?? '');
    expect(names).toEqual(expect.arrayContaining(CHAT_MODELS.map((name) => `models/${name}`)));
  });
});

describe('an ingress refusal through the official OpenAI SDK', () => {
  it('names the refused field in the error param', async () => {
    const error = await openAi()
      .chat.completions.create({ model: 'sim-openai-chat', messages: [{ role: 'user', content: 'Say hello.' }], n: 2 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('n');
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('unsupported_feature');
  });
});
