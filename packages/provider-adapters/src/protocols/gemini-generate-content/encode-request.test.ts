import { isCodecErrorV1, type ChatTaskV2, type ReasoningEffortV3, type TaskEnvelopeV2, type TaskEnvelopeV3 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { encodeGeminiRequest } from './encode-request.js';

const base: ChatTaskV2 = { kind: 'chat', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] };

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return isCodecErrorV1(error) ? error.code : 'untyped';
  }
  return undefined;
}

describe('encodeGeminiRequest', () => {
  it('sends a minimal sync request to :generateContent', () => {
    expect(encodeGeminiRequest(base, 'gemini-2.5-flash')).toEqual({
      method: 'POST',
      path: '/v1beta/models/gemini-2.5-flash:generateContent',
      headers: { accept: 'application/json' },
      body: { type: 'json', value: { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] } },
    });
  });

  it('sends a stream request to :streamGenerateContent with alt=sse', () => {
    const request = encodeGeminiRequest({ ...base, stream: true }, 'gemini-3-pro-preview');
    expect(request.path).toBe('/v1beta/models/gemini-3-pro-preview:streamGenerateContent');
    expect(request.query).toEqual({ alt: 'sse' });
    expect(request.headers).toEqual({ accept: 'text/event-stream' });
  });

  it.each(['../secrets', 'models/x', 'a/b', 'x:streamGenerateContent', 'x?alt=json', 'x#y', 'a%2Fb', 'a..b', '', ' gemini', 'gemini\n', '.hidden'])(
    'refuses the hostile model name %j with a typed error',
    (model) => {
      expect(codeOf(() => encodeGeminiRequest(base, model))).toBe('invalid-request');
    },
  );

  it('encodes a full conversation: system, media, tool calls with signatures, tool results, reasoning replay', () => {
    const task: ChatTaskV2 = {
      kind: 'chat',
      stream: false,
      system: [{ type: 'text', text: 'Be brief.' }, { type: 'text', text: 'Use tools.', cacheControl: { type: 'ephemeral' } }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look:' },
            { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' }, detail: 'high' },
            { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' }, title: 'A' },
            { type: 'document', source: { type: 'url', url: 'gs://bucket/b.pdf' } },
            { type: 'audio', source: { type: 'url', url: 'data:audio/wav;base64,UklGRg==' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'Need weather.', signature: 'UjE=' },
            { type: 'redacted-reasoning', data: 'opaque' },
            { type: 'reasoning', text: '' },
            { type: 'text', text: 'Checking.' },
            { type: 'tool-call', toolCallId: 'gemini-fc-r-0', toolName: 'weather', argumentsText: '{"city":"Paris"}', signature: 'VDE=' },
            { type: 'tool-call', toolCallId: 'call_abc', toolName: 'time', argumentsText: '' },
          ],
        },
        {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: 'gemini-fc-r-0', toolName: 'weather', content: [{ type: 'text', text: 'sunny' }] }],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'call_abc',
              toolName: 'time',
              isError: true,
              content: [
                { type: 'text', text: 'clock ' },
                { type: 'text', text: 'broken' },
                { type: 'image', source: { type: 'base64', mediaType: 'image/jpeg', data: '/9j/' } },
              ],
            },
          ],
        },
        { role: 'assistant', content: [{ type: 'redacted-reasoning', data: 'only-opaque' }] },
        { role: 'user', content: [{ type: 'text', text: 'Thanks' }] },
      ],
    };
    expect(encodeGeminiRequest(task, 'm').body).toEqual({
      type: 'json',
      value: {
        systemInstruction: { parts: [{ text: 'Be brief.' }, { text: 'Use tools.' }] },
        contents: [
          {
            role: 'user',
            parts: [
              { text: 'Look:' },
              { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
              { fileData: { fileUri: 'https://example.com/a.pdf' } },
              { fileData: { fileUri: 'gs://bucket/b.pdf' } },
              { inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } },
            ],
          },
          {
            role: 'model',
            parts: [
              { text: 'Need weather.', thought: true, thoughtSignature: 'UjE=' },
              { text: 'Checking.' },
              { functionCall: { name: 'weather', args: { city: 'Paris' } }, thoughtSignature: 'VDE=' },
              { functionCall: { name: 'time', args: {}, id: 'call_abc' } },
            ],
          },
          {
            role: 'user',
            parts: [
              { functionResponse: { name: 'weather', response: { output: 'sunny' } } },
              {
                functionResponse: {
                  name: 'time',
                  response: { error: 'clock broken' },
                  id: 'call_abc',
                  parts: [{ inlineData: { mimeType: 'image/jpeg', data: '/9j/' } }],
                },
              },
            ],
          },
          { role: 'user', parts: [{ text: 'Thanks' }] },
        ],
      },
    });
  });

  it('encodes tools, tool choice, response schema, sampling and thinking', () => {
    const task: ChatTaskV2 = {
      ...base,
      tools: [
        {
          name: 'lookup',
          description: 'Look up',
          strict: true,
          inputSchema: {
            $schema: 'https://json-schema.org/draft/2020-12/schema',
            type: 'object',
            properties: {
              kind: { const: 'a', description: 'kind' },
              value: { oneOf: [{ type: 'string', default: 'x' }, { $ref: '#/definitions/num' }] },
            },
            definitions: { num: { type: 'number', minimum: 0 } },
            required: ['kind'],
            additionalProperties: false,
          },
        },
      ],
      toolChoice: { type: 'tool', toolName: 'lookup' },
      responseFormat: { type: 'json', name: 'answer', strict: true, schema: { type: 'object', properties: { ok: { type: 'boolean' } } } },
      sampling: { temperature: 0.2, topP: 0.9, topK: 40, presencePenalty: 0.1, frequencyPenalty: -0.1, seed: 7 },
      maxOutputTokens: 256,
      stopSequences: ['END'],
      reasoning: { effort: 'high', includeReasoning: true },
      caching: { promptCacheKey: 'k' },
      idempotencyKey: 'id-1',
    };
    const value = (encodeGeminiRequest(task, 'm').body as { value: Record<string, unknown> }).value;
    expect(value.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'lookup',
            description: 'Look up',
            parametersJsonSchema: {
              type: 'object',
              properties: {
                kind: { enum: ['a'], description: 'kind' },
                value: { anyOf: [{ type: 'string' }, { $ref: '#/$defs/num' }] },
              },
              $defs: { num: { type: 'number', minimum: 0 } },
              required: ['kind'],
              additionalProperties: false,
            },
          },
        ],
      },
    ]);
    expect(value.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['lookup'] } });
    expect(value.generationConfig).toEqual({
      temperature: 0.2,
      topP: 0.9,
      topK: 40,
      presencePenalty: 0.1,
      frequencyPenalty: -0.1,
      seed: 7,
      maxOutputTokens: 256,
      stopSequences: ['END'],
      responseMimeType: 'application/json',
      responseJsonSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
      thinkingConfig: { thinkingBudget: 24_576, includeThoughts: true },
    });
    expect(Object.keys(value).sort()).toEqual(['contents', 'generationConfig', 'toolConfig', 'tools']);
  });

  it('maps tool choices and omits the tool config without tools', () => {
    const tools = [{ name: 't', inputSchema: { type: 'object' } }];
    const config = (toolChoice: ChatTaskV2['toolChoice']) =>
      (encodeGeminiRequest({ ...base, tools, ...(toolChoice === undefined ? {} : { toolChoice }) }, 'm').body as { value: { toolConfig?: unknown } }).value.toolConfig;
    expect(config({ type: 'auto' })).toEqual({ functionCallingConfig: { mode: 'AUTO' } });
    expect(config({ type: 'none' })).toEqual({ functionCallingConfig: { mode: 'NONE' } });
    expect(config({ type: 'required' })).toEqual({ functionCallingConfig: { mode: 'ANY' } });
    expect(config(undefined)).toBeUndefined();
    const withoutTools = encodeGeminiRequest({ ...base, toolChoice: { type: 'required' } }, 'm').body as { value: object };
    expect(withoutTools.value).not.toHaveProperty('toolConfig');
    expect(codeOf(() => encodeGeminiRequest({ ...base, tools, toolChoice: { type: 'tool', toolName: 'other' } }, 'm'))).toBe('invalid-request');
  });

  it('maps reasoning by the documented rule', () => {
    const thinking = (reasoning: ChatTaskV2['reasoning'], effortEncoding?: 'thinking-budget' | 'thinking-level') =>
      (
        encodeGeminiRequest({ ...base, ...(reasoning === undefined ? {} : { reasoning }) }, 'm', effortEncoding === undefined ? {} : { effortEncoding })
          .body as { value: { generationConfig?: { thinkingConfig?: unknown } } }
      ).value.generationConfig?.thinkingConfig;
    expect(thinking({ effort: 'minimal' })).toEqual({ thinkingBudget: 512 });
    expect(thinking({ effort: 'low' })).toEqual({ thinkingBudget: 1024 });
    expect(thinking({ effort: 'medium' })).toEqual({ thinkingBudget: 8192 });
    expect(thinking({ effort: 'medium' }, 'thinking-level')).toEqual({ thinkingLevel: 'MEDIUM' });
    expect(thinking({ effort: 'high', budgetTokens: 0 }, 'thinking-level')).toEqual({ thinkingBudget: 0 });
    expect(thinking({ includeReasoning: false })).toEqual({ includeThoughts: false });
    expect(thinking({})).toBeUndefined();
    expect(thinking(undefined)).toBeUndefined();
  });

  it.each([
    ['more than five stop sequences', { ...base, stopSequences: ['a', 'b', 'c', 'd', 'e', 'f'] }, 'unsupported-feature'],
    ['a schema keyword Gemini lacks', { ...base, tools: [{ name: 't', inputSchema: { type: 'object', not: { type: 'null' } } }] }, 'unsupported-feature'],
    ['allOf in a response schema', { ...base, responseFormat: { type: 'json', schema: { allOf: [{ type: 'object' }] } } }, 'unsupported-feature'],
    ['oneOf beside anyOf', { ...base, responseFormat: { type: 'json', schema: { oneOf: [], anyOf: [] } } }, 'unsupported-feature'],
    ['a non-object subschema', { ...base, responseFormat: { type: 'json', schema: { properties: { a: 3 } } } }, 'invalid-request'],
    ['arguments that are not JSON', { ...base, messages: [{ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 't', argumentsText: '{bad' }] }] }, 'invalid-request'],
    ['arguments that are an array', { ...base, messages: [{ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 't', argumentsText: '[1]' }] }] }, 'invalid-request'],
    ['an http image URL', { ...base, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'http://x/y.png' } }] }] }, 'invalid-request'],
    ['a URL with user info', { ...base, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://u:p@x/y.png' } }] }] }, 'invalid-request'],
    ['non-base64 image data', { ...base, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'not base64!' } }] }] }, 'invalid-request'],
    ['an embedding task', { kind: 'embedding', inputs: ['a'] }, 'unsupported-feature'],
  ] as const)('refuses %s', (_label, task, code) => {
    expect(codeOf(() => encodeGeminiRequest(task as TaskEnvelopeV2, 'm'))).toBe(code);
  });

  it('refuses a schema nested beyond the limit', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let depth = 0; depth < 80; depth += 1) schema = { type: 'object', properties: { a: schema } };
    expect(codeOf(() => encodeGeminiRequest({ ...base, responseFormat: { type: 'json', schema } }, 'm'))).toBe('invalid-request');
  });

  it('adds the skip-validator placeholder to an unsigned first call only when asked', () => {
    const task: ChatTaskV2 = {
      ...base,
      messages: [
        ...base.messages,
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', toolCallId: 'call_1', toolName: 'a', argumentsText: '{}' },
            { type: 'tool-call', toolCallId: 'call_2', toolName: 'b', argumentsText: '{}' },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_3', toolName: 'a', argumentsText: '{}', signature: 'UkVBTA==' }] },
      ],
    };
    const signatures = (options?: { missingToolCallSignature: 'omit' | 'skip-validator' }) =>
      (encodeGeminiRequest(task, 'm', options).body as { value: { contents: { parts: { thoughtSignature?: string }[] }[] } }).value.contents
        .slice(1)
        .map((content) => content.parts.map((part) => part.thoughtSignature));
    expect(signatures()).toEqual([[undefined, undefined], ['UkVBTA==']]);
    expect(signatures({ missingToolCallSignature: 'skip-validator' })).toEqual([['skip_thought_signature_validator', undefined], ['UkVBTA==']]);
  });
});

describe('encodeGeminiRequest with V3 reasoning efforts', () => {
  const task = (effort: 'none' | 'max'): TaskEnvelopeV3 => ({
    kind: 'chat',
    stream: false,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    reasoning: { effort },
  });
  const thinking = (value: TaskEnvelopeV3, options?: Parameters<typeof encodeGeminiRequest>[2], declared?: readonly ReasoningEffortV3[]) =>
    ((encodeGeminiRequest(value, 'm', options, declared).body as { value: { generationConfig?: { thinkingConfig?: unknown } } }).value.generationConfig?.thinkingConfig);

  it('maps none and max to the nearest level Gemini has, as a budget or a thinking level', () => {
    expect(thinking(task('none'))).toEqual({ thinkingBudget: 512 });
    expect(thinking(task('max'))).toEqual({ thinkingBudget: 24_576 });
    expect(thinking(task('max'), { effortEncoding: 'thinking-level' }, ['low', 'high'])).toEqual({ thinkingLevel: 'HIGH' });
    expect(thinking(task('none'), { effortEncoding: 'thinking-level' }, ['low', 'high'])).toEqual({ thinkingLevel: 'LOW' });
  });
});
