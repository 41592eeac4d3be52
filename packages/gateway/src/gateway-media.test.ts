import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from './start-gateway.js';
import { createLogCapture } from './test-support/log-capture.js';

let gateway: RunningGateway;
beforeAll(async () => {
  gateway = await startGateway({ logger: createLogCapture() });
});
afterAll(async () => {
  await gateway.close();
});

const openAi = (): OpenAI => new OpenAI({ apiKey: gateway.clientKey, baseURL: `${gateway.url}/v1`, maxRetries: 0 });

describe('embeddings', () => {
  it('answers the OpenAI SDK with float vectors of the space dimension', async () => {
    const answer = await openAi().embeddings.create({ model: 'sim-embeddings', input: ['first', 'second'], encoding_format: 'float' });
    expect(answer.data).toHaveLength(2);
    expect(answer.data[0]?.embedding).toHaveLength(16);
    expect(answer.model).toBe('sim-embeddings');
  });

  it('answers the SDK default (base64) the same', async () => {
    const floats = await openAi().embeddings.create({ model: 'sim-embeddings', input: 'same text', encoding_format: 'float' });
    const decoded = await openAi().embeddings.create({ model: 'sim-embeddings', input: 'same text' });
    expect(decoded.data[0]?.embedding).toEqual(floats.data[0]?.embedding);
  });

  it('refuses a chat model for an embedding request as not found', async () => {
    await expect(openAi().embeddings.create({ model: 'sim-openai-chat', input: 'x' })).rejects.toMatchObject({ status: 404 });
  });
});

describe('images', () => {
  it('generates through the OpenAI SDK', async () => {
    const answer = await openAi().images.generate({ model: 'sim-images', prompt: 'a lighthouse at dusk', size: '1024x1024' });
    expect(answer.data?.length).toBeGreaterThan(0);
    expect(answer.data?.[0]?.b64_json ?? answer.data?.[0]?.url).toBeTruthy();
  });
});

describe('rerank (plain fetch, Cohere shapes)', () => {
  it.each(['/v2/rerank', '/v1/rerank'])('%s orders the documents', async (path) => {
    const response = await fetch(`${gateway.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.clientKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim-rerank', query: 'capital of france', documents: ['Berlin is in Germany.', 'Paris is the capital of France.', 'Rome is old.'], top_n: 2 }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { results: { index: number; relevance_score: number }[] };
    expect(body.results).toHaveLength(2);
    for (const result of body.results) expect(result.index).toBeGreaterThanOrEqual(0);
  });

  it('refuses a missing key in Cohere form', async () => {
    const response = await fetch(`${gateway.url}/v2/rerank`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(401);
  });
});

describe('health', () => {
  it('answers healthz and readyz', async () => {
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${gateway.url}/readyz`)).json()).toEqual({ status: 'ready' });
  });
});

describe('image edits (multipart)', () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

  it('edits through the OpenAI SDK, the file reaching the provider as multipart', async () => {
    const before = gateway.simulator?.requests.length ?? 0;
    const answer = await openAi().images.edit({ model: 'sim-image-edits', prompt: 'add a red hat', image: await OpenAI.toFile(png, 'cat.png', { type: 'image/png' }) });
    expect(answer.data?.length).toBeGreaterThan(0);
    expect(gateway.simulator?.requests.slice(before).map((request) => request.path)).toContain('/v1/images/edits');
  });

  it('refuses a form without an image, nothing forwarded', async () => {
    const before = gateway.simulator?.requests.length ?? 0;
    const form = new FormData();
    form.set('model', 'sim-image-edits');
    form.set('prompt', 'x');
    const response = await fetch(`${gateway.url}/v1/images/edits`, { method: 'POST', headers: { authorization: `Bearer ${gateway.clientKey}` }, body: form });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    expect(gateway.simulator?.requests.length).toBe(before);
  });
});
