import { isCodecErrorV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { createAnthropicMessagesIngressCodec } from '../protocols/anthropic-messages/index.js';
import { createGeminiGenerateContentIngressCodec } from '../protocols/gemini-generate-content/index.js';
import { createOpenAiChatIngressCodec } from '../protocols/openai-chat/index.js';
import { createOpenAiResponsesIngressCodec } from '../protocols/openai-responses/index.js';
import { createToolNameCheck } from './tool-name-check.js';

describe('createToolNameCheck', () => {
  it('takes distinct names and refuses a repeat as invalid-request at the second name', () => {
    const check = createToolNameCheck();
    check('read', 'tools.0.name');
    check('write', 'tools.1.name');
    let caught: unknown;
    try {
      check('read', 'tools.2.name');
    } catch (error) {
      caught = error;
    }
    expect(isCodecErrorV1(caught)).toBe(true);
    expect(caught).toMatchObject({ code: 'invalid-request', path: 'tools.2.name' });
  });

  it('keeps its memory per request', () => {
    createToolNameCheck()('read', 'tools.0.name');
    expect(() => createToolNameCheck()('read', 'tools.0.name')).not.toThrow();
  });
});

describe('one duplicate-tool-name rule in every chat ingress', () => {
  const encoder = new TextEncoder();
  const body = (value: unknown): Uint8Array => encoder.encode(JSON.stringify(value));
  const schema = { type: 'object', properties: {} };
  const cases = [
    {
      dialect: 'openai-chat/v1',
      codec: createOpenAiChatIngressCodec(),
      path: '/v1/chat/completions',
      request: { model: 'm', messages: [{ role: 'user', content: 'x' }], tools: [0, 1].map(() => ({ type: 'function', function: { name: 'read', parameters: schema } })) },
      param: 'tools.1.function.name',
    },
    {
      dialect: 'openai-responses/v1',
      codec: createOpenAiResponsesIngressCodec(),
      path: '/v1/responses',
      request: { model: 'm', input: 'x', tools: [0, 1].map(() => ({ type: 'function', name: 'read', parameters: schema })) },
      param: 'tools.1.name',
    },
    {
      dialect: 'anthropic-messages/v1',
      codec: createAnthropicMessagesIngressCodec(),
      path: '/v1/messages',
      request: { model: 'm', max_tokens: 8, messages: [{ role: 'user', content: 'x' }], tools: [0, 1].map(() => ({ name: 'read', input_schema: schema })) },
      param: 'tools.1.name',
    },
    {
      dialect: 'gemini-generate-content/v1',
      codec: createGeminiGenerateContentIngressCodec(),
      path: '/v1beta/models/m:generateContent',
      request: { contents: [{ role: 'user', parts: [{ text: 'x' }] }], tools: [{ functionDeclarations: [{ name: 'read' }] }, { functionDeclarations: [{ name: 'read' }] }] },
      param: 'tools.1.functionDeclarations.0.name',
    },
  ] as const;

  it.each(cases)('$dialect refuses a repeated tool name as invalid-request naming the second one', ({ codec, path, request, param }) => {
    let caught: unknown;
    try {
      codec.decodeRequest({ path, body: body(request) });
    } catch (error) {
      caught = error;
    }
    expect(isCodecErrorV1(caught)).toBe(true);
    expect(caught).toMatchObject({ code: 'invalid-request', path: param });
  });

  it.each(cases)('$dialect takes the same request with distinct names', ({ codec, path, request }) => {
    const distinct = JSON.parse(JSON.stringify(request).replace('"read"', '"write"')) as unknown;
    expect(codec.decodeRequest({ path, body: body(distinct) }).task).toMatchObject({ kind: 'chat' });
  });
});
