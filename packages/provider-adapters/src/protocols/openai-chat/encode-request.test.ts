import { isCodecErrorV1, type ChatTaskV2, type ReasoningEffortV3, type TaskEnvelopeV2, type TaskEnvelopeV3 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { encodeOpenAiChatRequest } from './encode-request.js';

const base: ChatTaskV2 = { kind: 'chat', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] };

function body(task: ChatTaskV2, options?: Parameters<typeof encodeOpenAiChatRequest>[2]): Record<string, unknown> {
  return encodeOpenAiChatRequest(task, 'model-x', options).body.value as unknown as Record<string, unknown>;
}

function codecError(run: () => unknown): { code: string; path: string | undefined } {
  try {
    run();
  } catch (error) {
    if (isCodecErrorV1(error)) return { code: error.code, path: error.path };
    throw error;
  }
  throw new Error('expected a codec error');
}

describe('encodeOpenAiChatRequest', () => {
  it('sends POST /chat/completions with JSON headers and the minimal body', () => {
    const request = encodeOpenAiChatRequest(base, 'model-x');
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/chat/completions');
    // Only accept: content-type and credentials are the transport's.
    expect(request.headers).toEqual({ accept: 'application/json' });
    expect(request.body).toEqual({ type: 'json', value: { model: 'model-x', messages: [{ role: 'user', content: 'Hi' }] } });
  });

  it('asks for usage in the stream and accepts event streams', () => {
    const request = encodeOpenAiChatRequest({ ...base, stream: true }, 'model-x');
    expect(request.headers.accept).toBe('text/event-stream');
    expect(request.body.value).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('encodes system, every user part kind, assistant tool calls and tool results', () => {
    const task: ChatTaskV2 = {
      ...base,
      system: [{ type: 'text', text: 'Be brief.' }, { type: 'text', text: 'Use metric.', cacheControl: { type: 'ephemeral' } }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look:' },
            { type: 'image', source: { type: 'url', url: 'https://example.test/a.png' }, detail: 'high' },
            { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'iVBORw==' } },
            { type: 'audio', source: { type: 'base64', mediaType: 'audio/wav', data: 'UklGRg==' } },
            { type: 'audio', source: { type: 'url', url: 'data:audio/mpeg;base64,SUQz' } },
            { type: 'document', source: { type: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' }, title: 'spec.pdf' },
            { type: 'document', source: { type: 'url', url: 'data:application/pdf;base64,JVBERi1=' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'thinking', signature: 'sig' },
            { type: 'redacted-reasoning', data: 'opaque' },
            { type: 'text', text: 'Calling.' },
            { type: 'tool-call', toolCallId: 'call_1', toolName: 'weather', argumentsText: '{"city":"Oslo"}', signature: 's' },
          ],
        },
        {
          role: 'tool',
          content: [
            { type: 'tool-result', toolCallId: 'call_1', toolName: 'weather', content: [{ type: 'text', text: '5C' }] },
            { type: 'tool-result', toolCallId: 'call_2', toolName: 'weather', content: [], isError: true },
          ],
        },
      ],
    };
    expect(body(task).messages).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'Be brief.' }, { type: 'text', text: 'Use metric.' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look:' },
          { type: 'image_url', image_url: { url: 'https://example.test/a.png', detail: 'high' } },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw==' } },
          { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
          { type: 'input_audio', input_audio: { data: 'SUQz', format: 'mp3' } },
          { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'spec.pdf' } },
          { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi1=', filename: 'document-2.pdf' } },
        ],
      },
      {
        role: 'assistant',
        content: 'Calling.',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '5C' },
      { role: 'tool', tool_call_id: 'call_2', content: '' },
    ]);
  });

  it('uses the developer role and max_tokens when the options ask', () => {
    const encoded = body({ ...base, system: [{ type: 'text', text: 'S' }], maxOutputTokens: 50 }, { systemRole: 'developer', maxTokensField: 'max_tokens' });
    expect(encoded.messages).toEqual([{ role: 'developer', content: 'S' }, { role: 'user', content: 'Hi' }]);
    expect(encoded.max_tokens).toBe(50);
    expect(encoded).not.toHaveProperty('max_completion_tokens');
  });

  it('drops reasoning by default and replays it as reasoning_content when asked', () => {
    const task: ChatTaskV2 = {
      ...base,
      messages: [
        base.messages[0] as ChatTaskV2['messages'][number],
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'first' },
            { type: 'reasoning', text: 'second' },
            { type: 'tool-call', toolCallId: 'c', toolName: 't', argumentsText: '{}' },
          ],
        },
        { role: 'assistant', content: [{ type: 'reasoning', text: 'only thoughts' }] },
      ],
    };
    expect(body(task).messages).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 't', arguments: '{}' } }] },
    ]);
    expect((body(task, { reasoningReplay: 'reasoning-content' }).messages as unknown[]).slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 't', arguments: '{}' } }],
        reasoning_content: 'first\n\nsecond',
      },
      { role: 'assistant', content: '', reasoning_content: 'only thoughts' },
    ]);
  });

  it('encodes tools, tool choices, response formats, sampling and the other controls', () => {
    const tools: ChatTaskV2['tools'] = [
      { name: 'weather', description: 'Weather', inputSchema: { type: 'object' }, strict: true, cacheControl: { type: 'ephemeral' } },
      { name: 'time', inputSchema: { type: 'object', properties: {} } },
    ];
    const encoded = body({
      ...base,
      tools,
      toolChoice: { type: 'tool', toolName: 'time' },
      responseFormat: { type: 'json', schema: { type: 'object' }, name: 'answer', strict: true },
      sampling: { temperature: 0.2, topP: 0.9, topK: 40, frequencyPenalty: 0.1, presencePenalty: -0.1, seed: 7 },
      maxOutputTokens: 256,
      stopSequences: ['END'],
      reasoning: { effort: 'low', budgetTokens: 100_000 },
      caching: { promptCacheKey: 'tenant-a' },
    });
    expect(encoded).toEqual({
      model: 'model-x',
      messages: [{ role: 'user', content: 'Hi' }],
      tools: [
        { type: 'function', function: { name: 'weather', description: 'Weather', parameters: { type: 'object' }, strict: true } },
        { type: 'function', function: { name: 'time', parameters: { type: 'object', properties: {} } } },
      ],
      tool_choice: { type: 'function', function: { name: 'time' } },
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' }, strict: true } },
      temperature: 0.2,
      top_p: 0.9,
      frequency_penalty: 0.1,
      presence_penalty: -0.1,
      seed: 7,
      max_completion_tokens: 256,
      stop: ['END'],
      reasoning_effort: 'low',
      prompt_cache_key: 'tenant-a',
    });
    for (const type of ['auto', 'none', 'required'] as const) {
      expect(body({ ...base, tools, toolChoice: { type } }).tool_choice).toBe(type);
    }
    expect(body({ ...base, responseFormat: { type: 'json' } }).response_format).toEqual({ type: 'json_object' });
    expect(body({ ...base, responseFormat: { type: 'json', schema: {} } }).response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'response', schema: {} },
    });
    expect(body({ ...base, responseFormat: { type: 'text' } })).not.toHaveProperty('response_format');
  });

  it.each([
    [0, 'minimal'],
    [1023, 'minimal'],
    [1024, 'low'],
    [8191, 'low'],
    [8192, 'medium'],
    [24_575, 'medium'],
    [24_576, 'high'],
  ])('maps a reasoning budget of %i tokens to %s', (budgetTokens, effort) => {
    expect(body({ ...base, reasoning: { budgetTokens } }).reasoning_effort).toBe(effort);
  });

  it('sends no reasoning_effort without effort or budget', () => {
    expect(body({ ...base, reasoning: { includeReasoning: true } })).not.toHaveProperty('reasoning_effort');
  });

  it.each([
    ['a document by https URL', { type: 'document', source: { type: 'url', url: 'https://example.test/a.pdf' } }],
    ['a non-PDF document', { type: 'document', source: { type: 'base64', mediaType: 'text/plain', data: 'aGk=' } }],
    ['audio by URL', { type: 'audio', source: { type: 'url', url: 'https://example.test/a.wav' } }],
    ['audio that is not WAV or MP3', { type: 'audio', source: { type: 'base64', mediaType: 'audio/ogg', data: 'T2dn' } }],
  ])('refuses %s as unsupported', (_label, part) => {
    const task = { ...base, messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }, part] }] } as ChatTaskV2;
    expect(codecError(() => encodeOpenAiChatRequest(task, 'm'))).toEqual({ code: 'unsupported-feature', path: 'messages.0.content.1' });
  });

  it('refuses images in tool results and non-chat tasks', () => {
    const task: ChatTaskV2 = {
      ...base,
      messages: [
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c',
              toolName: 't',
              content: [{ type: 'image', source: { type: 'url', url: 'https://example.test/a.png' } }],
            },
          ],
        },
      ],
    };
    expect(codecError(() => encodeOpenAiChatRequest(task, 'm'))).toEqual({ code: 'unsupported-feature', path: 'messages.0.content.0.content.0' });
    const embedding: TaskEnvelopeV2 = { kind: 'embedding', inputs: ['x'] };
    expect(codecError(() => encodeOpenAiChatRequest(embedding, 'm')).code).toBe('unsupported-feature');
  });

  it('refuses a named tool choice that names no tool, and tool choices without tools', () => {
    const tools: ChatTaskV2['tools'] = [{ name: 'a', inputSchema: {} }];
    expect(codecError(() => encodeOpenAiChatRequest({ ...base, tools, toolChoice: { type: 'tool', toolName: 'b' } }, 'm')).code).toBe(
      'invalid-request',
    );
    expect(codecError(() => encodeOpenAiChatRequest({ ...base, toolChoice: { type: 'required' } }, 'm')).code).toBe('invalid-request');
    expect(body({ ...base, toolChoice: { type: 'none' } }).tool_choice).toBe('none');
  });

  it('is pure: the same task gives the same request and is not modified', () => {
    const task: ChatTaskV2 = structuredClone({ ...base, tools: [{ name: 'a', inputSchema: { type: 'object' } }] });
    const before = structuredClone(task);
    expect(encodeOpenAiChatRequest(task, 'm')).toEqual(encodeOpenAiChatRequest(task, 'm'));
    expect(task).toEqual(before);
  });
});

describe('encodeOpenAiChatRequest with V3 reasoning efforts', () => {
  const v3Task = (effort: 'none' | 'minimal' | 'medium' | 'xhigh' | 'max'): TaskEnvelopeV3 => ({
    kind: 'chat',
    stream: false,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    reasoning: { effort },
  });
  const sent = (task: TaskEnvelopeV3, declared?: readonly ReasoningEffortV3[]) => encodeOpenAiChatRequest(task, 'm', undefined, declared).body.value.reasoning_effort;

  it('maps none, xhigh and max onto the default scale when the target declares no levels', () => {
    expect(sent(v3Task('none'))).toBe('minimal');
    expect(sent(v3Task('medium'))).toBe('medium');
    expect(sent(v3Task('xhigh'))).toBe('high');
    expect(sent(v3Task('max'))).toBe('high');
  });

  it('sends a declared level as it is and maps the others to the nearest declared one', () => {
    const declared = ['none', 'low', 'medium', 'high', 'xhigh'] as const;
    expect(sent(v3Task('none'), declared)).toBe('none');
    expect(sent(v3Task('xhigh'), declared)).toBe('xhigh');
    expect(sent(v3Task('max'), declared)).toBe('xhigh');
    expect(sent(v3Task('minimal'), declared)).toBe('none');
  });

  it('refuses a token-count task as a kind it cannot run', () => {
    const task: TaskEnvelopeV3 = { kind: 'token-count', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] };
    expect(() => encodeOpenAiChatRequest(task, 'm')).toThrow(expect.objectContaining({ code: 'unsupported-feature' }));
  });
});
