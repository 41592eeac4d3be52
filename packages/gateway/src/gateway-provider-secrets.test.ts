import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayCatalogueV1 } from './catalogue/gateway-catalogue-v1.js';
import { startGateway, type RunningGateway } from './start-gateway.js';
import { createLogCapture } from './test-support/log-capture.js';
import { TEST_CLIENT_KEY } from './test-support/simulator-catalogue.js';

const LONG_KEY = 'sk-upstream-echo-0f3a9c2e71';
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

/** A fake upstream on a real socket: answers every request with `answer(request)`. */
async function upstream(answer: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => answer(request, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

async function gatewayOver(family: string, baseUrl: string, apiKey: string, log = createLogCapture()): Promise<RunningGateway> {
  const catalogue: GatewayCatalogueV1 = {
    version: 1,
    clientKeys: [{ id: 'main', env: 'TEST_CLIENT_KEY' }],
    models: [{ name: 'chat', taskKind: 'chat', targets: [{ provider: 'local', family: family as never, model: 'local-model', baseUrl, credentials: { apiKeyEnv: 'UPSTREAM_KEY' }, network: { allowLoopback: true } }] }],
  };
  const gateway = await startGateway({ catalogue, env: { TEST_CLIENT_KEY, UPSTREAM_KEY: apiKey }, logger: log });
  open.push(gateway);
  return gateway;
}

const chat = (gateway: RunningGateway) =>
  fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_CLIENT_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'chat', messages: [{ role: 'user', content: 'how many?' }] }),
  });

const completion = (content: string) =>
  JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'local-model', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 } });

describe('the provider secret in provider answers', () => {
  it('a short key ("none", common for local servers) never rewrites an answer, and start-up warns about it', async () => {
    const baseUrl = await upstream((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(completion('I found none of them.'));
    });
    const log = createLogCapture();
    const gateway = await gatewayOver('openai-chat/v1', baseUrl, 'none', log);
    const response = await chat(gateway);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { choices: { message: { content: string } }[] }).choices[0]?.message.content).toBe('I found none of them.');
    const warning = log.lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line.warning === 'short-provider-secret');
    expect(warning).toMatchObject({ level: 40, path: 'models.0.targets.0.credentials.apiKeyEnv' });
    expect(String(warning?.message)).toContain('UPSTREAM_KEY');
  });

  it('a one-letter key ("x") does not turn an Anthropic answer into a protocol violation', async () => {
    const baseUrl = await upstream((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ id: 'msg_1', type: 'message', role: 'assistant', model: 'local-model', content: [{ type: 'text', text: 'six boxes' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 3, output_tokens: 2 } }));
    });
    const gateway = await gatewayOver('anthropic-messages/v1', baseUrl, 'x');
    const response = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': TEST_CLIENT_KEY, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'chat', max_tokens: 50, messages: [{ role: 'user', content: 'how many?' }] }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ content: [{ type: 'text', text: 'six boxes' }] });
  });

  it('a successful answer that contains the long key is passed on as the provider wrote it', async () => {
    const baseUrl = await upstream((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(completion(`the string ${LONG_KEY} appears in your file`));
    });
    const gateway = await gatewayOver('openai-chat/v1', baseUrl, LONG_KEY);
    const response = await chat(gateway);
    expect(((await response.json()) as { choices: { message: { content: string } }[] }).choices[0]?.message.content).toBe(`the string ${LONG_KEY} appears in your file`);
  });

  it('an error answer that echoes the long key reaches neither the client nor the operator log', async () => {
    const baseUrl = await upstream((_request, response) => {
      response.writeHead(401, { 'content-type': 'application/json', 'x-request-id': `req ${LONG_KEY}` });
      response.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${LONG_KEY}`, type: 'invalid_request_error', code: LONG_KEY } }));
    });
    const log = createLogCapture();
    const gateway = await gatewayOver('openai-chat/v1', baseUrl, LONG_KEY, log);
    const response = await chat(gateway);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify([...response.headers]) + (await response.text())).not.toContain(LONG_KEY);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(log.lines.join('\n')).not.toContain(LONG_KEY);
    expect(log.lines.some((line) => line.includes('short-provider-secret'))).toBe(false);
  });
});
