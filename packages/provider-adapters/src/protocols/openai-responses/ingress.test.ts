import { isCodecErrorV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { decodeOpenAiResponsesClientRequest } from './ingress.js';

const encoder = new TextEncoder();

function decode(body: unknown) {
  return decodeOpenAiResponsesClientRequest({ path: '/responses', body: encoder.encode(typeof body === 'string' ? body : JSON.stringify(body)) });
}

function codeOf(body: unknown): string | undefined {
  try {
    decode(body);
  } catch (error) {
    return isCodecErrorV1(error) ? `${error.code}:${error.path ?? ''}` : 'untyped';
  }
  return undefined;
}

describe('openai-responses ingress', () => {
  it('a string input is one user message; the model is the label', () => {
    expect(decode({ model: 'gpt-x', input: 'Hello' })).toEqual({
      modelLabel: 'gpt-x',
      task: { kind: 'chat', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }], stream: false },
    });
  });

  it('maps instructions, items, tools, tool choice, format, sampling, limits, reasoning, caching and stream', () => {
    const { task } = decode({
      model: 'gpt-x',
      instructions: 'Be brief.',
      input: [
        { role: 'developer', content: 'Use tools.' },
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'Look' },
            { type: 'input_image', image_url: 'data:image/png;base64,iVBO', detail: 'high' },
            { type: 'input_file', filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBE' },
            { type: 'input_file', file_url: 'https://example.com/b.pdf' },
          ],
        },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'think' }], encrypted_content: 'enc' },
        { type: 'message', role: 'assistant', id: 'msg_1', phase: 'commentary', content: [{ type: 'output_text', text: 'Calling.', annotations: [] }] },
        { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'lookup', arguments: '{"q":1}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'result' },
        { type: 'function_call_output', call_id: 'call_1', output: [{ type: 'input_text', text: 'more' }, { type: 'input_image', image_url: 'https://example.com/i.png' }] },
      ],
      tools: [
        { type: 'function', name: 'lookup', description: 'Looks up', parameters: { type: 'object' }, strict: false },
        { type: 'function', name: 'bare', parameters: null },
      ],
      tool_choice: { type: 'function', name: 'lookup' },
      text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true }, verbosity: 'low' },
      temperature: 0.5,
      top_p: 0.9,
      max_output_tokens: 200,
      reasoning: { effort: 'low', summary: 'detailed' },
      prompt_cache_key: 'key',
      stream: true,
      store: false,
      include: ['reasoning.encrypted_content'],
      parallel_tool_calls: false,
      metadata: { a: 'b' },
    });
    expect(task).toEqual({
      kind: 'chat',
      system: [
        { type: 'text', text: 'Be brief.' },
        { type: 'text', text: 'Use tools.' },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'iVBO' }, detail: 'high' },
            { type: 'document', source: { type: 'base64', mediaType: 'application/pdf', data: 'JVBE' }, title: 'a.pdf' },
            { type: 'document', source: { type: 'url', url: 'https://example.com/b.pdf' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'think', signature: 'enc' },
            { type: 'text', text: 'Calling.' },
            { type: 'tool-call', toolCallId: 'call_1', toolName: 'lookup', argumentsText: '{"q":1}' },
          ],
        },
        {
          role: 'tool',
          content: [
            { type: 'tool-result', toolCallId: 'call_1', toolName: 'lookup', content: [{ type: 'text', text: 'result' }] },
            {
              type: 'tool-result',
              toolCallId: 'call_1',
              toolName: 'lookup',
              content: [{ type: 'text', text: 'more' }, { type: 'image', source: { type: 'url', url: 'https://example.com/i.png' } }],
            },
          ],
        },
      ],
      tools: [
        { name: 'lookup', description: 'Looks up', inputSchema: { type: 'object' }, strict: false },
        { name: 'bare', inputSchema: { type: 'object', properties: {} }, strict: true },
      ],
      toolChoice: { type: 'tool', toolName: 'lookup' },
      parallelToolCalls: false,
      responseFormat: { type: 'json', name: 'answer', schema: { type: 'object' }, strict: true },
      verbosity: 'low',
      store: false,
      sampling: { temperature: 0.5, topP: 0.9 },
      maxOutputTokens: 200,
      reasoning: { effort: 'low', includeReasoning: true, summary: 'detailed', includeEncrypted: true },
      caching: { promptCacheKey: 'key' },
      stream: true,
    });
  });

  it('reads additional_tools, namespaces, freeform tools and their round trip, drops hosted tools, and maps the whole effort scale', () => {
    const decoded = decode({
      model: 'm',
      input: [
        {
          type: 'additional_tools',
          role: 'developer',
          tools: [
            {
              type: 'namespace',
              name: 'functions',
              tools: [
                { type: 'custom', name: 'exec', description: 'Run code.', format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/' } },
                { type: 'function', name: 'wait', strict: false, parameters: { type: 'object', properties: { id: { type: 'string' } } }, defer_loading: true },
              ],
            },
          ],
        },
        { role: 'developer', content: 'Be useful.' },
        { role: 'user', content: 'list files' },
        { type: 'custom_tool_call', id: 'ctc_1', status: 'completed', call_id: 'call_1', name: 'exec', input: 'ls' },
        { type: 'custom_tool_call_output', call_id: 'call_1', output: [{ type: 'input_text', text: 'a b' }] },
      ],
      tools: [{ type: 'web_search' }, { type: 'custom', name: 'note' }],
      tool_choice: { type: 'custom', name: 'exec' },
      parallel_tool_calls: false,
      reasoning: { effort: 'xhigh', context: 'all_turns', summary: 'auto' },
      store: false,
      include: ['reasoning.encrypted_content'],
      text: { verbosity: 'low' },
      prompt_cache_key: 'k',
    });
    expect(decoded.clientFreeformToolNames).toEqual(['note', 'exec']);
    expect(decoded).not.toHaveProperty('droppedHostedTools');
    expect(decoded.hostedToolNames).toEqual(['web_search']);
    expect(decoded.task).toMatchObject({
      hostedTools: [{ kind: 'web-search' }],
      parallelToolCalls: false,
      verbosity: 'low',
      store: false,
      system: [{ type: 'text', text: 'Be useful.' }],
      tools: [
        { name: 'note', inputSchema: { properties: { input: { type: 'string' } }, required: ['input'] } },
        { name: 'exec', description: 'Run code.\n\nThe input must follow this lark grammar:\nstart: /.+/' },
        { name: 'wait', strict: false },
      ],
      toolChoice: { type: 'tool', toolName: 'exec' },
      reasoning: { effort: 'xhigh', includeReasoning: true, summary: 'auto', context: 'all-turns', includeEncrypted: true },
      caching: { promptCacheKey: 'k' },
      messages: [
        { role: 'user' },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'exec', argumentsText: '{"input":"ls"}' }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'exec', content: [{ type: 'text', text: 'a b' }] }] },
      ],
    });
    const effortOf = (effort: string) => decode({ model: 'm', input: 'x', reasoning: { effort } }).task;
    expect(effortOf('none')).toEqual(expect.objectContaining({ reasoning: { effort: 'none' } }));
    expect(effortOf('minimal')).toMatchObject({ reasoning: { effort: 'minimal' } });
    expect(effortOf('max')).toMatchObject({ reasoning: { effort: 'max' } });
    expect(decode({ model: 'm', input: 'x' })).not.toHaveProperty('clientFreeformToolNames');
    const hosted = decode({ model: 'm', input: 'x', tools: [{ type: 'web_search_preview', filters: { allowed_domains: ['example.com'] } }, { type: 'file_search' }] });
    expect(hosted.droppedHostedTools).toEqual(['file_search']);
    expect(hosted.task).toMatchObject({ hostedTools: [{ kind: 'web-search', allowedDomains: ['example.com'] }] });
    const user = (body: Record<string, unknown>) => decode({ model: 'm', input: 'x', ...body }).task;
    expect(user({ safety_identifier: 'u1', user: 'u2' })).toMatchObject({ endUserId: 'u1' });
    expect(user({ user: 'u2' })).toMatchObject({ endUserId: 'u2' });
    expect(user({ safety_identifier: 'x'.repeat(2000) })).not.toHaveProperty('endUserId');
    expect(user({ reasoning: { context: 'someday' }, text: { verbosity: 'loud' } })).not.toHaveProperty('reasoning');
  });

  it('json_object is JSON without a schema', () => {
    expect(decode({ model: 'm', input: 'x', text: { format: { type: 'json_object' } } }).task).toMatchObject({ responseFormat: { type: 'json' } });
  });

  it.each([
    ['previous_response_id', { previous_response_id: 'resp_1' }, 'unsupported-feature:previous_response_id'],
    ['store true', { store: true }, 'unsupported-feature:store'],
    ['conversation', { conversation: 'conv_1' }, 'unsupported-feature:conversation'],
    ['background', { background: true }, 'unsupported-feature:background'],
    ['a stored prompt', { prompt: { id: 'pmpt_1' } }, 'unsupported-feature:prompt'],
    ['top_logprobs', { top_logprobs: 2 }, 'unsupported-feature:top_logprobs'],
    ['an unknown tool type', { tools: [{ type: 'teleport' }] }, 'unsupported-feature:tools.0.type'],
    ['a tool choice forcing a dropped hosted tool', { tools: [{ type: 'web_search' }], tool_choice: { type: 'web_search' } }, 'unsupported-feature:tool_choice.type'],
    ['an allowed_tools choice', { tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [] } }, 'unsupported-feature:tool_choice.type'],
    ['a tool name offered twice', { tools: [{ type: 'function', name: 'a' }], input: [{ type: 'additional_tools', tools: [{ type: 'namespace', name: 'n', tools: [{ type: 'custom', name: 'a' }] }] }, { role: 'user', content: 'x' }] }, 'invalid-request:input.0.tools.0.tools.0.name'],
    ['a custom output answering no call', { input: [{ type: 'custom_tool_call_output', call_id: 'c', output: 'x' }] }, 'invalid-request:input.0.call_id'],
    ['a grammar without a definition', { tools: [{ type: 'custom', name: 'a', format: { type: 'grammar', syntax: 'lark' } }] }, 'invalid-request:tools.0.format.definition'],
    ['an unknown effort', { reasoning: { effort: 'huge' } }, 'invalid-request:reasoning.effort'],
    ['an item reference', { input: [{ type: 'item_reference', id: 'msg_1' }] }, 'unsupported-feature:input.0.type'],
    ['reasoning with neither encrypted content nor an id', { input: [{ type: 'reasoning', summary: [] }] }, 'unsupported-feature:input.0.encrypted_content'],
    ['a file id', { input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file_1' }] }] }, 'unsupported-feature:input.0.content.0.file_id'],
    ['audio input', { input: [{ role: 'user', content: [{ type: 'input_audio', input_audio: {} }] }] }, 'unsupported-feature:input.0.content.0.type'],
    ['a late system message', { input: [{ role: 'user', content: 'a' }, { role: 'system', content: 'b' }] }, 'unsupported-feature:input.1.role'],
    ['an output answering no call', { input: [{ type: 'function_call_output', call_id: 'c', output: 'x' }] }, 'invalid-request:input.0.call_id'],
    ['no model', { model: undefined }, 'invalid-request:model'],
    ['an empty input array', { input: [] }, 'invalid-request:input'],
    ['a mistyped temperature', { temperature: 'hot' }, 'invalid-request:temperature'],
    ['an out-of-range temperature', { temperature: 9 }, 'invalid-request:temperature'],
    ['a zero max_output_tokens', { max_output_tokens: 0 }, 'invalid-request:max_output_tokens'],
    ['an http image url', { input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'http://x/y.png' }] }] }, 'invalid-request:input.0.content.0.image_url'],
    ['only system messages', { input: [{ role: 'system', content: 'a' }] }, 'invalid-request:input'],
    ['a json_schema without schema', { text: { format: { type: 'json_schema', name: 'a' } } }, 'invalid-request:text.format.schema'],
  ])('refuses %s', (_name, extra, expected) => {
    expect(codeOf({ model: 'm', input: 'x', ...extra })).toBe(expected);
  });

  it('refuses bad bytes with the parser codes and never leaks the prompt in messages', () => {
    expect(codeOf('{"model":')).toBe('malformed-json:');
    expect(codeOf('[]')).toBe('invalid-request:body');
    try {
      decode({ model: 'm', input: 'a very secret prompt', temperature: 'secret-value' });
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('secret');
    }
  });
});
