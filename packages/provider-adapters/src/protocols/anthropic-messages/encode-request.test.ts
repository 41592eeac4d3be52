import { describe, expect, it } from 'vitest';
import { isCodecErrorV1, type ChatTaskV2, type ChatTaskV3, type CodecErrorCodeV1, type ReasoningEffortV3 } from '@tokenforge/model-protocol';
import { encodeAnthropicMessagesRequest } from './encode-request.js';

function chatTask(overrides: Partial<ChatTaskV2> = {}): ChatTaskV2 {
  return { kind: 'chat', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], stream: false, ...overrides };
}

function encode(task: ChatTaskV2, defaultMaxTokens?: number) {
  return encodeAnthropicMessagesRequest(task, { model: 'model-x', ...(defaultMaxTokens === undefined ? {} : { defaultMaxTokens }) });
}

function codecError(run: () => unknown): { code: CodecErrorCodeV1; path: string | undefined; message: string } {
  try {
    run();
  } catch (error) {
    if (isCodecErrorV1(error)) return { code: error.code, path: error.path, message: error.message };
    throw error;
  }
  throw new Error('expected a CodecErrorV1');
}

describe('encodeAnthropicMessagesRequest: envelope', () => {
  it('encodes a minimal task with the default max_tokens and no optional fields', () => {
    expect(encode(chatTask())).toEqual({
      model: 'model-x',
      max_tokens: 4096,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    });
  });

  it('uses maxOutputTokens, a custom default, stop sequences and the stream flag', () => {
    expect(encode(chatTask({ maxOutputTokens: 100 })).max_tokens).toBe(100);
    expect(encode(chatTask(), 2000).max_tokens).toBe(2000);
    const body = encode(chatTask({ stopSequences: ['END', '###'], stream: true }));
    expect(body.stop_sequences).toEqual(['END', '###']);
    expect(body.stream).toBe(true);
    expect('stream' in encode(chatTask({ stream: false }))).toBe(false);
  });

  it('sends system text blocks with cache_control and leaves empty ones out', () => {
    const body = encode(
      chatTask({
        system: [
          { type: 'text', text: 'Be brief.' },
          { type: 'text', text: '' },
          { type: 'text', text: 'Long reference text', cacheControl: { type: 'ephemeral', ttlSeconds: 3600 } },
        ],
      }),
    );
    expect(body.system).toEqual([
      { type: 'text', text: 'Be brief.' },
      { type: 'text', text: 'Long reference text', cache_control: { type: 'ephemeral', ttl: '1h' } },
    ]);
    expect('system' in encode(chatTask({ system: [{ type: 'text', text: '' }] }))).toBe(false);
  });

  it('clamps temperature to 1, passes top_p and top_k, and drops penalties and seed', () => {
    const body = encode(
      chatTask({ sampling: { temperature: 1.5, topP: 0.9, topK: 40, frequencyPenalty: 1, presencePenalty: -1, seed: 7 } }),
    );
    expect(body).toMatchObject({ temperature: 1, top_p: 0.9, top_k: 40 });
    expect(Object.keys(body)).not.toEqual(expect.arrayContaining(['frequency_penalty', 'presence_penalty', 'seed']));
    expect(encode(chatTask({ sampling: { temperature: 0.3 } })).temperature).toBe(0.3);
  });

  it('maps a JSON schema response format to output_config and refuses JSON without a schema', () => {
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };
    expect(encode(chatTask({ responseFormat: { type: 'json', schema, name: 'answer', strict: true } })).output_config).toEqual({
      format: { type: 'json_schema', schema },
    });
    expect('output_config' in encode(chatTask({ responseFormat: { type: 'text' } }))).toBe(false);
    expect(codecError(() => encode(chatTask({ responseFormat: { type: 'json' } })))).toMatchObject({
      code: 'unsupported-feature',
      path: 'responseFormat',
    });
  });
});

describe('encodeAnthropicMessagesRequest: messages', () => {
  it('puts tool results into a user turn, merges same-role turns and leads with tool results', () => {
    const body = encode(
      chatTask({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
          { role: 'user', content: [{ type: 'text', text: 'Please.' }] },
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', text: 'Two lookups.', signature: 'sig-1' },
              { type: 'text', text: '' },
              { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'weather', argumentsText: '{"city":"Paris"}' },
              { type: 'tool-call', toolCallId: 'toolu_2', toolName: 'weather', argumentsText: '{"city":"Rome"}' },
            ],
          },
          {
            role: 'tool',
            content: [{ type: 'tool-result', toolCallId: 'toolu_1', toolName: 'weather', content: [{ type: 'text', text: '18C' }] }],
          },
          { role: 'user', content: [{ type: 'text', text: 'And quickly.' }] },
          {
            role: 'tool',
            content: [
              { type: 'tool-result', toolCallId: 'toolu_2', toolName: 'weather', content: [{ type: 'text', text: 'failed' }], isError: true },
            ],
          },
        ],
      }),
    );
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Weather in Paris and Rome?' },
          { type: 'text', text: 'Please.' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Two lookups.', signature: 'sig-1' },
          { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'toolu_2', name: 'weather', input: { city: 'Rome' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '18C' }] },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: 'failed' }], is_error: true },
          { type: 'text', text: 'And quickly.' },
        ],
      },
    ]);
  });

  it('replays thinking and redacted thinking unmodified and drops unsigned reasoning', () => {
    const body = encode(
      chatTask({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Q' }] },
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', text: 'foreign reasoning without signature' },
              { type: 'reasoning', text: '', signature: 'EqQB/sig+==' },
              { type: 'redacted-reasoning', data: 'EmwK/opaque==' },
              { type: 'text', text: 'A' },
            ],
          },
        ],
      }),
    );
    expect(body.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: '', signature: 'EqQB/sig+==' },
        { type: 'redacted_thinking', data: 'EmwK/opaque==' },
        { type: 'text', text: 'A' },
      ],
    });
  });

  it('leaves out a message with nothing to send and merges its neighbours', () => {
    const body = encode(
      chatTask({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'one' }] },
          { role: 'assistant', content: [{ type: 'text', text: '' }, { type: 'reasoning', text: 'x' }] },
          { role: 'user', content: [{ type: 'text', text: 'two' }] },
        ],
      }),
    );
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }] }]);
    expect(codecError(() => encode(chatTask({ messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }] })))).toMatchObject({
      code: 'invalid-request',
      path: 'messages',
    });
  });

  it('parses tool arguments: empty means {}, invalid JSON and non-objects are typed failures', () => {
    const call = (argumentsText: string) =>
      encode(
        chatTask({
          messages: [
            { role: 'user', content: [{ type: 'text', text: 'go' }] },
            { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 't1', toolName: 'f', argumentsText, signature: 'gemini-sig' }] },
          ],
        }),
      ).messages[1]?.content[0];
    expect(call('')).toEqual({ type: 'tool_use', id: 't1', name: 'f', input: {} });
    expect(call('  ')).toEqual({ type: 'tool_use', id: 't1', name: 'f', input: {} });
    expect(call('{"a":{"b":[1,2]}}')).toEqual({ type: 'tool_use', id: 't1', name: 'f', input: { a: { b: [1, 2] } } });
    const secret = '{"password": "hunter2"';
    const failure = codecError(() => call(secret));
    expect(failure).toMatchObject({ code: 'invalid-request', path: 'messages.1.content.0.argumentsText' });
    expect(failure.message).not.toContain('hunter2');
    expect(codecError(() => call('[1,2]')).code).toBe('invalid-request');
    expect(codecError(() => call('"text"')).code).toBe('invalid-request');
    expect(codecError(() => call('{"__proto__": {"x": 1}}')).code).toBe('invalid-request');
  });

  it('encodes images by base64, https URL and data URL, with cache_control', () => {
    const body = encode(
      chatTask({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' }, detail: 'high' },
              { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' }, cacheControl: { type: 'ephemeral' } },
              { type: 'image', source: { type: 'url', url: 'data:image/webp;base64,UklGRg==' } },
            ],
          },
        ],
      }),
    );
    expect(body.messages[0]?.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' }, cache_control: { type: 'ephemeral' } },
      { type: 'image', source: { type: 'base64', media_type: 'image/webp', data: 'UklGRg==' } },
    ]);
  });

  it('refuses unsupported image types, non-https URLs and audio', () => {
    const single = (part: ChatTaskV2['messages'][number]['content'][number]) =>
      codecError(() => encode(chatTask({ messages: [{ role: 'user', content: [part] }] })));
    expect(single({ type: 'image', source: { type: 'base64', mediaType: 'image/bmp', data: 'Qk0=' } })).toMatchObject({
      code: 'unsupported-feature',
      path: 'messages.0.content.0.source',
    });
    expect(single({ type: 'image', source: { type: 'url', url: 'http://example.com/a.png' } }).code).toBe('invalid-request');
    expect(single({ type: 'image', source: { type: 'url', url: 'data:image/png,raw' } }).code).toBe('invalid-request');
    expect(single({ type: 'audio', source: { type: 'base64', mediaType: 'audio/wav', data: 'UklGRg==' } })).toMatchObject({
      code: 'unsupported-feature',
      path: 'messages.0.content.0',
    });
  });

  it('encodes PDF and plain-text documents and refuses other document types', () => {
    const text = btoa(String.fromCharCode(...new TextEncoder().encode('Grüße')));
    const body = encode(
      chatTask({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'document', source: { type: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' }, title: 'Report' },
              { type: 'document', source: { type: 'url', url: 'https://example.com/r.pdf' }, cacheControl: { type: 'ephemeral', ttlSeconds: 60 } },
              { type: 'document', source: { type: 'base64', mediaType: 'text/plain', data: text } },
            ],
          },
        ],
      }),
    );
    expect(body.messages[0]?.content).toEqual([
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' }, title: 'Report' },
      { type: 'document', source: { type: 'url', url: 'https://example.com/r.pdf' }, cache_control: { type: 'ephemeral', ttl: '5m' } },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Grüße' } },
    ]);
    const docx = { type: 'document' as const, source: { type: 'base64' as const, mediaType: 'application/msword', data: 'AAAA' } };
    expect(codecError(() => encode(chatTask({ messages: [{ role: 'user', content: [docx] }] }))).code).toBe('unsupported-feature');
    const badText = { type: 'document' as const, source: { type: 'base64' as const, mediaType: 'text/plain', data: '//79' } };
    expect(codecError(() => encode(chatTask({ messages: [{ role: 'user', content: [badText] }] }))).code).toBe('invalid-encoding');
  });

  it('encodes tool results with images, leaving out empty text and empty content', () => {
    const body = encode(
      chatTask({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'go' }] },
          { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 't1', toolName: 'shot', argumentsText: '{}' }] },
          {
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                toolCallId: 't1',
                toolName: 'shot',
                content: [
                  { type: 'text', text: '' },
                  { type: 'image', source: { type: 'base64', mediaType: 'image/jpeg', data: '/9j/' }, cacheControl: { type: 'ephemeral', ttlSeconds: 301 } },
                ],
              },
              { type: 'tool-result', toolCallId: 't1', toolName: 'shot', content: [{ type: 'text', text: '' }], isError: false },
            ],
          },
        ],
      }),
    );
    expect(body.messages[2]?.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 't1',
        content: [{ type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/' }, cache_control: { type: 'ephemeral', ttl: '1h' } }],
      },
      { type: 'tool_result', tool_use_id: 't1', is_error: false },
    ]);
  });
});

describe('encodeAnthropicMessagesRequest: tools', () => {
  const tools: ChatTaskV2['tools'] = [
    { name: 'weather', description: 'Looks up weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } }, strict: true },
    { name: 'noop', inputSchema: { type: 'object' }, strict: false, cacheControl: { type: 'ephemeral', ttlSeconds: 7200 } },
  ];

  it('encodes definitions with strict only when true and tool cache breakpoints', () => {
    expect(encode(chatTask({ tools })).tools).toEqual([
      { name: 'weather', description: 'Looks up weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } }, strict: true },
      { name: 'noop', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral', ttl: '1h' } },
    ]);
  });

  it('maps every tool choice, and sends no choice without tools', () => {
    expect(encode(chatTask({ tools, toolChoice: { type: 'auto' } })).tool_choice).toEqual({ type: 'auto' });
    expect(encode(chatTask({ tools, toolChoice: { type: 'required' } })).tool_choice).toEqual({ type: 'any' });
    expect(encode(chatTask({ tools, toolChoice: { type: 'none' } })).tool_choice).toEqual({ type: 'none' });
    expect(encode(chatTask({ tools, toolChoice: { type: 'tool', toolName: 'weather' } })).tool_choice).toEqual({ type: 'tool', name: 'weather' });
    const withoutTools = encode(chatTask({ tools: [], toolChoice: { type: 'required' } }));
    expect('tools' in withoutTools || 'tool_choice' in withoutTools).toBe(false);
  });
});

describe('encodeAnthropicMessagesRequest: reasoning budget', () => {
  it('maps effort to fixed budgets on top of the default answer room', () => {
    expect(encode(chatTask({ reasoning: { effort: 'minimal' } }))).toMatchObject({ max_tokens: 4096 + 1024, thinking: { type: 'enabled', budget_tokens: 1024 } });
    expect(encode(chatTask({ reasoning: { effort: 'low' } })).thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(encode(chatTask({ reasoning: { effort: 'medium' } })).thinking).toEqual({ type: 'enabled', budget_tokens: 8192 });
    expect(encode(chatTask({ reasoning: { effort: 'high' } }))).toMatchObject({ max_tokens: 4096 + 16_384, thinking: { budget_tokens: 16_384 } });
  });

  it('prefers an explicit budget, raises it to the minimum, and keeps it below max_tokens', () => {
    expect(encode(chatTask({ reasoning: { effort: 'high', budgetTokens: 3000 }, maxOutputTokens: 8000 }))).toMatchObject({
      max_tokens: 8000,
      thinking: { budget_tokens: 3000 },
    });
    expect(encode(chatTask({ reasoning: { budgetTokens: 10 }, maxOutputTokens: 2000 })).thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(codecError(() => encode(chatTask({ reasoning: { budgetTokens: 5000 }, maxOutputTokens: 5000 })))).toMatchObject({
      code: 'invalid-request',
      path: 'reasoning.budgetTokens',
    });
  });

  it('lowers an effort budget to fit max_tokens and refuses when even the minimum does not fit', () => {
    expect(encode(chatTask({ reasoning: { effort: 'high' }, maxOutputTokens: 4000 })).thinking).toEqual({ type: 'enabled', budget_tokens: 3999 });
    expect(codecError(() => encode(chatTask({ reasoning: { effort: 'low' }, maxOutputTokens: 1024 })))).toMatchObject({
      code: 'invalid-request',
      path: 'maxOutputTokens',
    });
  });

  it('sends no thinking for a zero budget or reasoning without budget or effort', () => {
    expect('thinking' in encode(chatTask({ reasoning: { budgetTokens: 0, effort: 'high' } }))).toBe(false);
    expect(encode(chatTask({ reasoning: { includeReasoning: true } }))).toEqual(encode(chatTask()));
  });
});

describe('encodeAnthropicMessagesRequest with V3 reasoning efforts', () => {
  const task = (effort: NonNullable<NonNullable<ChatTaskV3['reasoning']>['effort']>): ChatTaskV3 => ({
    kind: 'chat',
    stream: false,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    reasoning: { effort },
  });
  const budget = (value: ChatTaskV3, reasoningEfforts?: readonly ReasoningEffortV3[]) =>
    encodeAnthropicMessagesRequest(value, { model: 'claude', ...(reasoningEfforts === undefined ? {} : { reasoningEfforts }) }).thinking;

  it('gives none the minimal budget and xhigh / max the high budget on the default scale', () => {
    expect(budget(task('none'))).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(budget(task('xhigh'))).toEqual({ type: 'enabled', budget_tokens: 16_384 });
    expect(budget(task('max'))).toEqual({ type: 'enabled', budget_tokens: 16_384 });
  });

  it('maps onto the declared levels that have a budget', () => {
    expect(budget(task('medium'), ['low', 'high', 'max'])).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(budget(task('max'), ['low', 'max'])).toEqual({ type: 'enabled', budget_tokens: 2048 });
  });
});
