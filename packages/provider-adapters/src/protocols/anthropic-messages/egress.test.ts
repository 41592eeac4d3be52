import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isCodecErrorV1,
  type AdapterStreamPartV1,
  type AdapterTerminalOutcomeV4,
  type EgressContextV1,
  type NormalizedStreamEventV4,
} from '@tokenforge/model-protocol';
import { frameRecordedChunksV1 } from '../../testing/frame-recorded-chunks.js';
import { decodeAnthropicMessagesResponse } from './decode-response.js';
import { decodeAnthropicMessagesStream } from './decode-stream.js';
import { createAnthropicMessagesEgressCodec } from './egress.js';

const context: EgressContextV1 = { responseId: 'msg_gateway_1', modelLabel: 'claude-client-label', createdAtMs: 1_767_225_600_000 };
const codec = createAnthropicMessagesEgressCodec();
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function fixtureText(name: string): string {
  return readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
}

function json(bytes: Uint8Array): unknown {
  return JSON.parse(decoder.decode(bytes)) as unknown;
}

async function decodeStream(bytes: Uint8Array) {
  const body: AsyncIterable<Uint8Array> = {
    async *[Symbol.asyncIterator]() {
      yield bytes;
    },
  };
  const parts: AdapterStreamPartV1[] = [];
  for await (const part of decodeAnthropicMessagesStream({ body, headers: {}, nowMs: 0, signal: new AbortController().signal })) parts.push(part);
  const last = parts.at(-1);
  if (last?.type !== 'terminal') throw new Error('no terminal');
  return { events: parts.slice(0, -1) as NormalizedStreamEventV4[], terminal: last.outcome };
}

function encodeStream(events: readonly NormalizedStreamEventV4[], terminal: AdapterTerminalOutcomeV4): Uint8Array {
  const stream = codec.createStreamEncoder?.(context);
  if (stream === undefined) throw new Error('no stream encoder');
  const chunks = [...events.map((event) => stream.encodeEvent(event)), stream.encodeTerminal(terminal)];
  return encoder.encode(chunks.map((chunk) => decoder.decode(chunk)).join(''));
}

function sseEvents(bytes: Uint8Array): { event: string; data: Record<string, unknown> }[] {
  return decoder
    .decode(bytes)
    .split('\n\n')
    .filter((frame) => frame.length > 0)
    .map((frame) => {
      const [eventLine, dataLine] = frame.split('\n');
      return { event: (eventLine ?? '').slice('event: '.length), data: JSON.parse((dataLine ?? '').slice('data: '.length)) as Record<string, unknown> };
    });
}

describe('anthropic-messages egress: whole responses', () => {
  it('writes the recorded tool-call body back as an equivalent Message with the context id and model', () => {
    const recorded = JSON.parse(fixtureText('vercel-ai__anthropic-json-tool.1.json')) as Record<string, unknown>;
    const { terminal } = decodeAnthropicMessagesResponse({ body: recorded, headers: {}, status: 200, nowMs: 0 });
    const response = codec.encodeResponse(terminal, context);
    expect(response.status).toBe(200);
    expect(response.headers).toEqual({ 'content-type': 'application/json', 'request-id': 'msg_gateway_1' });
    expect(json(response.body)).toEqual({
      id: 'msg_gateway_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-client-label',
      content: recorded.content,
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: {
        input_tokens: 1151,
        output_tokens: 87,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
        service_tier: 'standard',
      },
    });
  });

  it('writes the recorded web search billing details back to an Anthropic client', () => {
    const recorded = JSON.parse(fixtureText('vercel-ai__anthropic-web-search-tool.1.json')) as Record<string, unknown>;
    const { terminal } = decodeAnthropicMessagesResponse({ body: recorded, headers: {}, status: 200, nowMs: 0 });
    expect((json(codec.encodeResponse(terminal, context).body) as Record<string, unknown>).usage).toEqual(recorded.usage);
  });

  it('reverses the usage arithmetic and writes thinking, redacted thinking and refusal blocks', () => {
    const { terminal } = decodeAnthropicMessagesResponse({
      body: JSON.parse(fixtureText('constructed__anthropic-thinking-tool.json')),
      headers: {},
      status: 200,
      nowMs: 0,
    });
    const message = json(codec.encodeResponse(terminal, context).body) as Record<string, unknown>;
    expect(message.usage).toEqual({
      input_tokens: 20,
      output_tokens: 85,
      cache_creation_input_tokens: 100,
      cache_read_input_tokens: 1000,
      output_tokens_details: { thinking_tokens: 40 },
      // Only the reported count: an unreported web fetch count stays absent, never 0.
      server_tool_use: { web_search_requests: 1 },
      service_tier: 'standard',
    });
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'The user wants the weather in Paris.', signature: 'EqQBCkgIARABGAIiQL2constructedsignature==' },
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3constructedredacted==' },
      { type: 'text', text: 'Let me check the weather.' },
      { type: 'tool_use', id: 'toolu_constructed_05', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    const foreign = codec.encodeResponse(
      {
        status: 'completed',
        result: {
          kind: 'chat',
          content: [
            { type: 'reasoning', text: 'unsigned' },
            { type: 'refusal', text: 'No.' },
            { type: 'tool-call', toolCallId: 'c1', toolName: 'f', argumentsText: '{"cut": "off' },
            { type: 'tool-call', toolCallId: 'c2', toolName: 'g', argumentsText: '' },
          ],
        },
        finishReason: { unified: 'content-filter', raw: 'content_filter' },
      },
      context,
    );
    expect(json(foreign.body)).toMatchObject({
      content: [
        { type: 'thinking', thinking: 'unsigned', signature: '' },
        { type: 'text', text: 'No.' },
        { type: 'tool_use', id: 'c2', name: 'g', input: {} },
      ],
      stop_reason: 'refusal',
      usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: null, cache_read_input_tokens: null },
    });
  });

  it.each([
    [{ unified: 'stop', raw: 'stop_sequence' }, 'stop_sequence'],
    [{ unified: 'stop', raw: 'pause_turn' }, 'pause_turn'],
    [{ unified: 'stop', raw: 'stop' }, 'end_turn'],
    [{ unified: 'length', raw: 'model_context_window_exceeded' }, 'model_context_window_exceeded'],
    [{ unified: 'length', raw: 'MAX_TOKENS' }, 'max_tokens'],
    [{ unified: 'tool-calls' }, 'tool_use'],
    [{ unified: 'refusal', raw: 'refusal' }, 'refusal'],
    [{ unified: 'other', raw: 'end_turn' }, 'end_turn'],
    [{ unified: 'other', raw: 'tool_use' }, 'end_turn'],
    [undefined, 'end_turn'],
  ] as const)('writes finish reason %j as %s', (finishReason, stopReason) => {
    const outcome: AdapterTerminalOutcomeV4 = {
      status: 'completed',
      result: { kind: 'chat', content: [] },
      ...(finishReason === undefined ? {} : { finishReason: { ...finishReason } }),
    };
    expect(json(codec.encodeResponse(outcome, context).body)).toMatchObject({ stop_reason: stopReason });
  });

  it('writes provider failures as Anthropic error envelopes with matching status and retry-after', () => {
    const rateLimited = codec.encodeResponse({ status: 'failed', failure: { code: 'rate-limited', retryable: true, retryAfterMs: 1500, providerCode: 'x' } }, context);
    expect(rateLimited.status).toBe(429);
    expect(rateLimited.headers).toEqual({ 'content-type': 'application/json', 'request-id': 'msg_gateway_1', 'retry-after': '2' });
    expect(json(rateLimited.body)).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'The upstream provider rate-limited this request.' },
      request_id: 'msg_gateway_1',
    });
    const statusOf = (code: Parameters<typeof codec.encodeError>[0]) => {
      const response = codec.encodeError(code, context);
      return [response.status, (json(response.body) as { error: { type: string } }).error.type];
    };
    expect(statusOf({ source: 'provider', failure: { code: 'overloaded', retryable: true } })).toEqual([529, 'overloaded_error']);
    expect(statusOf({ source: 'provider', failure: { code: 'quota-exceeded', retryable: false } })).toEqual([402, 'billing_error']);
    // The upstream refusing the gateway's credentials is not the client's 401: the SDK would blame the client's key.
    expect(statusOf({ source: 'provider', failure: { code: 'authentication', retryable: false } })).toEqual([502, 'api_error']);
    expect(statusOf({ source: 'provider', failure: { code: 'permission-denied', retryable: false } })).toEqual([502, 'api_error']);
    expect(statusOf({ source: 'provider', failure: { code: 'timeout', retryable: true } })).toEqual([504, 'timeout_error']);
    expect(statusOf({ source: 'provider', failure: { code: 'protocol-violation', retryable: false } })).toEqual([502, 'api_error']);
    expect(statusOf({ source: 'ingress', code: 'body-too-large' })).toEqual([413, 'request_too_large']);
    expect(statusOf({ source: 'ingress', code: 'unsupported-feature' })).toEqual([400, 'invalid_request_error']);
    expect(statusOf({ source: 'engine', code: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED' })).toEqual([400, 'invalid_request_error']);
    expect(statusOf({ source: 'engine', code: 'PROTOCOL_ENGINE_ABORTED' })).toEqual([499, 'api_error']);
    expect(statusOf({ source: 'engine', code: 'PROTOCOL_ENGINE_ADAPTER_FAILED' })).toEqual([500, 'api_error']);
    expect(codec.encodeResponse({ status: 'cancelled' }, context).status).toBe(499);
    expect(codec.encodeResponse({ status: 'completed', result: { kind: 'rerank', results: [] } }, context).status).toBe(500);
  });
});

describe('anthropic-messages egress: streams', () => {
  it('re-encodes the constructed thinking/tool stream so that the Anthropic decoder reads back the same events', async () => {
    const original = await decodeStream(encoder.encode(frameRecordedChunksV1(fixtureText('constructed__anthropic-thinking-tool.chunks.txt'), { framing: 'typed-sse' }).join('')));
    const bytes = encodeStream(original.events, original.terminal);
    const wire = sseEvents(bytes);
    expect(wire[0]).toEqual({
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id: 'msg_gateway_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-client-label',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 20, output_tokens: 1, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000 },
        },
      },
    });
    expect(wire.every((frame) => frame.event === frame.data.type)).toBe(true);
    expect(wire.at(-2)).toEqual({
      event: 'message_delta',
      data: {
        type: 'message_delta',
        delta: { stop_reason: 'tool_use', stop_sequence: null },
        usage: { input_tokens: 20, output_tokens: 85, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000, output_tokens_details: { thinking_tokens: 40 } },
      },
    });
    expect(wire.at(-1)).toEqual({ event: 'message_stop', data: { type: 'message_stop' } });
    const roundTrip = await decodeStream(bytes);
    // Content events survive the round trip exactly, and so does the final usage (thinking_tokens included).
    const content = (events: readonly NormalizedStreamEventV4[]) => events.filter((event) => event.type !== 'usage');
    expect(content(roundTrip.events)).toEqual(content(original.events));
    expect(roundTrip.terminal).toMatchObject({ status: 'completed', result: (original.terminal as { result: unknown }).result, finishReason: { unified: 'tool-calls', raw: 'tool_use' } });
    expect((roundTrip.terminal as { usage?: unknown }).usage).toEqual((original.terminal as { usage?: unknown }).usage);
  });

  it('numbers blocks by start order, closes blocks left open, and writes a tool call that streamed no fragment', async () => {
    const events: NormalizedStreamEventV4[] = [
      { type: 'tool-call-start', index: 7, toolCallId: 'call_a', toolName: 'a' },
      { type: 'text-start', index: 2 },
      { type: 'tool-call-end', index: 7, argumentsText: '{"x":1}' },
      { type: 'text-delta', index: 2, delta: 'hi' },
      { type: 'refusal-start', index: 9 },
      { type: 'refusal-delta', index: 9, delta: 'no' },
      { type: 'usage', usage: { inputTokens: 10, outputTokens: 3 } },
    ];
    const bytes = encodeStream(events, { status: 'completed', result: { kind: 'chat', content: [] }, finishReason: { unified: 'stop', raw: 'stop' } });
    const wire = sseEvents(bytes).map((frame) => frame.data);
    expect(wire.map((data) => [data.type, data.index])).toEqual([
      ['message_start', undefined],
      ['content_block_start', 0],
      ['content_block_start', 1],
      ['content_block_delta', 0],
      ['content_block_stop', 0],
      ['content_block_delta', 1],
      ['content_block_start', 2],
      ['content_block_delta', 2],
      ['content_block_stop', 1],
      ['content_block_stop', 2],
      ['message_delta', undefined],
      ['message_stop', undefined],
    ]);
    expect(wire[3]).toMatchObject({ delta: { type: 'input_json_delta', partial_json: '{"x":1}' } });
    expect(wire[0]).toMatchObject({ message: { usage: { input_tokens: 0, output_tokens: 0 } } });
    expect(wire[10]).toMatchObject({ usage: { input_tokens: 10, output_tokens: 3 }, delta: { stop_reason: 'end_turn' } });
  });

  it('ends a failed stream with an in-stream error event that the decoder maps back', async () => {
    const events: NormalizedStreamEventV4[] = [
      { type: 'usage', usage: { inputTokens: 12, outputTokens: 1 } },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, delta: 'Partial' },
    ];
    const bytes = encodeStream(events, { status: 'failed', failure: { code: 'overloaded', retryable: true } });
    expect(sseEvents(bytes).at(-1)).toEqual({
      event: 'error',
      data: { type: 'error', error: { type: 'overloaded_error', message: 'The upstream provider is overloaded.' } },
    });
    expect((await decodeStream(bytes)).terminal).toMatchObject({ status: 'failed', failure: { code: 'overloaded', retryable: true } });
    const cancelled = encodeStream([], { status: 'cancelled' });
    expect(sseEvents(cancelled)).toEqual([{ event: 'error', data: { type: 'error', error: { type: 'api_error', message: 'The request was cancelled.' } } }]);
  });

  it('writes nothing after the terminal and refuses events for blocks that are not open', () => {
    const stream = codec.createStreamEncoder?.(context);
    if (stream === undefined) throw new Error('no stream encoder');
    expect(stream.contentType).toBe('text/event-stream');
    expect(() => stream.encodeEvent({ type: 'text-delta', index: 0, delta: 'x' })).toThrow();
    try {
      stream.encodeEvent({ type: 'text-end', index: 4 });
    } catch (error) {
      expect(isCodecErrorV1(error)).toBe(true);
    }
    stream.encodeEvent({ type: 'text-start', index: 0 });
    expect(() => stream.encodeEvent({ type: 'text-start', index: 0 })).toThrow();
    expect(() => stream.encodeEvent({ type: 'reasoning-delta', index: 0, delta: 'x' })).toThrow();
    expect(stream.encodeTerminal({ status: 'completed', result: { kind: 'chat', content: [] } }).byteLength).toBeGreaterThan(0);
    expect(stream.encodeEvent({ type: 'text-start', index: 5 }).byteLength).toBe(0);
    expect(stream.encodeTerminal({ status: 'cancelled' }).byteLength).toBe(0);
  });

  it('round-trips any text split into deltas, whatever the characters', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: 'grapheme' }), { minLength: 1, maxLength: 8 }), async (deltas) => {
        const events: NormalizedStreamEventV4[] = [
          { type: 'text-start', index: 0 },
          ...deltas.map((delta): NormalizedStreamEventV4 => ({ type: 'text-delta', index: 0, delta })),
          { type: 'text-end', index: 0 },
        ];
        const bytes = encodeStream(events, { status: 'completed', result: { kind: 'chat', content: [{ type: 'text', text: deltas.join('') }] } });
        const decoded = await decodeStream(bytes);
        expect(decoded.terminal).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: deltas.join('') }] } });
      }),
      { numRuns: 100 },
    );
  });
});
