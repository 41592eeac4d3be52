import type { AdapterTerminalOutcome, EgressContextV1, NormalizedStreamEventV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { parseSafeJsonBytes } from '../../codec-kit/index.js';
import { createOpenAiChatEgressCodec } from './egress.js';

const context: EgressContextV1 = { responseId: 'chatcmpl-host-1', modelLabel: 'gpt-client', createdAtMs: 1_770_000_000_999 };
const codec = createOpenAiChatEgressCodec();
const decoder = new TextDecoder();

function json(bytes: Uint8Array): unknown {
  return parseSafeJsonBytes(bytes);
}

/** The `data:` payloads of an SSE text. */
function dataLines(text: string): string[] {
  return text
    .split('\n\n')
    .filter((frame) => frame.length > 0)
    .map((frame) => {
      expect(frame.startsWith('data: ')).toBe(true);
      return frame.slice('data: '.length);
    });
}

const completed: AdapterTerminalOutcome = {
  status: 'completed',
  result: {
    kind: 'chat',
    content: [
      { type: 'reasoning', text: 'Let me think.', signature: 'sig' },
      { type: 'redacted-reasoning', data: 'opaque' },
      { type: 'text', text: 'Weather: ' },
      { type: 'tool-call', toolCallId: 'call_1', toolName: 'weather', argumentsText: '{"city":"Oslo"}' },
      { type: 'text', text: 'checking.' },
    ],
  },
  finishReason: { unified: 'tool-calls', raw: 'tool_use' },
  usage: { inputTokens: 100, outputTokens: 40, cacheReadInputTokens: 60, cacheWriteInputTokens: 10, reasoningOutputTokens: 12 },
};

describe('openai-chat egress: whole responses', () => {
  it('writes a chat.completion with content, reasoning_content, tool calls, finish reason and usage', () => {
    const response = codec.encodeResponse(completed, context);
    expect(response.status).toBe(200);
    expect(response.headers).toEqual({ 'content-type': 'application/json' });
    expect(json(response.body)).toEqual({
      id: 'chatcmpl-host-1',
      object: 'chat.completion',
      created: 1_770_000_000,
      model: 'gpt-client',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Weather: checking.',
            refusal: null,
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }],
            reasoning_content: 'Let me think.',
          },
          logprobs: null,
          finish_reason: 'tool_calls',
        },
      ],
      usage: {
        prompt_tokens: 100,
        completion_tokens: 40,
        total_tokens: 140,
        prompt_tokens_details: { cached_tokens: 60, cache_write_tokens: 10 },
        completion_tokens_details: { reasoning_tokens: 12 },
      },
    });
  });

  it('writes refusals, null content with only tool calls, and no usage when counts are missing', () => {
    const refusal = codec.encodeResponse(
      { status: 'completed', result: { kind: 'chat', content: [{ type: 'refusal', text: 'No.' }] }, finishReason: { unified: 'refusal' }, usage: { outputTokens: 3 } },
      context,
    );
    expect(json(refusal.body)).toMatchObject({ choices: [{ message: { content: null, refusal: 'No.' }, finish_reason: 'stop' }] });
    expect(json(refusal.body)).not.toHaveProperty('usage');
    const empty = codec.encodeResponse({ status: 'completed', result: { kind: 'chat', content: [] } }, context);
    expect(json(empty.body)).toMatchObject({ choices: [{ message: { content: '', refusal: null }, finish_reason: 'stop' }] });
  });

  it.each([
    ['stop', 'stop'],
    ['length', 'length'],
    ['tool-calls', 'tool_calls'],
    ['content-filter', 'content_filter'],
    ['refusal', 'stop'],
    ['other', 'stop'],
  ] as const)('writes unified %s as %s', (unified, wire) => {
    const response = codec.encodeResponse({ status: 'completed', result: { kind: 'chat', content: [] }, finishReason: { unified } }, context);
    expect(json(response.body)).toMatchObject({ choices: [{ finish_reason: wire }] });
  });

  it('writes failed terminals as the OpenAI error envelope with retry headers', () => {
    const response = codec.encodeResponse(
      { status: 'failed', failure: { code: 'rate-limited', retryable: true, retryAfterMs: 1500, providerCode: 'rate_limit_exceeded' } },
      context,
    );
    expect(response.status).toBe(429);
    expect(response.headers).toEqual({ 'content-type': 'application/json', 'x-should-retry': 'true', 'retry-after': '2', 'retry-after-ms': '1500' });
    expect(json(response.body)).toEqual({
      error: { message: 'The upstream rate limit was reached.', type: 'rate_limit_error', code: 'rate_limit_exceeded', param: null },
    });
  });

  it('writes cancelled as 499 and a non-chat result as a 500', () => {
    expect(codec.encodeResponse({ status: 'cancelled' }, context).status).toBe(499);
    const rerank = codec.encodeResponse({ status: 'completed', result: { kind: 'rerank', results: [] } }, context);
    expect(rerank.status).toBe(500);
    expect(json(rerank.body)).toMatchObject({ error: { type: 'server_error', code: 'internal_error' } });
  });

  it.each([
    [{ source: 'provider', failure: { code: 'authentication', retryable: false } }, 502, 'upstream_authentication_failed'],
    [{ source: 'provider', failure: { code: 'context-length-exceeded', retryable: false } }, 400, 'context_length_exceeded'],
    [{ source: 'provider', failure: { code: 'overloaded', retryable: true } }, 503, 'overloaded'],
    [{ source: 'provider', failure: { code: 'truncated-stream', retryable: true } }, 502, 'upstream_stream_truncated'],
    [{ source: 'provider', failure: { code: 'timeout', retryable: true } }, 504, 'timeout'],
    [{ source: 'ingress', code: 'unsupported-feature' }, 400, 'unsupported_feature'],
    [{ source: 'ingress', code: 'body-too-large' }, 413, 'body_too_large'],
    [{ source: 'engine', code: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED' }, 400, 'unsupported_feature'],
    [{ source: 'engine', code: 'PROTOCOL_ENGINE_TRANSPORT_FAILED' }, 502, 'upstream_unreachable'],
    [{ source: 'engine', code: 'SOMETHING_NEW' }, 500, 'internal_error'],
  ] as const)('maps %j to %i %s', (failure, status, code) => {
    const response = codec.encodeError(failure, context);
    expect(response.status).toBe(status);
    expect(json(response.body)).toMatchObject({ error: { code, param: null } });
  });

  it('sends x-should-retry false for non-retryable provider failures and no retry headers otherwise', () => {
    const response = codec.encodeError({ source: 'provider', failure: { code: 'quota-exceeded', retryable: false } }, context);
    expect(response.headers).toEqual({ 'content-type': 'application/json', 'x-should-retry': 'false' });
    expect(codec.encodeError({ source: 'ingress', code: 'malformed-json' }, context).headers).toEqual({ 'content-type': 'application/json' });
  });
});

describe('openai-chat egress: streams', () => {
  const events: NormalizedStreamEventV1[] = [
    { type: 'reasoning-start', index: 0 },
    { type: 'reasoning-delta', index: 0, delta: 'Hmm' },
    { type: 'reasoning-end', index: 0, signature: 'sig' },
    { type: 'text-start', index: 1 },
    { type: 'text-delta', index: 1, delta: 'Hi' },
    { type: 'text-delta', index: 1, delta: '' },
    { type: 'text-end', index: 1 },
    { type: 'tool-call-start', index: 2, toolCallId: 'call_a', toolName: 'weather' },
    { type: 'tool-call-start', index: 3, toolCallId: 'call_b', toolName: 'time' },
    { type: 'tool-call-delta', index: 2, delta: '{"c":' },
    { type: 'tool-call-delta', index: 3, delta: '{}' },
    { type: 'tool-call-delta', index: 2, delta: '1}' },
    { type: 'tool-call-end', index: 2, argumentsText: '{"c":1}' },
    { type: 'tool-call-end', index: 3, argumentsText: '{}' },
    { type: 'refusal-start', index: 4 },
    { type: 'refusal-delta', index: 4, delta: 'no' },
    { type: 'refusal-end', index: 4 },
    { type: 'reasoning-redacted', index: 5, data: 'x' },
    { type: 'usage', usage: { inputTokens: 5, outputTokens: 7 } },
  ];

  it('writes chunks every client stream accumulator can read, then finish, usage and [DONE]', () => {
    const encoder = codec.createStreamEncoder?.(context);
    if (encoder === undefined) throw new Error('expected a stream encoder');
    expect(encoder.contentType).toBe('text/event-stream');
    let text = '';
    for (const event of events) text += decoder.decode(encoder.encodeEvent(event));
    text += decoder.decode(
      encoder.encodeTerminal({
        status: 'completed',
        result: { kind: 'chat', content: [] },
        finishReason: { unified: 'tool-calls' },
        usage: { inputTokens: 5, outputTokens: 7, totalTokens: 12 },
      }),
    );
    const lines = dataLines(text);
    expect(lines.at(-1)).toBe('[DONE]');
    const chunks = lines.slice(0, -1).map((line) => json(new TextEncoder().encode(line)) as Record<string, unknown>);
    for (const chunk of chunks) {
      expect(chunk).toMatchObject({ id: 'chatcmpl-host-1', object: 'chat.completion.chunk', created: 1_770_000_000, model: 'gpt-client' });
      expect(Array.isArray(chunk.choices)).toBe(true);
    }
    expect(chunks.map((chunk) => (chunk.choices as { delta?: unknown }[])[0]?.delta ?? null)).toEqual([
      { role: 'assistant', reasoning_content: 'Hmm' },
      { content: 'Hi' },
      { tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'weather', arguments: '' } }] },
      { tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'time', arguments: '' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '{"c":' } }] },
      { tool_calls: [{ index: 1, function: { arguments: '{}' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '1}' } }] },
      { refusal: 'no' },
      {},
      null,
    ]);
    expect((chunks.at(-2)?.choices as { finish_reason: unknown }[])[0]?.finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 } });
  });

  it('puts the role in the finish chunk of an empty answer and uses the last usage event without terminal usage', () => {
    const encoder = codec.createStreamEncoder?.(context);
    if (encoder === undefined) throw new Error('expected a stream encoder');
    expect(encoder.encodeEvent({ type: 'usage', usage: { inputTokens: 1, outputTokens: 0 } }).byteLength).toBe(0);
    const lines = dataLines(decoder.decode(encoder.encodeTerminal({ status: 'completed', result: { kind: 'chat', content: [] } })));
    expect(lines).toHaveLength(3);
    expect(json(new TextEncoder().encode(lines[0] as string))).toMatchObject({
      choices: [{ index: 0, delta: { role: 'assistant' }, finish_reason: 'stop' }],
    });
    expect(json(new TextEncoder().encode(lines[1] as string))).toMatchObject({ choices: [], usage: { prompt_tokens: 1, completion_tokens: 0, total_tokens: 1 } });
  });

  it('ends a failed or cancelled stream with an error payload and no [DONE], and writes nothing after the end', () => {
    const encoder = codec.createStreamEncoder?.(context);
    if (encoder === undefined) throw new Error('expected a stream encoder');
    encoder.encodeEvent({ type: 'text-delta', index: 0, delta: 'partial' });
    const text = decoder.decode(encoder.encodeTerminal({ status: 'failed', failure: { code: 'provider-error', retryable: true } }));
    expect(dataLines(text).map((line) => json(new TextEncoder().encode(line)))).toEqual([
      { error: { message: 'The upstream service failed.', type: 'server_error', code: 'upstream_error', param: null } },
    ]);
    expect(encoder.encodeEvent({ type: 'text-delta', index: 0, delta: 'late' }).byteLength).toBe(0);
    expect(encoder.encodeTerminal({ status: 'cancelled' }).byteLength).toBe(0);
    const cancelled = codec.createStreamEncoder?.(context)?.encodeTerminal({ status: 'cancelled' });
    expect(decoder.decode(cancelled)).toContain('"request_cancelled"');
    expect(decoder.decode(cancelled)).not.toContain('[DONE]');
  });
});

describe('openai-chat egress: usage details', () => {
  const detailed = {
    status: 'completed',
    result: { kind: 'chat', content: [{ type: 'text', text: 'ok' }] },
    finishReason: { unified: 'stop' },
    usage: {
      inputTokens: 100,
      outputTokens: 40,
      cacheReadInputTokens: 60,
      cacheWriteInputTokensByTtl: { oneHour: 0 },
      reasoningOutputTokens: 12,
      inputTokensByModality: { text: 70, audio: 30, video: 0 },
      outputTokensByModality: { audio: 10 },
      serverToolRequests: { webSearch: 1 },
      serviceTier: 'flex',
    },
  } as AdapterTerminalOutcome;
  const usage = {
    prompt_tokens: 100,
    completion_tokens: 40,
    total_tokens: 140,
    prompt_tokens_details: { cached_tokens: 60, text_tokens: 70, audio_tokens: 30 },
    completion_tokens_details: { reasoning_tokens: 12, audio_tokens: 10 },
  };

  it('writes prompt and completion details and the service tier, whole and streamed', () => {
    expect(json(codec.encodeResponse(detailed, context).body)).toMatchObject({ usage, service_tier: 'flex' });
    const stream = codec.createStreamEncoder?.(context);
    if (stream === undefined) throw new Error('expected a stream encoder');
    const last = dataLines(decoder.decode(stream.encodeTerminal(detailed))).filter((line) => line !== '[DONE]').at(-1) as string;
    expect(JSON.parse(last)).toMatchObject({ choices: [], usage, service_tier: 'flex' });
  });

  it('writes no service tier OpenAI clients would not know', () => {
    const foreign = { ...detailed, usage: { inputTokens: 1, outputTokens: 1, serviceTier: 'batch' } } as unknown as AdapterTerminalOutcome;
    expect(json(codec.encodeResponse(foreign, context).body)).not.toHaveProperty('service_tier');
  });
});

