import type { NormalizedStreamEventV4 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { parseSafeJson } from '../../codec-kit/index.js';
import {
  argumentsDelta,
  callAdded,
  callDone,
  completed,
  NORMALIZED_USAGE,
  numbered,
  opening,
  responseObject,
  textMessage,
  WIRE_USAGE,
} from './test-support/constructed-events.js';
import { readFixture, runStream, splitRecordedResponses, sse, typedSse } from './test-support/stream-harness.js';

const REASONING_FILE = 'vercel-ai__openai-reasoning-encrypted-content.1.chunks.txt';

function deltasOf(events: readonly NormalizedStreamEventV4[], index: number): string {
  return events
    .filter((event) => 'delta' in event && 'index' in event && event.index === index)
    .map((event) => (event as { delta: string }).delta)
    .join('');
}

function recordedLines(step: number): Record<string, unknown>[] {
  const text = splitRecordedResponses(readFixture(REASONING_FILE))[step] ?? '';
  return text.split('\n').filter((line) => line.length > 0).map((line) => parseSafeJson(line) as Record<string, unknown>);
}

describe('openai-responses stream: recorded traffic', () => {
  it('splits the multi-step file into four responses that each end with response.completed', () => {
    const responses = splitRecordedResponses(readFixture(REASONING_FILE));
    expect(responses).toHaveLength(4);
    for (const response of responses) expect(response.trimEnd().split('\n').at(-1)).toContain('"type":"response.completed"');
  });

  it('step 1: a reasoning block with the summary text and the encrypted content of output_item.done, then a tool call', async () => {
    const lines = recordedLines(0);
    const itemDone = lines.find((line) => line.type === 'response.output_item.done' && (line.item as { type: string }).type === 'reasoning');
    const reasoningItem = itemDone?.item as { encrypted_content: string; summary: { text: string }[] };
    const { events, terminal, released } = await runStream(typedSse(splitRecordedResponses(readFixture(REASONING_FILE))[0] ?? ''));
    expect(events[0]).toEqual({ type: 'reasoning-start', index: 0 });
    expect(deltasOf(events, 0)).toBe(reasoningItem.summary[0]?.text);
    expect(events.filter((event) => event.type === 'reasoning-delta')).toHaveLength(32);
    expect(events.find((event) => event.type === 'reasoning-end')).toEqual({ type: 'reasoning-end', index: 0, signature: reasoningItem.encrypted_content });
    expect(events.find((event) => event.type === 'tool-call-start')).toEqual({
      type: 'tool-call-start',
      index: 1,
      toolCallId: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn',
      toolName: 'calculator',
    });
    expect(deltasOf(events, 1)).toBe('{"a":12,"b":7,"op":"add"}');
    expect(events.at(-2)).toEqual({ type: 'tool-call-end', index: 1, argumentsText: '{"a":12,"b":7,"op":"add"}' });
    const usage = { inputTokens: 134, cacheReadInputTokens: 0, outputTokens: 28, reasoningOutputTokens: 0, totalTokens: 162, serviceTier: 'default' };
    expect(events.at(-1)).toEqual({ type: 'usage', usage });
    expect(terminal).toEqual({
      status: 'completed',
      result: {
        kind: 'chat',
        content: [
          { type: 'reasoning', text: reasoningItem.summary[0]?.text, signature: reasoningItem.encrypted_content },
          { type: 'tool-call', toolCallId: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn', toolName: 'calculator', argumentsText: '{"a":12,"b":7,"op":"add"}' },
        ],
      },
      finishReason: { unified: 'tool-calls', raw: 'completed' },
      usage,
    });
    expect(released).toBe(true);
  });

  it('steps 2 and 3: single tool calls; step 4: a text message with content parts', async () => {
    const responses = splitRecordedResponses(readFixture(REASONING_FILE));
    const second = await runStream(typedSse(responses[1] ?? ''));
    expect(second.terminal).toMatchObject({ status: 'completed', finishReason: { unified: 'tool-calls' } });
    expect(second.terminal.status === 'completed' && second.terminal.result).toEqual({
      kind: 'chat',
      content: [{ type: 'tool-call', toolCallId: 'call_Q6pW65MUgW9vF59BmItYGos3', toolName: 'calculator', argumentsText: '{"a":19,"b":3,"op":"multiply"}' }],
    });
    const third = await runStream(typedSse(responses[2] ?? ''));
    expect(third.terminal).toMatchObject({ status: 'completed', result: { content: [{ argumentsText: '{"a":57,"b":10,"op":"multiply"}' }] } });
    const fourth = await runStream(typedSse(responses[3] ?? ''));
    expect(fourth.events.slice(0, 2)).toEqual([
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, delta: 'The' },
    ]);
    expect(fourth.terminal).toEqual({
      status: 'completed',
      result: { kind: 'chat', content: [{ type: 'text', text: 'The final result is **570**.' }] },
      finishReason: { unified: 'stop', raw: 'completed' },
      usage: { inputTokens: 299, cacheReadInputTokens: 0, outputTokens: 12, reasoningOutputTokens: 0, totalTokens: 311, serviceTier: 'default' },
    });
  });

  it('a mid-stream error event (nested shape) followed by response.failed is one failed terminal', async () => {
    const { events, parts, terminal, released } = await runStream(typedSse(readFixture('vercel-ai__openai-error.1.chunks.txt')));
    expect(events).toEqual([]);
    expect(parts).toHaveLength(1);
    expect(terminal).toEqual({ status: 'failed', failure: { code: 'quota-exceeded', retryable: false, providerCode: 'insufficient_quota' } });
    expect(released).toBe(true);
  });

  it('the recorded stream without its terminal event is a truncated stream (constructed cut of recorded traffic)', async () => {
    const lines = (splitRecordedResponses(readFixture(REASONING_FILE))[3] ?? '').trimEnd().split('\n');
    const { terminal } = await runStream(typedSse(lines.slice(0, -1).join('\n')));
    expect(terminal).toEqual({ status: 'failed', failure: { code: 'truncated-stream', retryable: true }, });
  });
});

describe('openai-responses stream: constructed edge cases (§2.12)', () => {
  it('the flat error shape without a following response.failed ends the stream as one failure', async () => {
    const { terminal, parts } = await runStream(
      sse([...opening(), { type: 'error', sequence_number: 2, code: 'rate_limit_exceeded', message: 'slow down', param: null }]),
    );
    expect(parts).toHaveLength(1);
    expect(terminal).toEqual({ status: 'failed', failure: { code: 'rate-limited', retryable: true, providerCode: 'rate_limit_exceeded' } });
  });

  it('an error event with an unknown code is a non-retryable provider error', async () => {
    const { terminal } = await runStream(sse([{ type: 'error', code: null, message: 'x', param: null }]));
    expect(terminal).toEqual({ status: 'failed', failure: { code: 'provider-error', retryable: false } });
  });

  it('response.incomplete (max_output_tokens) while a call is half streamed closes the call with the text so far', async () => {
    const { events, terminal } = await runStream(
      sse(
        numbered([
          ...opening(),
          callAdded('fc_1', 0, 'call_1', 'lookup'),
          argumentsDelta('fc_1', 0, '{"q":'),
          argumentsDelta('fc_1', 0, '"par'),
          { type: 'response.incomplete', response: responseObject('incomplete', { incomplete_details: { reason: 'max_output_tokens' }, usage: WIRE_USAGE }) },
        ]),
      ),
    );
    expect(events.slice(-2)).toEqual([
      { type: 'tool-call-end', index: 0, argumentsText: '{"q":"par' },
      { type: 'usage', usage: NORMALIZED_USAGE },
    ]);
    expect(terminal).toEqual({
      status: 'completed',
      result: { kind: 'chat', content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'lookup', argumentsText: '{"q":"par' }] },
      finishReason: { unified: 'length', raw: 'max_output_tokens' },
      usage: NORMALIZED_USAGE,
    });
  });

  it('two calls whose argument deltas interleave are accumulated by item id', async () => {
    const { events, terminal } = await runStream(
      sse(
        numbered([
          ...opening(),
          callAdded('fc_a', 0, 'call_a', 'first'),
          callAdded('fc_b', 1, 'call_b', 'second'),
          argumentsDelta('fc_a', 0, '{"a":'),
          argumentsDelta('fc_b', 1, '{"b":'),
          argumentsDelta('fc_a', 0, '1}'),
          argumentsDelta('fc_b', 1, '2}'),
          ...callDone('fc_b', 1, 'call_b', 'second', '{"b":2}'),
          ...callDone('fc_a', 0, 'call_a', 'first', '{"a":1}'),
          completed(),
        ]),
      ),
    );
    expect(deltasOf(events, 0)).toBe('{"a":1}');
    expect(deltasOf(events, 1)).toBe('{"b":2}');
    expect(terminal).toMatchObject({
      status: 'completed',
      result: {
        content: [
          { type: 'tool-call', toolCallId: 'call_a', toolName: 'first', argumentsText: '{"a":1}' },
          { type: 'tool-call', toolCallId: 'call_b', toolName: 'second', argumentsText: '{"b":2}' },
        ],
      },
      finishReason: { unified: 'tool-calls' },
    });
  });

  it('skips events whose sequence number repeats and tolerates gaps', async () => {
    const events = [...opening(), ...textMessage('msg_1', 0, ['Hel', 'lo'])].map((event, index) => ({ ...event, sequence_number: index * 2 }));
    const duplicate = events[3] as Record<string, unknown>;
    const withDuplicate = [...events.slice(0, 4), duplicate, ...events.slice(4), { ...completed(), sequence_number: 99 }];
    const { terminal } = await runStream(sse(withDuplicate));
    expect(terminal).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'Hello' }] } });
  });

  it('a stream that closes after output_item.done without a terminal event is truncated', async () => {
    const { events, terminal } = await runStream(sse([...opening(), ...textMessage('msg_1', 0, ['Hi'])]));
    expect(events.at(-1)).toEqual({ type: 'text-end', index: 0 });
    expect(terminal).toEqual({ status: 'failed', failure: { code: 'truncated-stream', retryable: true } });
  });

  it('a reasoning item with only encrypted content is an empty reasoning block carrying the signature', async () => {
    const item = { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: 'opaque-state' };
    const { events, terminal } = await runStream(
      sse([
        ...opening(),
        { type: 'response.output_item.added', output_index: 0, item: { ...item, encrypted_content: 'early-state' } },
        { type: 'response.output_item.done', output_index: 0, item },
        ...textMessage('msg_1', 1, ['ok']),
        completed(),
      ]),
    );
    expect(events.slice(0, 2)).toEqual([
      { type: 'reasoning-start', index: 0 },
      { type: 'reasoning-end', index: 0, signature: 'opaque-state' },
    ]);
    expect(terminal).toMatchObject({
      result: { content: [{ type: 'reasoning', text: '', signature: 'opaque-state' }, { type: 'text', text: 'ok' }] },
    });
  });
});

describe('openai-responses stream: other constructed cases', () => {
  it('several summary parts form one reasoning block separated by a blank line', async () => {
    const { events, terminal } = await runStream(
      sse([
        { type: 'response.output_item.added', output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [] } },
        { type: 'response.reasoning_summary_part.added', item_id: 'rs_1', output_index: 0, summary_index: 0, part: { type: 'summary_text', text: '' } },
        { type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', output_index: 0, summary_index: 0, delta: 'First' },
        { type: 'response.reasoning_summary_text.done', item_id: 'rs_1', output_index: 0, summary_index: 0, text: 'First' },
        { type: 'response.reasoning_summary_part.done', item_id: 'rs_1', output_index: 0, summary_index: 0, part: { type: 'summary_text', text: 'First' } },
        { type: 'response.reasoning_summary_part.added', item_id: 'rs_1', output_index: 0, summary_index: 1, part: { type: 'summary_text', text: '' } },
        { type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', output_index: 0, summary_index: 1, delta: 'Second' },
        {
          type: 'response.output_item.done',
          output_index: 0,
          item: { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'First' }, { type: 'summary_text', text: 'Second' }], encrypted_content: 'sig' },
        },
        completed(),
      ]),
    );
    expect(deltasOf(events, 0)).toBe('First\n\nSecond');
    expect(terminal).toMatchObject({ result: { content: [{ type: 'reasoning', text: 'First\n\nSecond', signature: 'sig' }] }, finishReason: { unified: 'stop' } });
  });

  it('reasoning_text deltas (open-weight models) are reasoning text too', async () => {
    const { terminal } = await runStream(
      sse([
        { type: 'response.output_item.added', output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [] } },
        { type: 'response.reasoning_text.delta', item_id: 'rs_1', output_index: 0, content_index: 0, delta: 'think' },
        { type: 'response.reasoning_text.done', item_id: 'rs_1', output_index: 0, content_index: 0, text: 'think' },
        completed(),
      ]),
    );
    expect(terminal).toMatchObject({ result: { content: [{ type: 'reasoning', text: 'think' }] } });
  });

  it('a refusal streams as a refusal block', async () => {
    const { events, terminal } = await runStream(sse([...textMessage('msg_1', 0, ['I can', 'not'], 'refusal'), completed()]));
    expect(events.slice(0, 2)).toEqual([
      { type: 'refusal-start', index: 0 },
      { type: 'refusal-delta', index: 0, delta: 'I can' },
    ]);
    expect(terminal).toMatchObject({ result: { content: [{ type: 'refusal', text: 'I cannot' }] }, finishReason: { unified: 'stop' } });
  });

  it('response.incomplete for content_filter is a content-filter finish', async () => {
    const { terminal } = await runStream(
      sse([...textMessage('msg_1', 0, ['a']), { type: 'response.incomplete', response: responseObject('incomplete', { incomplete_details: { reason: 'content_filter' } }) }]),
    );
    expect(terminal).toMatchObject({ status: 'completed', finishReason: { unified: 'content-filter', raw: 'content_filter' } });
  });

  it('response.failed without an error event maps response.error and keeps its usage', async () => {
    const { terminal } = await runStream(
      sse([...opening(), { type: 'response.failed', response: responseObject('failed', { error: { code: 'server_error', message: 'x' }, usage: WIRE_USAGE }) }]),
    );
    expect(terminal).toEqual({ status: 'failed', failure: { code: 'provider-error', retryable: true, providerCode: 'server_error' }, usage: NORMALIZED_USAGE });
  });

  it('a server that streams no item gets its blocks from the terminal output', async () => {
    const output = [
      { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'whole', annotations: [] }] },
      { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' },
    ];
    const { events, terminal } = await runStream(sse([completed(output)]));
    expect(events).toEqual([
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, delta: 'whole' },
      { type: 'text-end', index: 0 },
      { type: 'tool-call-start', index: 1, toolCallId: 'call_1', toolName: 'f' },
      { type: 'tool-call-delta', index: 1, delta: '{}' },
      { type: 'tool-call-end', index: 1, argumentsText: '{}' },
      { type: 'usage', usage: NORMALIZED_USAGE },
    ]);
    expect(terminal).toMatchObject({ finishReason: { unified: 'tool-calls' } });
  });

  it('text and arguments that only arrive in .done events are emitted whole', async () => {
    const { terminal } = await runStream(
      sse([
        { type: 'response.output_item.added', output_index: 0, item: { id: 'msg_1', type: 'message', role: 'assistant', content: [] } },
        { type: 'response.output_text.done', item_id: 'msg_1', output_index: 0, content_index: 0, text: 'late' },
        callAdded('fc_1', 1, 'call_1', 'f'),
        { type: 'response.function_call_arguments.done', item_id: 'fc_1', output_index: 1, arguments: '{"x":1}' },
        completed(),
      ]),
    );
    expect(terminal).toMatchObject({
      result: { content: [{ type: 'text', text: 'late' }, { type: 'tool-call', argumentsText: '{"x":1}' }] },
    });
  });

  it('known harmless events, comments, keep-alives and a gateway [DONE] are skipped', async () => {
    const body =
      ': keep-alive\n\n' +
      sse([
        { type: 'response.web_search_call.searching', item_id: 'ws_1', output_index: 0 },
        { type: 'response.output_item.added', output_index: 0, item: { id: 'ws_1', type: 'web_search_call', status: 'in_progress' } },
        { type: 'response.output_item.done', output_index: 0, item: { id: 'ws_1', type: 'web_search_call', status: 'completed' } },
        ...textMessage('msg_1', 1, ['x']),
        { type: 'response.output_text.annotation.added', item_id: 'msg_1', output_index: 1, content_index: 0, annotation_index: 0, annotation: {} },
      ]) +
      'data: \n\n' +
      sse([completed()]) +
      'data: [DONE]\n\n';
    const { terminal } = await runStream(body);
    expect(terminal).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'x' }] } });
  });

  it('a [DONE] before any terminal event still ends as a truncated stream', async () => {
    const { terminal } = await runStream(sse([...textMessage('msg_1', 0, ['x'])]) + 'data: [DONE]\n\n');
    expect(terminal).toMatchObject({ status: 'failed', failure: { code: 'truncated-stream' } });
  });

  it('a bare JSON error body in the stream is a failed terminal', async () => {
    const { terminal } = await runStream('{"error":{"type":"server_error","code":"server_error","message":"x"}}\n');
    expect(terminal).toEqual({ status: 'failed', failure: { code: 'provider-error', retryable: true, providerCode: 'server_error' } });
  });

  it('a chat-style named error event without a type is a failed terminal', async () => {
    const { terminal } = await runStream('event: error\ndata: {"error":{"code":"rate_limit_exceeded","message":"x"}}\n\n');
    expect(terminal).toMatchObject({ status: 'failed', failure: { code: 'rate-limited' } });
  });
});

describe('openai-responses stream: protocol violations', () => {
  const violation = { status: 'failed', failure: { code: 'protocol-violation', retryable: false } };

  it.each([
    ['an unknown event type', sse([{ type: 'response.brand_new_event', item_id: 'x' }])],
    ['an event name that differs from the payload type', 'event: response.completed\ndata: {"type":"response.created","response":{}}\n\n'],
    ['an event without a type', 'data: {"sequence_number":0}\n\n'],
    ['malformed JSON', 'data: {"type":\n\n'],
    ['arguments.done that differs from the deltas', sse([callAdded('fc_1', 0, 'c', 'f'), argumentsDelta('fc_1', 0, '{"a"'), ...callDone('fc_1', 0, 'c', 'f', '{"b":1}')])],
    ['output_text.done that differs from the deltas', sse([...textMessage('msg_1', 0, ['a']).slice(0, 3), { type: 'response.output_text.done', item_id: 'msg_1', output_index: 0, content_index: 0, text: 'b' }])],
    ['a delta for an item never added', sse([argumentsDelta('fc_x', 0, '{}')])],
    ['a delta after the item was done', sse([...textMessage('msg_1', 0, ['a']), { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'b' }])],
    ['an item added twice', sse([callAdded('fc_1', 0, 'c', 'f'), callAdded('fc_1', 0, 'c', 'f')])],
    ['a function call without call_id', sse([{ type: 'response.output_item.added', output_index: 0, item: { id: 'fc_1', type: 'function_call', name: 'f', arguments: '' } }])],
    ['a call whose done item changes its name', sse([callAdded('fc_1', 0, 'c', 'f'), ...callDone('fc_1', 0, 'c', 'g', '{}')])],
    ['an item of an unknown type', sse([{ type: 'response.output_item.added', output_index: 0, item: { id: 'x_1', type: 'hologram' } }])],
    ['a client action item the family never asked for', sse([{ type: 'response.output_item.added', output_index: 0, item: { id: 'ct_1', type: 'custom_tool_call', call_id: 'c', name: 'n', input: '' } }])],
    ['a negative sequence number', sse([{ type: 'response.created', sequence_number: -1, response: {} }])],
    ['a terminal response without output', sse([{ type: 'response.completed', response: { status: 'completed' } }])],
    ['a completed event whose response says failed', sse([{ type: 'response.completed', response: responseObject('failed') }])],
    ['inconsistent usage', sse([completed([], { usage: { input_tokens: 1, input_tokens_details: { cached_tokens: 5 }, output_tokens: 1 } })])],
    ['a bare JSON value that is not an error', '{"type":"response.created"}\n'],
    ['a text delta on a function call item', sse([callAdded('fc_1', 0, 'c', 'f'), { type: 'response.output_text.delta', item_id: 'fc_1', output_index: 0, content_index: 0, delta: 'x' }])],
  ])('%s fails as protocol-violation', async (_name, body) => {
    const { terminal, released } = await runStream(body);
    expect(terminal).toEqual(violation);
    expect(released).toBe(true);
  });

  it('an aborted signal ends the stream as cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const { terminal, parts } = await runStream(sse([...textMessage('msg_1', 0, ['a']), completed()]), controller.signal);
    expect(terminal).toEqual({ status: 'cancelled' });
    expect(parts).toHaveLength(1);
  });
});
