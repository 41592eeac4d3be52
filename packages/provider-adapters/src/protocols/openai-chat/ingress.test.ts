import fc from 'fast-check';
import { isCodecErrorV1, taskEnvelopeV2Schema } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { createOpenAiChatIngressCodec, decodeOpenAiChatClientRequest } from './ingress.js';

const encoder = new TextEncoder();

function decode(body: unknown) {
  return decodeOpenAiChatClientRequest({ path: '/v1/chat/completions', body: encoder.encode(typeof body === 'string' ? body : JSON.stringify(body)) });
}

function refusal(body: unknown): { code: string; path: string | undefined } {
  try {
    decode(body);
  } catch (error) {
    if (isCodecErrorV1(error)) return { code: error.code, path: error.path };
    throw error;
  }
  throw new Error('expected a codec error');
}

const minimal = { model: 'gpt-test', messages: [{ role: 'user', content: 'Hi' }] };

describe('openai-chat ingress', () => {
  it('decodes a minimal request', () => {
    expect(decode(minimal)).toEqual({
      modelLabel: 'gpt-test',
      task: { kind: 'chat', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], stream: false },
    });
    expect(createOpenAiChatIngressCodec().protocolFamily).toBe('openai-chat/v1');
  });

  it('decodes every supported field', () => {
    const { task, modelLabel } = decode({
      model: 'gpt-test',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'developer', content: 'Be brief.' },
        { role: 'system', content: [{ type: 'text', text: 'Metric units.' }], name: 'ops' },
        {
          role: 'user',
          name: 'ann',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'image_url', image_url: { url: 'https://example.test/a.png', detail: 'low' } },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw==' } },
            { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
            { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          reasoning_content: 'thinking',
          refusal: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } },
            { id: 'call_2', type: 'function', function: { name: 'time', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '5C' },
        { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: '12:00' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'It is ' }, { type: 'refusal', refusal: 'no' }] },
      ],
      tools: [
        { type: 'function', function: { name: 'weather', description: 'Weather', parameters: { type: 'object' }, strict: true } },
        { type: 'function', function: { name: 'time' } },
      ],
      tool_choice: { type: 'function', function: { name: 'weather' } },
      parallel_tool_calls: false,
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' }, strict: true } },
      temperature: 0.5,
      top_p: 0.9,
      frequency_penalty: 0.1,
      presence_penalty: 0.2,
      seed: 3,
      max_completion_tokens: 100,
      max_tokens: 50,
      stop: 'END',
      reasoning_effort: 'medium',
      prompt_cache_key: 'k',
      user: 'someone',
      metadata: { a: 'b' },
      store: false,
      some_future_field: { anything: true },
    });
    expect(modelLabel).toBe('gpt-test');
    expect(task).toEqual({
      kind: 'chat',
      system: [{ type: 'text', text: 'Be brief.' }, { type: 'text', text: 'Metric units.' }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'image', source: { type: 'url', url: 'https://example.test/a.png' }, detail: 'low' },
            { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'iVBORw==' } },
            { type: 'audio', source: { type: 'base64', mediaType: 'audio/wav', data: 'UklGRg==' } },
            { type: 'document', source: { type: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' }, title: 'a.pdf' },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'thinking' },
            { type: 'tool-call', toolCallId: 'call_1', toolName: 'weather', argumentsText: '{"city":"Oslo"}' },
            { type: 'tool-call', toolCallId: 'call_2', toolName: 'time', argumentsText: '{}' },
          ],
        },
        {
          role: 'tool',
          content: [
            { type: 'tool-result', toolCallId: 'call_1', toolName: 'weather', content: [{ type: 'text', text: '5C' }] },
            { type: 'tool-result', toolCallId: 'call_2', toolName: 'time', content: [{ type: 'text', text: '12:00' }] },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'It is ' }, { type: 'text', text: 'no' }] },
      ],
      tools: [
        { name: 'weather', description: 'Weather', inputSchema: { type: 'object' }, strict: true },
        { name: 'time', inputSchema: { type: 'object', properties: {} } },
      ],
      toolChoice: { type: 'tool', toolName: 'weather' },
      parallelToolCalls: false,
      endUserId: 'someone',
      responseFormat: { type: 'json', name: 'answer', schema: { type: 'object' }, strict: true },
      sampling: { temperature: 0.5, topP: 0.9, frequencyPenalty: 0.1, presencePenalty: 0.2, seed: 3 },
      maxOutputTokens: 100,
      stopSequences: ['END'],
      reasoning: { effort: 'medium' },
      caching: { promptCacheKey: 'k' },
      stream: true,
    });
  });

  it('maps json_object, text formats, max_tokens and string tool choices', () => {
    expect(decode({ ...minimal, response_format: { type: 'json_object' }, max_tokens: 7, tools: [{ type: 'function', function: { name: 'a' } }], tool_choice: 'required' }).task).toMatchObject({
      responseFormat: { type: 'json' },
      maxOutputTokens: 7,
      toolChoice: { type: 'required' },
    });
    expect(decode({ ...minimal, response_format: { type: 'text' }, tool_choice: 'none', stop: ['a', 'b'] }).task).toMatchObject({
      responseFormat: { type: 'text' },
      toolChoice: { type: 'none' },
      stopSequences: ['a', 'b'],
    });
  });

  it('treats null like an absent field', () => {
    expect(decode({ ...minimal, temperature: null, stop: null, tools: null, n: null, stream: null, functions: null }).task).toEqual(decode(minimal).task);
  });

  it.each([
    ['n > 1', { ...minimal, n: 2 }, 'n'],
    ['legacy functions', { ...minimal, functions: [{ name: 'f' }] }, 'functions'],
    ['legacy function_call', { ...minimal, function_call: 'auto' }, 'function_call'],
    ['a legacy function message', { ...minimal, messages: [...minimal.messages, { role: 'function', name: 'f', content: 'x' }] }, 'messages.1.role'],
    ['an assistant function_call', { ...minimal, messages: [{ role: 'assistant', function_call: { name: 'f', arguments: '{}' } }] }, 'messages.0.function_call'],
    ['logprobs', { ...minimal, logprobs: true }, 'logprobs'],
    ['logit_bias', { ...minimal, logit_bias: { '1': 5 } }, 'logit_bias'],
    ['audio output', { ...minimal, modalities: ['text', 'audio'] }, 'modalities'],
    ['predicted outputs', { ...minimal, prediction: { type: 'content', content: 'x' } }, 'prediction'],
    ['custom tools', { ...minimal, tools: [{ type: 'custom', custom: { name: 'c' } }] }, 'tools.0.type'],
    ['allowed_tools', { ...minimal, tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [] } } }, 'tool_choice.type'],
    ['an uploaded file id', { ...minimal, messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: 'file-1' } }] }] }, 'messages.0.content.0.file.file_id'],
    ['ogg audio', { ...minimal, messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'x', format: 'ogg' } }] }] }, 'messages.0.content.0.input_audio.format'],
    ['a system message mid-conversation', { ...minimal, messages: [...minimal.messages, { role: 'system', content: 'x' }] }, 'messages.1.role'],
  ])('refuses %s as unsupported', (_label, body, path) => {
    expect(refusal(body)).toEqual({ code: 'unsupported-feature', path });
  });

  it('keeps the whole reasoning_effort scale', () => {
    expect(decode({ ...minimal, reasoning_effort: 'none' }).task).toMatchObject({ reasoning: { effort: 'none' } });
    expect(decode({ ...minimal, reasoning_effort: 'minimal' }).task).toMatchObject({ reasoning: { effort: 'minimal' } });
    expect(decode({ ...minimal, reasoning_effort: 'xhigh' }).task).toMatchObject({ reasoning: { effort: 'xhigh' } });
    expect(decode({ ...minimal, reasoning_effort: 'max', parallel_tool_calls: true }).task).toMatchObject({ reasoning: { effort: 'max' }, parallelToolCalls: true });
  });

  it('reads verbosity, the end user (safety_identifier before user, an invalid one left out) and web_search_options as a hosted web search', () => {
    expect(decode({ ...minimal, verbosity: 'high', safety_identifier: 'a', user: 'b' }).task).toMatchObject({ verbosity: 'high', endUserId: 'a' });
    expect(decode({ ...minimal, verbosity: 'loud', user: 'tab\tinside' }).task).not.toHaveProperty('endUserId');
    expect(decode({ ...minimal, verbosity: 'loud' }).task).not.toHaveProperty('verbosity');
    const search = decode({ ...minimal, web_search_options: { search_context_size: 'low' } });
    expect(search.task).toMatchObject({ hostedTools: [{ kind: 'web-search' }] });
    expect(search.hostedToolNames).toEqual(['web_search_options']);
  });

  it.each([
    ['a non-object body', [1, 2], 'body'],
    ['a missing model', { messages: minimal.messages }, 'model'],
    ['an empty model', { ...minimal, model: '' }, 'model'],
    ['missing messages', { model: 'm' }, 'messages'],
    ['empty messages', { model: 'm', messages: [] }, 'messages'],
    ['only system messages', { model: 'm', messages: [{ role: 'system', content: 'x' }] }, 'messages'],
    ['an unknown role', { model: 'm', messages: [{ role: 'robot', content: 'x' }] }, 'messages.0.role'],
    ['a numeric content', { model: 'm', messages: [{ role: 'user', content: 5 }] }, 'messages.0.content'],
    ['an empty user array', { model: 'm', messages: [{ role: 'user', content: [] }] }, 'messages.0.content'],
    ['an http image', { model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'http://x.test/a.png' } }] }] }, 'messages.0.content.0.image_url.url'],
    ['a bad detail', { model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x.test/a.png', detail: 'ultra' } }] }] }, 'messages.0.content.0.image_url.detail'],
    ['a tool result for no call', { model: 'm', messages: [{ role: 'tool', tool_call_id: 'x', content: 'r' }] }, 'messages.0.tool_call_id'],
    ['a tool call without id', { model: 'm', messages: [{ role: 'assistant', tool_calls: [{ type: 'function', function: { name: 'f', arguments: '{}' } }] }] }, 'messages.0.tool_calls.0.id'],
    ['a temperature out of range', { ...minimal, temperature: 3 }, 'temperature'],
    ['a top_p out of range', { ...minimal, top_p: 2 }, 'top_p'],
    ['a zero max_tokens', { ...minimal, max_tokens: 0 }, 'max_tokens'],
    ['a zero max_completion_tokens', { ...minimal, max_completion_tokens: 0 }, 'max_completion_tokens'],
    ['a string temperature', { ...minimal, temperature: '1' }, 'temperature'],
    ['a stop of numbers', { ...minimal, stop: [1] }, 'stop'],
    ['a non-boolean stream', { ...minimal, stream: 'yes' }, 'stream'],
    ['a fractional n', { ...minimal, n: 1.5 }, 'n'],
    ['an unknown effort', { ...minimal, reasoning_effort: 'huge' }, 'reasoning_effort'],
    ['a bad tool name', { ...minimal, tools: [{ type: 'function', function: { name: 'has space' } }] }, 'tools.0.name'],
    ['a json_schema without name', { ...minimal, response_format: { type: 'json_schema', json_schema: { schema: {} } } }, 'response_format.json_schema.name'],
  ])('refuses %s as invalid', (_label, body, path) => {
    expect(refusal(body)).toEqual({ code: 'invalid-request', path });
  });

  it('refuses bad bytes and hostile JSON with the parser codes', () => {
    expect(refusal('{"model":').code).toBe('malformed-json');
    expect(refusal('{"model":"m","messages":[],"__proto__":{}}').code).toBe('forbidden-key');
    expect(refusal(`${'['.repeat(100)}${']'.repeat(100)}`).code).toBe('nesting-too-deep');
    expect(() => decodeOpenAiChatClientRequest({ path: '/', body: new Uint8Array([0x7b, 0xff, 0x7d]) })).toThrow(
      expect.objectContaining({ code: 'invalid-encoding' }),
    );
    const big = encoder.encode(JSON.stringify({ ...minimal, pad: 'x'.repeat(2000) }));
    expect(() => decodeOpenAiChatClientRequest({ path: '/', body: big }, { limits: { maxBytes: 1000 } })).toThrow(
      expect.objectContaining({ code: 'body-too-large' }),
    );
  });

  it('never echoes client text in error messages', () => {
    try {
      decode({ model: 'm', messages: [{ role: 'user', content: [{ type: 'secret-prompt-type', text: 'secret words' }] }] });
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('secret');
    }
  });

  it('turns any JSON body into a valid task or a typed codec error', () => {
    const message = fc.record(
      {
        role: fc.constantFrom('system', 'developer', 'user', 'assistant', 'tool', 'function', 'x'),
        content: fc.oneof(fc.string(), fc.constant(null), fc.array(fc.record({ type: fc.constantFrom('text', 'image_url', 'refusal', 'file'), text: fc.string() }, { requiredKeys: [] }), { maxLength: 3 })),
        tool_call_id: fc.constantFrom('a', 'b'),
        tool_calls: fc.array(fc.record({ id: fc.constantFrom('a', 'b'), type: fc.constant('function'), function: fc.record({ name: fc.constantFrom('f', 'g h'), arguments: fc.string() }) }, { requiredKeys: [] }), { maxLength: 2 }),
      },
      { requiredKeys: ['role'] },
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue(),
          fc.record(
            {
              model: fc.oneof(fc.string(), fc.integer()),
              messages: fc.array(message, { maxLength: 4 }),
              temperature: fc.oneof(fc.double(), fc.constant(null)),
              stream: fc.oneof(fc.boolean(), fc.string()),
              n: fc.oneof(fc.integer({ min: -1, max: 3 }), fc.constant(null)),
              stop: fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 20 })),
              tool_choice: fc.oneof(fc.constantFrom('auto', 'none', 'required', 'other'), fc.jsonValue()),
              max_tokens: fc.oneof(fc.integer(), fc.double()),
            },
            { requiredKeys: [] },
          ),
        ),
        (body) => {
          try {
            const { task } = decode(body);
            expect(taskEnvelopeV2Schema.safeParse(task).success).toBe(true);
          } catch (error) {
            expect(isCodecErrorV1(error)).toBe(true);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
