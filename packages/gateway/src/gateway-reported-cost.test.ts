import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOpenAiChatSuiteEntryV1, createTokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from './start-gateway.js';
import { createLogCapture, nextRequestLineReader } from './test-support/log-capture.js';

/*
 * A compatible server that reports each request's cost the way OpenRouter's usage accounting does (`usage.cost`
 * in credits, which are US dollars), on a real socket, and a gateway whose openai-chat family declares that
 * currency. The cost is an operator fact: it reaches the operator log, never the client.
 */

const CLIENT_KEY = 'tfg-cost-client-key-0123456789';
const usage = { prompt_tokens: 194, completion_tokens: 2, total_tokens: 196, cost: 0.000_95, cost_details: { upstream_inference_cost: 0.000_9 } };
let provider: Server;
let gateway: RunningGateway;
const log = createLogCapture();

beforeAll(async () => {
  provider = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const stream = (JSON.parse(body) as { stream?: boolean }).stream === true;
      const base = { id: 'gen-1', created: 1, model: 'vendor/model-x' };
      if (!stream) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }], usage }));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }] })}\n\n`);
      response.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [], usage })}\n\n`);
      response.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  const { port } = provider.address() as AddressInfo;
  gateway = await startGateway({
    catalogue: {
      version: 1,
      clientKeys: [{ id: 'main', env: 'CLIENT_KEY' }],
      models: [
        {
          name: 'metered',
          taskKind: 'chat',
          targets: [{ provider: 'router', family: 'openai-chat/v1', model: 'vendor/model-x', baseUrl: `http://127.0.0.1:${port}/api/v1`, credentials: { apiKeyEnv: 'ROUTER_KEY' }, network: { allowLoopback: true } }],
        },
      ],
    },
    env: { CLIENT_KEY, ROUTER_KEY: 'router-key-0123456789' },
    logger: log,
    suite: createTokenForgeProtocolSuiteV1({ entries: [createOpenAiChatSuiteEntryV1({ reportedCostCurrency: 'USD' })] }),
  });
});
afterAll(async () => {
  await gateway.close();
  await new Promise<void>((resolve) => provider.close(() => resolve()));
});

const openai = () => new OpenAI({ apiKey: CLIENT_KEY, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
const nextLogLine = nextRequestLineReader(log);

describe('provider-reported cost through the gateway', () => {
  it('a sync answer: the operator log has the cost in integer millionths; the client sees tokens only', async () => {
    const { data, response } = await openai().chat.completions.create({ model: 'metered', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(data.choices[0]?.message.content).toBe('Hi');
    expect(data.usage).toMatchObject({ prompt_tokens: 194, completion_tokens: 2, total_tokens: 196 });
    expect(JSON.stringify(data)).not.toContain('cost');
    expect(response.headers.get('x-request-id')).toBeTruthy();
    const line = await nextLogLine();
    expect(line.cost).toEqual({ amountMicros: 950, currency: 'USD' });
    expect(line.usage).toMatchObject({ inputTokens: 194, outputTokens: 2 });
  });

  it('a stream: the cost of the final usage chunk reaches the operator log when the stream ends', async () => {
    const stream = await openai().chat.completions.create({ model: 'metered', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
    const chunks: string[] = [];
    for await (const chunk of stream) chunks.push(JSON.stringify(chunk));
    expect(chunks.join('')).not.toContain('cost');
    expect((await nextLogLine()).cost).toEqual({ amountMicros: 950, currency: 'USD' });
  });
});
