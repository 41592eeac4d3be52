import { isCodecErrorV1, type ChatTaskV2, type TaskEnvelopeV3 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { encodeOpenAiResponsesRequest } from './encode-request.js';

const user: ChatTaskV2['messages'][number] = { role: 'user', content: [{ type: 'text', text: 'hi' }] };

function task(extra: Partial<ChatTaskV2> = {}): ChatTaskV2 {
  return { kind: 'chat', messages: [user], stream: false, ...extra };
}

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return isCodecErrorV1(error) ? error.code : 'untyped';
  }
  return undefined;
}

describe('encodeOpenAiResponsesRequest', () => {
  it('sends POST /responses with store false, no include for non-reasoning targets, and accept by mode', () => {
    expect(encodeOpenAiResponsesRequest(task(), 'model-x')).toEqual({
      method: 'POST',
      path: '/responses',
      headers: { accept: 'application/json' },
      body: { type: 'json', value: { model: 'model-x', input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }], store: false } },
    });
    const streamed = encodeOpenAiResponsesRequest(task({ stream: true }), 'model-x', { encryptedReasoning: true });
    expect(streamed.headers).toEqual({ accept: 'text/event-stream' });
    expect(streamed.body.value).toMatchObject({ store: false, include: ['reasoning.encrypted_content'], stream: true });
  });

  it('maps system, media, tools, tool choice, format, sampling, limits, reasoning and caching', () => {
    const encoded = encodeOpenAiResponsesRequest(
      task({
        system: [{ type: 'text', text: 'Be brief.' }, { type: 'text', text: 'Be kind.' }],
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Look' },
              { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'iVBO' }, detail: 'low' },
              { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
              { type: 'document', source: { type: 'base64', mediaType: 'application/pdf', data: 'JVBE' } },
              { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' }, title: 'a.pdf' },
            ],
          },
        ],
        tools: [
          { name: 'lookup', description: 'Looks up', inputSchema: { type: 'object' } },
          { name: 'strict_one', inputSchema: { type: 'object' }, strict: true },
        ],
        toolChoice: { type: 'tool', toolName: 'lookup' },
        responseFormat: { type: 'json', schema: { type: 'object' }, name: 'answer', strict: true },
        sampling: { temperature: 0.2, topP: 0.9, topK: 5, seed: 1, frequencyPenalty: 1, presencePenalty: 1 },
        maxOutputTokens: 300,
        reasoning: { budgetTokens: 10_000, includeReasoning: true },
        caching: { promptCacheKey: 'key-1' },
      }),
      'model-x',
    );
    expect(encoded.body.value).toEqual({
      model: 'model-x',
      instructions: 'Be brief.\n\nBe kind.',
      input: [
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'Look' },
            { type: 'input_image', image_url: 'data:image/png;base64,iVBO', detail: 'low' },
            { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'auto' },
            { type: 'input_file', filename: 'document.pdf', file_data: 'data:application/pdf;base64,JVBE' },
            { type: 'input_file', file_url: 'https://example.com/a.pdf', filename: 'a.pdf' },
          ],
        },
      ],
      tools: [
        { type: 'function', name: 'lookup', description: 'Looks up', parameters: { type: 'object' }, strict: false },
        { type: 'function', name: 'strict_one', parameters: { type: 'object' }, strict: true },
      ],
      tool_choice: { type: 'function', name: 'lookup' },
      text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true } },
      temperature: 0.2,
      top_p: 0.9,
      max_output_tokens: 300,
      reasoning: { effort: 'medium', summary: 'auto' },
      prompt_cache_key: 'key-1',
      store: false,
    });
  });

  it('replays assistant turns statelessly: reasoning with encrypted content, calls, outputs', () => {
    const encoded = encodeOpenAiResponsesRequest(
      task({
        messages: [
          user,
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', text: '', signature: 'enc-1' },
              { type: 'reasoning', text: 'summary', signature: 'enc-2' },
              { type: 'reasoning', text: 'no signature: dropped' },
              { type: 'redacted-reasoning', data: 'other-dialect' },
              { type: 'text', text: 'Calling.' },
              { type: 'text', text: '' },
              { type: 'tool-call', toolCallId: 'call_1', toolName: 'lookup', argumentsText: '{"q":1}' },
              { type: 'text', text: 'After.' },
            ],
          },
          {
            role: 'tool',
            content: [
              { type: 'tool-result', toolCallId: 'call_1', toolName: 'lookup', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] },
              {
                type: 'tool-result',
                toolCallId: 'call_2',
                toolName: 'lookup',
                content: [{ type: 'text', text: 'see' }, { type: 'image', source: { type: 'url', url: 'https://example.com/i.png' } }],
                isError: true,
              },
              { type: 'tool-result', toolCallId: 'call_3', toolName: 'lookup', content: [] },
            ],
          },
        ],
      }),
      'model-x',
    );
    expect(encoded.body.value.input.slice(1)).toEqual([
      { type: 'reasoning', summary: [], encrypted_content: 'enc-1' },
      { type: 'reasoning', summary: [{ type: 'summary_text', text: 'summary' }], encrypted_content: 'enc-2' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Calling.' }] },
      { type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{"q":1}' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'After.' }] },
      { type: 'function_call_output', call_id: 'call_1', output: 'ab' },
      {
        type: 'function_call_output',
        call_id: 'call_2',
        output: [
          { type: 'input_text', text: 'see' },
          { type: 'input_image', image_url: 'https://example.com/i.png', detail: 'auto' },
        ],
      },
      { type: 'function_call_output', call_id: 'call_3', output: '' },
    ]);
  });

  it.each([
    [{ effort: 'high' as const, budgetTokens: 100 }, { effort: 'high' }],
    [{ budgetTokens: 100 }, { effort: 'minimal' }],
    [{ budgetTokens: 1024 }, { effort: 'low' }],
    [{ budgetTokens: 24_576 }, { effort: 'high' }],
    [{ includeReasoning: false }, undefined],
  ])('reasoning %j is sent as %j', (reasoning, expected) => {
    expect(encodeOpenAiResponsesRequest(task({ reasoning }), 'm').body.value.reasoning).toEqual(expected);
  });

  it('json without a schema is json_object; free text sends no format', () => {
    expect(encodeOpenAiResponsesRequest(task({ responseFormat: { type: 'json' } }), 'm').body.value.text).toEqual({ format: { type: 'json_object' } });
    expect(encodeOpenAiResponsesRequest(task({ responseFormat: { type: 'json', schema: {} } }), 'm').body.value.text).toEqual({
      format: { type: 'json_schema', name: 'response', schema: {} },
    });
    expect(encodeOpenAiResponsesRequest(task({ responseFormat: { type: 'text' } }), 'm').body.value.text).toBeUndefined();
  });

  it('refuses stop sequences, audio input and non-chat tasks as unsupported features', () => {
    expect(codeOf(() => encodeOpenAiResponsesRequest(task({ stopSequences: ['END'] }), 'm'))).toBe('unsupported-feature');
    expect(
      codeOf(() =>
        encodeOpenAiResponsesRequest(task({ messages: [{ role: 'user', content: [{ type: 'audio', source: { type: 'base64', mediaType: 'audio/wav', data: 'UklG' } }] }] }), 'm'),
      ),
    ).toBe('unsupported-feature');
    expect(codeOf(() => encodeOpenAiResponsesRequest({ kind: 'embedding', inputs: ['x'] }, 'm'))).toBe('unsupported-feature');
  });

  it('refuses a tool choice without tools or naming an unknown tool', () => {
    expect(codeOf(() => encodeOpenAiResponsesRequest(task({ toolChoice: { type: 'required' } }), 'm'))).toBe('invalid-request');
    expect(
      codeOf(() => encodeOpenAiResponsesRequest(task({ tools: [{ name: 'a', inputSchema: {} }], toolChoice: { type: 'tool', toolName: 'b' } }), 'm')),
    ).toBe('invalid-request');
    expect(encodeOpenAiResponsesRequest(task({ toolChoice: { type: 'none' } }), 'm').body.value.tool_choice).toBe('none');
  });
});

describe('encodeOpenAiResponsesRequest with V3 reasoning efforts', () => {
  const task = (effort: 'none' | 'max'): TaskEnvelopeV3 => ({
    kind: 'chat',
    stream: false,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    reasoning: { effort },
  });
  it('maps onto the declared levels, by default minimal to high', () => {
    expect(encodeOpenAiResponsesRequest(task('none'), 'm').body.value.reasoning).toEqual({ effort: 'minimal' });
    expect(encodeOpenAiResponsesRequest(task('max'), 'm').body.value.reasoning).toEqual({ effort: 'high' });
    expect(encodeOpenAiResponsesRequest(task('none'), 'm', { reasoningEfforts: ['none', 'low', 'high'] }).body.value.reasoning).toEqual({ effort: 'none' });
  });
});
