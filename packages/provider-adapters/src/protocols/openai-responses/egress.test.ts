import type { AdapterTerminalOutcome, EgressContextV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { parseSafeJsonBytes } from '../../codec-kit/index.js';
import { createOpenAiResponsesEgressCodec } from './egress.js';

const context: EgressContextV1 = { responseId: 'resp_gw1', modelLabel: 'gw-model', createdAtMs: 1_700_000_000_500 };
const codec = createOpenAiResponsesEgressCodec();
const decoder = new TextDecoder();

const completed: AdapterTerminalOutcome = {
  status: 'completed',
  result: {
    kind: 'chat',
    content: [
      { type: 'reasoning', text: 'think', signature: 'enc' },
      { type: 'redacted-reasoning', data: 'other' },
      { type: 'text', text: 'Hi' },
      { type: 'refusal', text: 'No' },
      { type: 'tool-call', toolCallId: 'call_1', toolName: 'f', argumentsText: '{}' },
    ],
  },
  finishReason: { unified: 'tool-calls' },
  usage: { inputTokens: 10, cacheReadInputTokens: 2, outputTokens: 5, reasoningOutputTokens: 1 },
};

function events(bytes: Uint8Array): { event: string; data: Record<string, unknown> }[] {
  return decoder
    .decode(bytes)
    .split('\n\n')
    .filter((block) => block.length > 0)
    .map((block) => {
      const [eventLine, dataLine] = block.split('\n');
      return { event: (eventLine ?? '').slice('event: '.length), data: JSON.parse((dataLine ?? '').slice('data: '.length)) as Record<string, unknown> };
    });
}

describe('openai-responses egress: whole responses', () => {
  it('writes a Response object with ids and time from the context, output items in order and usage details', () => {
    const response = codec.encodeResponse(completed, context);
    expect(response.status).toBe(200);
    expect(response.headers).toEqual({ 'content-type': 'application/json' });
    expect(parseSafeJsonBytes(response.body)).toEqual({
      id: 'resp_gw1',
      object: 'response',
      created_at: 1_700_000_000,
      status: 'completed',
      background: false,
      error: null,
      incomplete_details: null,
      instructions: null,
      max_output_tokens: null,
      model: 'gw-model',
      output: [
        { id: 'rs_resp_gw1_0', type: 'reasoning', summary: [{ type: 'summary_text', text: 'think' }], encrypted_content: 'enc' },
        { id: 'msg_resp_gw1_1', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', annotations: [], text: 'Hi' }] },
        { id: 'msg_resp_gw1_2', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'refusal', refusal: 'No' }] },
        { id: 'fc_resp_gw1_3', type: 'function_call', status: 'completed', call_id: 'call_1', name: 'f', arguments: '{}' },
      ],
      parallel_tool_calls: true,
      previous_response_id: null,
      store: false,
      temperature: null,
      text: { format: { type: 'text' } },
      tool_choice: 'auto',
      tools: [],
      top_p: null,
      truncation: 'disabled',
      usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 2 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 1 }, total_tokens: 15 },
      metadata: {},
    });
  });

  it.each([
    [{ unified: 'length' as const }, 'incomplete', { reason: 'max_output_tokens' }],
    [{ unified: 'content-filter' as const }, 'incomplete', { reason: 'content_filter' }],
    [{ unified: 'stop' as const }, 'completed', null],
  ])('finish reason %j is status %s', (finishReason, status, incompleteDetails) => {
    const body = parseSafeJsonBytes(codec.encodeResponse({ status: 'completed', result: { kind: 'chat', content: [] }, finishReason }, context).body);
    expect(body).toMatchObject({ status, incomplete_details: incompleteDetails, usage: null });
  });

  it('writes failures as the OpenAI error envelope with status and retry headers; never a provider message', () => {
    const response = codec.encodeResponse({ status: 'failed', failure: { code: 'rate-limited', retryable: true, retryAfterMs: 1500, providerCode: 'x' } }, context);
    expect(response.status).toBe(429);
    expect(response.headers).toEqual({ 'content-type': 'application/json', 'x-should-retry': 'true', 'retry-after': '2', 'retry-after-ms': '1500' });
    expect(parseSafeJsonBytes(response.body)).toEqual({
      error: { message: 'The upstream rate limit was reached.', type: 'rate_limit_error', code: 'rate_limit_exceeded', param: null },
    });
    expect(codec.encodeError({ source: 'provider', failure: { code: 'quota-exceeded', retryable: false } }, context).status).toBe(429);
    expect(codec.encodeError({ source: 'ingress', code: 'body-too-large' }, context).status).toBe(413);
    expect(codec.encodeError({ source: 'ingress', code: 'unsupported-feature' }, context).status).toBe(400);
    expect(codec.encodeError({ source: 'engine', code: 'PROTOCOL_ENGINE_ABORTED' }, context).status).toBe(499);
    expect(codec.encodeError({ source: 'engine', code: 'something-new' }, context).status).toBe(500);
    expect(codec.encodeResponse({ status: 'cancelled' }, context).status).toBe(499);
  });
});

describe('openai-responses egress: streams', () => {
  it('writes the typed event sequence with increasing sequence numbers and the final Response', () => {
    const encoder = codec.createStreamEncoder?.(context);
    if (encoder === undefined) throw new Error('no stream encoder');
    expect(encoder.contentType).toBe('text/event-stream');
    const chunks = [
      encoder.encodeEvent({ type: 'reasoning-start', index: 0 }),
      encoder.encodeEvent({ type: 'reasoning-delta', index: 0, delta: 'th' }),
      encoder.encodeEvent({ type: 'reasoning-delta', index: 0, delta: 'ink' }),
      encoder.encodeEvent({ type: 'reasoning-end', index: 0, signature: 'enc' }),
      encoder.encodeEvent({ type: 'text-start', index: 1 }),
      encoder.encodeEvent({ type: 'text-delta', index: 1, delta: 'Hi' }),
      encoder.encodeEvent({ type: 'text-end', index: 1 }),
      encoder.encodeEvent({ type: 'tool-call-start', index: 2, toolCallId: 'call_1', toolName: 'f' }),
      encoder.encodeEvent({ type: 'tool-call-delta', index: 2, delta: '{}' }),
      encoder.encodeEvent({ type: 'tool-call-end', index: 2, argumentsText: '{}' }),
      encoder.encodeEvent({ type: 'usage', usage: { inputTokens: 3, outputTokens: 4 } }),
      encoder.encodeTerminal({
        status: 'completed',
        result: {
          kind: 'chat',
          content: [
            { type: 'reasoning', text: 'think', signature: 'enc' },
            { type: 'text', text: 'Hi' },
            { type: 'tool-call', toolCallId: 'call_1', toolName: 'f', argumentsText: '{}' },
          ],
        },
        finishReason: { unified: 'tool-calls' },
        usage: { inputTokens: 3, outputTokens: 4 },
      }),
    ];
    const all = chunks.flatMap((chunk) => events(chunk));
    expect(all.map((entry) => entry.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    all.forEach((entry, index) => {
      expect(entry.data.type).toBe(entry.event);
      expect(entry.data.sequence_number).toBe(index);
    });
    expect(all[11]?.data).toEqual({ type: 'response.output_text.delta', sequence_number: 11, item_id: 'msg_resp_gw1_1', output_index: 1, content_index: 0, delta: 'Hi', logprobs: [] });
    const final = all.at(-1)?.data.response as Record<string, unknown>;
    expect(final).toMatchObject({
      id: 'resp_gw1',
      status: 'completed',
      usage: { input_tokens: 3, output_tokens: 4, total_tokens: 7 },
      output: [
        { id: 'rs_resp_gw1_0', type: 'reasoning', summary: [{ type: 'summary_text', text: 'think' }], encrypted_content: 'enc' },
        { id: 'msg_resp_gw1_1', type: 'message', content: [{ type: 'output_text', text: 'Hi' }] },
        { id: 'fc_resp_gw1_2', type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' },
      ],
    });
    expect(encoder.encodeEvent({ type: 'text-start', index: 9 })).toHaveLength(0);
    expect(encoder.encodeTerminal({ status: 'cancelled' })).toHaveLength(0);
  });

  it('a failed terminal writes one error event then response.failed; a length finish writes response.incomplete', () => {
    const failing = codec.createStreamEncoder?.(context);
    const failedEvents = events(failing?.encodeTerminal({ status: 'failed', failure: { code: 'quota-exceeded', retryable: false } }) ?? new Uint8Array());
    expect(failedEvents.map((entry) => entry.event)).toEqual(['response.created', 'response.in_progress', 'error', 'response.failed']);
    expect(failedEvents[2]?.data).toEqual({ type: 'error', sequence_number: 2, code: 'insufficient_quota', message: 'The upstream quota is exhausted.', param: null });
    expect(failedEvents[3]?.data.response).toMatchObject({ status: 'failed', error: { code: 'insufficient_quota', message: 'The upstream quota is exhausted.' } });
    const cut = codec.createStreamEncoder?.(context);
    cut?.encodeEvent({ type: 'text-start', index: 0 });
    const cutEvents = events(cut?.encodeTerminal({ status: 'completed', result: { kind: 'chat', content: [] }, finishReason: { unified: 'length' } }) ?? new Uint8Array());
    expect(cutEvents.map((entry) => entry.event)).toEqual(['response.incomplete']);
    expect(cutEvents[0]?.data.response).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
  });
});

describe('openai-responses egress: freeform tools', () => {
  const freeform = createOpenAiResponsesEgressCodec({ freeformToolNames: ['exec'] });
  const calls: AdapterTerminalOutcome = {
    status: 'completed',
    result: {
      kind: 'chat',
      content: [
        { type: 'tool-call', toolCallId: 'call_1', toolName: 'exec', argumentsText: '{"input":"ls -a"}' },
        { type: 'tool-call', toolCallId: 'call_2', toolName: 'f', argumentsText: '{"input":"x"}' },
      ],
    },
    finishReason: { unified: 'tool-calls' },
  };

  it('writes calls of the client freeform tools as custom_tool_call items with the input text, others as function calls', () => {
    const body = parseSafeJsonBytes(freeform.encodeResponse(calls, context).body) as { output: Record<string, unknown>[] };
    expect(body.output).toEqual([
      { id: 'fc_resp_gw1_0', type: 'custom_tool_call', status: 'completed', call_id: 'call_1', name: 'exec', input: 'ls -a' },
      { id: 'fc_resp_gw1_1', type: 'function_call', status: 'completed', call_id: 'call_2', name: 'f', arguments: '{"input":"x"}' },
    ]);
  });

  it('streams a freeform call as a custom_tool_call item whose input is written whole at its end', () => {
    const stream = freeform.createStreamEncoder?.(context);
    if (stream === undefined) throw new Error('no stream encoder');
    const bytes = [
      stream.encodeEvent({ type: 'tool-call-start', index: 0, toolCallId: 'call_1', toolName: 'exec' }),
      stream.encodeEvent({ type: 'tool-call-delta', index: 0, delta: '{"input":' }),
      stream.encodeEvent({ type: 'tool-call-delta', index: 0, delta: '"ls"}' }),
      stream.encodeEvent({ type: 'tool-call-end', index: 0, argumentsText: '{"input":"ls"}' }),
      stream.encodeTerminal(calls),
    ];
    const written = bytes.flatMap((chunk) => events(chunk));
    expect(written.map((entry) => entry.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.custom_tool_call_input.delta',
      'response.custom_tool_call_input.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(written[2]?.data.item).toMatchObject({ type: 'custom_tool_call', input: '', status: 'in_progress' });
    expect(written[4]?.data).toMatchObject({ input: 'ls', item_id: 'fc_resp_gw1_0', output_index: 0 });
    expect(written[5]?.data.item).toEqual({ id: 'fc_resp_gw1_0', type: 'custom_tool_call', status: 'completed', call_id: 'call_1', name: 'exec', input: 'ls' });
    // Arguments that are not JSON are passed on as they are.
    const raw = freeform.encodeResponse({ ...calls, result: { kind: 'chat', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 'exec', argumentsText: 'plain' }] } }, context);
    expect((parseSafeJsonBytes(raw.body) as { output: { input: string }[] }).output[0]?.input).toBe('plain');
  });
});

describe('openai-responses egress: usage details', () => {
  it('writes input and output details and an OpenAI service tier on the Response, none of another dialect', () => {
    const outcome = (serviceTier: string): AdapterTerminalOutcome =>
      ({
        status: 'completed',
        result: { kind: 'chat', content: [{ type: 'text', text: 'ok' }] },
        finishReason: { unified: 'stop' },
        usage: { inputTokens: 10, cacheReadInputTokens: 4, cacheWriteInputTokens: 2, outputTokens: 6, reasoningOutputTokens: 3, serviceTier },
      }) as AdapterTerminalOutcome;
    const written = parseSafeJsonBytes(codec.encodeResponse(outcome('priority'), context).body) as Record<string, unknown>;
    expect(written).toMatchObject({
      service_tier: 'priority',
      usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 4, cache_write_tokens: 2 }, output_tokens: 6, output_tokens_details: { reasoning_tokens: 3 }, total_tokens: 16 },
    });
    expect(parseSafeJsonBytes(codec.encodeResponse(outcome('standard'), context).body)).not.toHaveProperty('service_tier');
    const completedEvent = events(codec.createStreamEncoder?.(context)?.encodeTerminal(outcome('flex')) ?? new Uint8Array()).find((event) => event.event === 'response.completed');
    expect(completedEvent?.data).toMatchObject({ response: { service_tier: 'flex', usage: { input_tokens: 10 } } });
  });
});

