import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chatTaskV3Schema as chatTaskV2Schema, isCodecErrorV1, type CodecErrorCodeV1 } from '@tokenforge/model-protocol';
import { encodeAnthropicMessagesRequest } from './encode-request.js';
import { createAnthropicMessagesIngressCodec, decodeAnthropicMessagesRequest } from './ingress.js';

const encoder = new TextEncoder();

function request(body: unknown) {
  return { path: '/v1/messages', body: encoder.encode(JSON.stringify(body)) };
}

function decode(body: unknown) {
  return decodeAnthropicMessagesRequest(request(body));
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

const fullRequest = {
  model: 'claude-sonnet-4-5',
  max_tokens: 2048,
  system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral', ttl: '1h' } }],
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Look at these.', cache_control: { type: 'ephemeral' } },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
        { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
        { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' }, title: 'Report', citations: { enabled: true } },
        { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Grüße' } },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Need the weather.', signature: 'EqQB/sig==' },
        { type: 'redacted_thinking', data: 'EmwK/opaque==' },
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris', days: [1, 2] } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: 'Sunny', cache_control: { type: 'ephemeral' } },
        { type: 'text', text: 'Thanks, and tomorrow?' },
      ],
    },
  ],
  tools: [
    {
      name: 'get_weather',
      description: 'Weather by city',
      input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      cache_control: { type: 'ephemeral', ttl: '5m' },
    },
  ],
  tool_choice: { type: 'any', disable_parallel_tool_use: true },
  thinking: { type: 'enabled', budget_tokens: 1024 },
  temperature: 1,
  top_p: 0.95,
  top_k: 20,
  stop_sequences: ['END'],
  metadata: { user_id: 'user-123' },
  service_tier: 'auto',
  stream: true,
  some_future_field: { anything: true },
};

describe('anthropic-messages ingress', () => {
  it('decodes every supported field and block kind into a valid task', () => {
    const decoded = decode(fullRequest);
    expect(decoded.modelLabel).toBe('claude-sonnet-4-5');
    expect(decoded.task).toEqual({
      kind: 'chat',
      system: [{ type: 'text', text: 'You are terse.', cacheControl: { type: 'ephemeral', ttlSeconds: 3600 } }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look at these.', cacheControl: { type: 'ephemeral' } },
            { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
            { type: 'document', source: { type: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' }, title: 'Report' },
            { type: 'document', source: { type: 'base64', mediaType: 'text/plain', data: btoa('Gr\u00c3\u00bc\u00c3\u009fe') } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'Need the weather.', signature: 'EqQB/sig==' },
            { type: 'redacted-reasoning', data: 'EmwK/opaque==' },
            { type: 'text', text: 'Checking.' },
            { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'get_weather', argumentsText: '{"city":"Paris","days":[1,2]}' },
          ],
        },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_1', toolName: 'get_weather', content: [{ type: 'text', text: 'Sunny' }], cacheControl: { type: 'ephemeral' } }] },
        { role: 'user', content: [{ type: 'text', text: 'Thanks, and tomorrow?' }] },
      ],
      tools: [
        {
          name: 'get_weather',
          description: 'Weather by city',
          inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          cacheControl: { type: 'ephemeral', ttlSeconds: 300 },
        },
      ],
      toolChoice: { type: 'required' },
      parallelToolCalls: false,
      endUserId: 'user-123',
      sampling: { temperature: 1, topP: 0.95, topK: 20 },
      maxOutputTokens: 2048,
      stopSequences: ['END'],
      reasoning: { budgetTokens: 1024, includeReasoning: true },
      stream: true,
    });
    expect(chatTaskV2Schema.safeParse(decoded.task).success).toBe(true);
  });

  it('re-encodes the decoded task as the equivalent provider request (same-dialect round trip)', () => {
    const { task } = decode(fullRequest);
    if (task.kind !== 'chat') throw new Error('expected chat');
    const body = encodeAnthropicMessagesRequest(task, { model: 'claude-sonnet-4-5' });
    expect(body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 2048,
      system: fullRequest.system,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look at these.', cache_control: { type: 'ephemeral' } },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' }, title: 'Report' },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Grüße' } },
          ],
        },
        fullRequest.messages[1],
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'Sunny' }], cache_control: { type: 'ephemeral' } },
            { type: 'text', text: 'Thanks, and tomorrow?' },
          ],
        },
      ],
      tools: fullRequest.tools,
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
      metadata: { user_id: 'user-123' },
      thinking: { type: 'enabled', budget_tokens: 1024 },
      temperature: 1,
      top_p: 0.95,
      top_k: 20,
      stop_sequences: ['END'],
      stream: true,
    });
  });

  it('accepts string content and a string system, and defaults stream to false', () => {
    expect(decode({ model: 'm', max_tokens: 5, system: 'Be brief.', messages: [{ role: 'user', content: 'Hi' }] }).task).toEqual({
      kind: 'chat',
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      maxOutputTokens: 5,
      stream: false,
    });
  });

  it('reads the structured-outputs beta top-level output_format as the JSON response format', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    const beta = { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }], output_format: { type: 'json_schema', schema } };
    expect(decode(beta).task).toMatchObject({ responseFormat: { type: 'json', schema } });
    // Sent both ways with the same schema (a client mid-migration), it is one format.
    expect(decode({ ...beta, output_config: { format: { type: 'json_schema', schema } } }).task).toMatchObject({ responseFormat: { type: 'json', schema } });
  });

  it('maps output_config format and effort, tool choices, disabled thinking and tool result errors with images', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    const { task } = decode({
      model: 'm',
      max_tokens: 5,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'shot', input: {} }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't', is_error: true, content: [{ type: 'text', text: 'x' }, { type: 'image', source: { type: 'url', url: 'https://e.com/a.png' } }] },
          ],
        },
      ],
      output_config: { format: { type: 'json_schema', schema }, effort: 'medium' },
      thinking: { type: 'disabled' },
      tools: [{ name: 'shot', input_schema: { type: 'object' }, type: 'custom' }],
      tool_choice: { type: 'tool', name: 'shot' },
    });
    expect(task).toMatchObject({
      responseFormat: { type: 'json', schema },
      reasoning: { effort: 'medium' },
      toolChoice: { type: 'tool', toolName: 'shot' },
      messages: [
        {},
        { content: [{ type: 'tool-call', argumentsText: '{}' }] },
        {
          role: 'tool',
          content: [
            { type: 'tool-result', toolName: 'shot', isError: true, content: [{ type: 'text', text: 'x' }, { type: 'image', source: { type: 'url', url: 'https://e.com/a.png' } }] },
          ],
        },
      ],
    });
    expect(decode({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }], tool_choice: { type: 'none' }, tools: [{ name: 'a', input_schema: { type: 'object' } }] }).task).toMatchObject({ toolChoice: { type: 'none' } });
    expect(decode({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }], tool_choice: { type: 'auto' } }).task).toMatchObject({ toolChoice: { type: 'auto' } });
  });

  it('joins system turns inside the conversation to the system, in order, and reads adaptive thinking over the whole effort scale', () => {
    const { task } = decode({
      model: 'm',
      max_tokens: 5,
      system: 'top',
      messages: [
        { role: 'user', content: 'go' },
        { role: 'system', content: [{ type: 'text', text: 'late', cache_control: { type: 'ephemeral' } }], output_config: { effort: 'medium' } },
        { role: 'system', content: 'later' },
        { role: 'assistant', content: 'ok' },
      ],
      thinking: { type: 'adaptive', display: 'updates' },
      output_config: { effort: 'medium' },
      metadata: { user_id: 'u' },
      context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
      tools: [{ name: 'a', input_schema: { type: 'object' }, defer_loading: true, eager_input_streaming: true }],
    });
    expect(task).toMatchObject({
      system: [{ type: 'text', text: 'top' }, { type: 'text', text: 'late', cacheControl: { type: 'ephemeral' } }, { type: 'text', text: 'later' }],
      messages: [{ role: 'user' }, { role: 'assistant' }],
      reasoning: { effort: 'medium', includeReasoning: true, adaptive: true, display: 'updates' },
      tools: [{ name: 'a', deferLoading: true, eagerInputStreaming: true }],
      endUserId: 'u',
      contextManagement: { clearThinking: { keep: 'all' } },
    });
    const effortOf = (effort: string | undefined, display?: string) =>
      decode({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }], thinking: { type: 'adaptive', ...(display === undefined ? {} : { display }) }, ...(effort === undefined ? {} : { output_config: { effort } }) }).task;
    expect(effortOf(undefined)).toMatchObject({ reasoning: { effort: 'high', includeReasoning: true } });
    expect(effortOf('low', 'omitted')).toMatchObject({ reasoning: { effort: 'low', includeReasoning: false } });
    expect(effortOf('minimal')).toMatchObject({ reasoning: { effort: 'minimal' } });
    expect(effortOf('xhigh')).toMatchObject({ reasoning: { effort: 'xhigh' } });
    expect(effortOf('max')).toMatchObject({ reasoning: { effort: 'max' } });
    expect(effortOf('none')).toMatchObject({ reasoning: { effort: 'none' } });
    expect(effortOf('none')).toMatchObject({ reasoning: { effort: 'none' } });
    expect(Object.keys((effortOf('none') as { reasoning: object }).reasoning)).toEqual(['effort']);
  });

  it('reads the web search server tool as a hosted tool and drops the other server tools, reporting them', () => {
    const decoded = decode({
      model: 'm',
      max_tokens: 5,
      messages: [{ role: 'user', content: 'x' }],
      tools: [
        { type: 'web_search_20250305', name: 'web_search', max_uses: 3, allowed_domains: ['example.com'], blocked_domains: ['bad.example'] },
        { type: 'code_execution_20250825', name: 'code_execution' },
        { name: 'a', input_schema: { type: 'object' } },
      ],
    });
    expect(decoded.droppedHostedTools).toEqual(['code_execution_20250825']);
    expect(decoded.hostedToolNames).toEqual(['web_search_20250305']);
    expect(decoded.task).toMatchObject({ tools: [{ name: 'a' }], hostedTools: [{ kind: 'web-search', maxUses: 3, allowedDomains: ['example.com'], blockedDomains: ['bad.example'] }] });
    const later = decode({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'web_search_20260209', name: 'web_search' }] });
    expect(later.task).not.toHaveProperty('tools');
    expect(later.task).toMatchObject({ hostedTools: [{ kind: 'web-search' }] });
    expect(later).not.toHaveProperty('droppedHostedTools');
    expect(decode({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] })).not.toHaveProperty('droppedHostedTools');
  });

  it('reads metadata.user_id, leaving an invalid one out, the parallel switch and context management edits', () => {
    const user = (user_id: unknown) => decode({ ...base, metadata: { user_id } }).task;
    expect(user('user-1')).toMatchObject({ endUserId: 'user-1' });
    expect(user('bad\u0001id')).not.toHaveProperty('endUserId');
    expect(user('x'.repeat(1025))).not.toHaveProperty('endUserId');
    expect(user(42)).not.toHaveProperty('endUserId');
    const tools = [{ name: 'a', input_schema: { type: 'object' } }];
    expect(decode({ ...base, tools, tool_choice: { type: 'auto', disable_parallel_tool_use: true } }).task).toMatchObject({ parallelToolCalls: false });
    expect(decode({ ...base, tools, tool_choice: { type: 'any', disable_parallel_tool_use: false } }).task).toMatchObject({ parallelToolCalls: true });
    expect(decode({ ...base, tools, tool_choice: { type: 'auto' } }).task).not.toHaveProperty('parallelToolCalls');
    const edits = decode({
      ...base,
      context_management: {
        edits: [
          { type: 'clear_thinking_20251015', keep: { type: 'thinking_turns', value: 2 } },
          { type: 'clear_tool_uses_20250919', trigger: { type: 'input_tokens', value: 30000 }, keep: { type: 'tool_uses', value: 3 }, clear_at_least: { type: 'input_tokens', value: 5000 }, exclude_tools: ['a'], clear_tool_inputs: true },
          { type: 'compact_20260101' },
        ],
      },
    }).task;
    expect(edits).toMatchObject({
      contextManagement: { clearThinking: { keep: 2 }, clearToolUses: { triggerInputTokens: 30000, keepToolUses: 3, clearAtLeastInputTokens: 5000, excludeTools: ['a'], clearToolInputs: true } },
    });
    expect(decode({ ...base, context_management: { edits: [{ type: 'unknown' }] } }).task).not.toHaveProperty('contextManagement');
  });

  it('keeps cache breakpoints on tool_use and tool_result blocks', () => {
    const { task } = decode({
      ...base,
      messages: [
        { role: 'user', content: 'x' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {}, cache_control: { type: 'ephemeral' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'r', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
      ],
    });
    expect(task).toMatchObject({
      messages: [
        { role: 'user' },
        { role: 'assistant', content: [{ type: 'tool-call', cacheControl: { type: 'ephemeral' } }] },
        { role: 'tool', content: [{ type: 'tool-result', cacheControl: { type: 'ephemeral', ttlSeconds: 3600 } }] },
      ],
    });
  });

  const base = { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] };
  it.each([
    ['a missing model', { ...base, model: undefined }, 'invalid-request'],
    ['a missing max_tokens', { ...base, max_tokens: undefined }, 'invalid-request'],
    ['a fractional max_tokens', { ...base, max_tokens: 1.5 }, 'invalid-request'],
    ['a zero max_tokens (cache pre-warm)', { ...base, max_tokens: 0 }, 'unsupported-feature'],
    ['missing messages', { ...base, messages: undefined }, 'invalid-request'],
    ['an empty content array', { ...base, messages: [{ role: 'user', content: [] }] }, 'invalid-request'],
    ['a system message with an image', { ...base, messages: [{ role: 'system', content: [{ type: 'image', source: { type: 'url', url: 'https://e.com/a.png' } }] }] }, 'invalid-request'],
    ['an unknown role', { ...base, messages: [{ role: 'tool', content: 'x' }] }, 'invalid-request'],
    ['a temperature above 1', { ...base, temperature: 1.5 }, 'invalid-request'],
    ['forcing a server tool', { ...base, tools: [{ type: 'web_search_20250305', name: 'web_search' }], tool_choice: { type: 'tool', name: 'web_search' } }, 'unsupported-feature'],
    ['a tool without input_schema', { ...base, tools: [{ name: 'a' }] }, 'invalid-request'],
    ['an unknown thinking display', { ...base, thinking: { type: 'adaptive', display: 'loud' } }, 'invalid-request'],
    ['enabled thinking without budget', { ...base, thinking: { type: 'enabled' } }, 'invalid-request'],
    ['an unknown effort', { ...base, output_config: { effort: 'extreme' } }, 'invalid-request'],
    ['a beta output_format that is not json_schema', { ...base, output_format: { type: 'text' } }, 'invalid-request'],
    ['a beta output_format that disagrees with output_config.format', { ...base, output_config: { format: { type: 'json_schema', schema: { type: 'object' } } }, output_format: { type: 'json_schema', schema: { type: 'array' } } }, 'invalid-request'],
    ['a file image source', { ...base, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'file', file_id: 'f' } }] }] }, 'unsupported-feature'],
    ['a document with context', { ...base, messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'url', url: 'https://e.com/a.pdf' }, context: 'c' }] }] }, 'unsupported-feature'],
    ['a content document source', { ...base, messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'content', content: [] } }] }] }, 'unsupported-feature'],
    ['a search_result block', { ...base, messages: [{ role: 'user', content: [{ type: 'search_result', source: 's', title: 't', content: [] }] }] }, 'unsupported-feature'],
    ['a server_tool_use block', { ...base, messages: [{ role: 'assistant', content: [{ type: 'server_tool_use', id: 's', name: 'web_search', input: {} }] }] }, 'unsupported-feature'],
    ['a tool_result for an unknown tool_use', { ...base, messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'nope', content: 'x' }] }] }, 'invalid-request'],
    ['a tool_use with string input', { ...base, messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: '{}' }] }] }, 'invalid-request'],
    ['a bad cache ttl', { ...base, system: [{ type: 'text', text: 's', cache_control: { type: 'ephemeral', ttl: '2h' } }] }, 'invalid-request'],
    ['a tool name the task schema refuses', { ...base, tools: [{ name: 'has space', input_schema: { type: 'object' } }] }, 'invalid-request'],
    ['too many stop sequences', { ...base, stop_sequences: Array.from({ length: 17 }, (_, index) => `s${index}`) }, 'invalid-request'],
    ['a non-object body', [base], 'invalid-request'],
  ])('refuses %s', (_label, body, code) => {
    expect(codecError(() => decode(body)).code).toBe(code);
  });

  it('refuses hostile bytes with the safe parser codes and never echoes the prompt', () => {
    const codec = createAnthropicMessagesIngressCodec({ maxBodyBytes: 64 });
    expect(codecError(() => codec.decodeRequest({ path: '/v1/messages', body: encoder.encode('{"model":') })).code).toBe('malformed-json');
    expect(codecError(() => codec.decodeRequest({ path: '/v1/messages', body: encoder.encode(JSON.stringify({ ...base, pad: 'x'.repeat(100) })) })).code).toBe(
      'body-too-large',
    );
    expect(codecError(() => decodeAnthropicMessagesRequest({ path: '/v1/messages', body: encoder.encode('{"__proto__":{}}') })).code).toBe('forbidden-key');
    expect(codecError(() => decodeAnthropicMessagesRequest({ path: '/v1/messages', body: new Uint8Array([0x7b, 0xff, 0x7d]) })).code).toBe('invalid-encoding');
    const deep = `${'['.repeat(100)}${']'.repeat(100)}`;
    expect(codecError(() => decodeAnthropicMessagesRequest({ path: '/v1/messages', body: encoder.encode(`{"messages":${deep}}`) })).code).toBe('nesting-too-deep');
    const failure = codecError(() => decode({ ...base, messages: [{ role: 'user', content: [{ type: 'text', text: 42, secret: 'TOP-SECRET' }] }] }));
    expect(failure.message).not.toContain('TOP-SECRET');
    expect(failure.path).toBe('messages.0.content.0.text');
  });

  it('never throws anything but a CodecErrorV1 for arbitrary JSON bodies', () => {
    const block = fc.record({ type: fc.constantFrom('text', 'image', 'tool_use', 'tool_result', 'thinking', 'document', 'x'), text: fc.anything() }, { requiredKeys: ['type'] });
    const body = fc.record(
      {
        model: fc.oneof(fc.string(), fc.integer()),
        max_tokens: fc.oneof(fc.integer({ min: -1, max: 10 }), fc.string()),
        messages: fc.oneof(fc.array(fc.record({ role: fc.constantFrom('user', 'assistant', 'system'), content: fc.oneof(fc.string(), fc.array(block)) })), fc.jsonValue()),
        system: fc.jsonValue(),
        tools: fc.jsonValue(),
        thinking: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(body, (value) => {
        try {
          decode(value);
        } catch (error) {
          expect(isCodecErrorV1(error)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});
