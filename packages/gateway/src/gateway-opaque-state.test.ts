import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from './start-gateway.js';
import { createLogCapture } from './test-support/log-capture.js';

/*
 * One conversation that switches between an Anthropic target (same dialect for an Anthropic client) and a Gemini
 * target (cross dialect), over real sockets with the official SDKs. The fake providers record every body they
 * receive and sign each answer with a value of their own (Anthropic's thinking `signature`, Gemini's
 * `thoughtSignature`, shapes from https://docs.claude.com/en/docs/build-with-claude/extended-thinking and
 * https://ai.google.dev/gemini-api/docs/thought-signatures). Each provider must get back exactly its own values and
 * never the other's.
 */

const CLIENT_KEY = 'tfg-opaque-client-key-0123456789';
const bodies: { anthropic: string[]; gemini: string[] } = { anthropic: [], gemini: [] };
let turn = 0;
let provider: Server;
let gateway: RunningGateway;

const anthropicSignature = (n: number): string => `EqQBCkYIBxgCKkAanthropic-${n}`;
const geminiSignature = (n: number): string => btoa(`gemini-thought-${n}`);

beforeAll(async () => {
  provider = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      turn += 1;
      const streamed = request.url?.includes('streamGenerateContent') === true;
      response.writeHead(200, { 'content-type': streamed ? 'text/event-stream' : 'application/json' });
      if (request.url?.includes('enerateContent') === true) {
        bodies.gemini.push(body);
        const answer = JSON.stringify({
          candidates: [{ content: { role: 'model', parts: [{ text: 'gemini thinks', thought: true, thoughtSignature: geminiSignature(turn) }, { text: 'from gemini' }] }, finishReason: 'STOP', index: 0 }],
          usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 },
          modelVersion: 'gemini-x',
        });
        response.end(streamed ? `data: ${answer}\r\n\r\n` : answer);
        return;
      }
      bodies.anthropic.push(body);
      response.end(
        JSON.stringify({
          id: `msg_${turn}`,
          type: 'message',
          role: 'assistant',
          model: 'claude-x',
          content: [{ type: 'thinking', thinking: 'claude thinks', signature: anthropicSignature(turn) }, { type: 'text', text: 'from claude' }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 3, output_tokens: 2 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  const { port } = provider.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  gateway = await startGateway({
    catalogue: {
      version: 1,
      clientKeys: [{ id: 'main', env: 'CLIENT_KEY' }],
      models: [
        { name: 'claude', taskKind: 'chat', targets: [{ provider: 'fake', family: 'anthropic-messages/v1', model: 'claude-x', baseUrl: base, credentials: { apiKeyEnv: 'P_KEY' }, network: { allowLoopback: true } }] },
        { name: 'gemini', taskKind: 'chat', targets: [{ provider: 'fake', family: 'gemini-generate-content/v1', model: 'gemini-x', baseUrl: base, credentials: { apiKeyEnv: 'P_KEY' }, network: { allowLoopback: true } }] },
      ],
      jobs: { signingKeyEnv: 'SIGNING_KEY' },
    },
    logger: createLogCapture(),
    env: { CLIENT_KEY, P_KEY: 'provider-key-0123456789', SIGNING_KEY: 'opaque-state-signing-key-0123456789abcdef' },
  });
});
afterAll(async () => {
  await gateway.close();
  await new Promise<void>((resolve) => provider.close(() => resolve()));
});

describe('opaque reasoning state over a session that switches targets', () => {
  it('an Anthropic client: each provider gets back its own signatures byte for byte, never the other\'s', async () => {
    bodies.anthropic.length = 0;
    bodies.gemini.length = 0;
    turn = 0;
    const client = new Anthropic({ apiKey: CLIENT_KEY, baseURL: gateway.url, maxRetries: 0 });
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'hi' }];
    const ask = async (model: string): Promise<Anthropic.Message> => {
      const answer = await client.messages.create({ model, max_tokens: 100, messages });
      messages.push({ role: 'assistant', content: answer.content as Anthropic.ContentBlockParam[] }, { role: 'user', content: `after ${model}` });
      return answer;
    };
    await ask('claude'); // turn 1: anthropicSignature(1), raw (same family as the dialect)
    const fromGemini = await ask('gemini'); // turn 2: geminiSignature(2), sealed for the Anthropic client
    const sealed = fromGemini.content.find((block) => block.type === 'thinking');
    expect(sealed?.type === 'thinking' && sealed.signature).not.toBe(geminiSignature(2));
    await ask('claude'); // turn 3
    await ask('gemini'); // turn 4
    await ask('claude'); // turn 5

    const [, toGemini2, toGemini4] = ['', ...bodies.gemini];
    expect(toGemini2).not.toContain('anthropic-');
    expect(toGemini4).toContain(`"thoughtSignature":"${geminiSignature(2)}"`);
    expect(toGemini4).not.toContain('anthropic-');
    const turn5 = JSON.parse(bodies.anthropic[2] as string) as { messages: { role: string; content: unknown }[] };
    const signatures = turn5.messages.flatMap((message) => (Array.isArray(message.content) ? (message.content as { type: string; signature?: string }[]) : [])).filter((block) => block.type === 'thinking').map((block) => block.signature);
    expect(signatures).toEqual([anthropicSignature(1), anthropicSignature(3)]);
    expect(bodies.anthropic.join('\n')).not.toContain(geminiSignature(2));
    expect(bodies.anthropic.join('\n')).not.toContain(geminiSignature(4));
  });

  it('a Responses client: Anthropic\'s signature rides in encrypted_content sealed, and only Anthropic gets it back', async () => {
    bodies.anthropic.length = 0;
    bodies.gemini.length = 0;
    turn = 0;
    const client = new OpenAI({ apiKey: CLIENT_KEY, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: 'hi' }];
    const ask = async (model: string): Promise<OpenAI.Responses.Response> => {
      const answer = await client.responses.create({ model, input, store: false, include: ['reasoning.encrypted_content'] });
      input.push(...(answer.output as OpenAI.Responses.ResponseInputItem[]), { role: 'user', content: `after ${model}` });
      return answer;
    };
    const first = await ask('claude');
    const reasoning = first.output.find((item) => item.type === 'reasoning');
    expect(reasoning?.type === 'reasoning' && reasoning.encrypted_content).toBeTruthy();
    expect(JSON.stringify(first.output)).not.toContain(anthropicSignature(1));
    await ask('gemini');
    await ask('claude');
    expect(bodies.gemini[0]).not.toContain('anthropic-');
    expect(bodies.anthropic[1]).toContain(`"signature":"${anthropicSignature(1)}"`);
    expect(bodies.anthropic[1]).not.toContain(geminiSignature(2));
  });

  it('an Anthropic client streaming from Gemini: the signature_delta is sealed and Gemini gets its value back', async () => {
    bodies.anthropic.length = 0;
    bodies.gemini.length = 0;
    turn = 0;
    const client = new Anthropic({ apiKey: CLIENT_KEY, baseURL: gateway.url, maxRetries: 0 });
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'hi' }];
    const streamed = await client.messages.stream({ model: 'gemini', max_tokens: 100, messages }).finalMessage();
    const thinking = streamed.content.find((block) => block.type === 'thinking');
    expect(thinking?.type === 'thinking' && thinking.signature.length > 0 && thinking.signature !== geminiSignature(1)).toBe(true);
    messages.push({ role: 'assistant', content: streamed.content as Anthropic.ContentBlockParam[] }, { role: 'user', content: 'again' });
    await client.messages.create({ model: 'claude', max_tokens: 100, messages });
    await client.messages.create({ model: 'gemini', max_tokens: 100, messages });
    expect(bodies.anthropic[0]).not.toContain(geminiSignature(1));
    expect(bodies.gemini[1]).toContain(`"thoughtSignature":"${geminiSignature(1)}"`);
  });
});
