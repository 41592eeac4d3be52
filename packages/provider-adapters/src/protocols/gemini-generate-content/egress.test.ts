import type { AdapterTerminalOutcome, EgressContextV1, NormalizedStreamEventV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { createSseParser } from '../../codec-kit/index.js';
import { createGeminiGenerateContentEgressCodec, encodeGeminiError, encodeGeminiResponse } from './egress.js';
import { createGeminiStreamEncoder } from './encode-client-stream.js';
import { toGeminiFinishReason } from './encode-client-finish-reason.js';
import { runMachine } from './test-support/gemini-test-support.js';

const context: EgressContextV1 = { responseId: 'resp-host-1', modelLabel: 'gemini-client-label', createdAtMs: 0 };
const decoder = new TextDecoder();

function json(body: Uint8Array): unknown {
  return JSON.parse(decoder.decode(body));
}

const completed: AdapterTerminalOutcome = {
  status: 'completed',
  result: {
    kind: 'chat',
    content: [
      { type: 'reasoning', text: 'Plan.', signature: 'U0lH' },
      { type: 'text', text: 'Hello.' },
      { type: 'redacted-reasoning', data: 'opaque' },
      { type: 'tool-call', toolCallId: 'gemini-fc-r-0', toolName: 'weather', argumentsText: '{"city":"Paris"}', signature: 'VFM=' },
      { type: 'tool-call', toolCallId: 'toolu_01', toolName: 'time', argumentsText: '' },
      { type: 'refusal', text: 'No.' },
    ],
  },
  finishReason: { unified: 'tool-calls', raw: 'tool_use' },
  usage: { inputTokens: 100, cacheReadInputTokens: 40, outputTokens: 30, reasoningOutputTokens: 10, totalTokens: 130 },
};

describe('encodeGeminiResponse', () => {
  it('writes a GenerateContentResponse with parts, finish reason, usage, model label and response id', () => {
    const response = encodeGeminiResponse(completed, context);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(json(response.body)).toEqual({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: 'Plan.', thought: true, thoughtSignature: 'U0lH' },
              { text: 'Hello.' },
              { functionCall: { name: 'weather', args: { city: 'Paris' } }, thoughtSignature: 'VFM=' },
              { functionCall: { name: 'time', args: {}, id: 'toolu_01' } },
              { text: 'No.' },
            ],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 100, cachedContentTokenCount: 40, candidatesTokenCount: 20, thoughtsTokenCount: 10, totalTokenCount: 130 },
      modelVersion: 'gemini-client-label',
      responseId: 'resp-host-1',
    });
  });

  it('writes a blocked prompt as promptFeedback and an empty filtered answer without content', () => {
    const blocked = encodeGeminiResponse(
      { status: 'completed', result: { kind: 'chat', content: [] }, finishReason: { unified: 'content-filter', raw: 'blockReason:SAFETY' } },
      context,
    );
    expect(json(blocked.body)).toEqual({ promptFeedback: { blockReason: 'SAFETY' }, modelVersion: 'gemini-client-label', responseId: 'resp-host-1' });
    const filtered = encodeGeminiResponse(
      { status: 'completed', result: { kind: 'chat', content: [] }, finishReason: { unified: 'content-filter', raw: 'content_filter' } },
      context,
    );
    expect(json(filtered.body)).toEqual({ candidates: [{ finishReason: 'SAFETY', index: 0 }], modelVersion: 'gemini-client-label', responseId: 'resp-host-1' });
  });

  it('maps finish reasons, keeping a Gemini raw value that agrees with the unified one', () => {
    expect(toGeminiFinishReason({ unified: 'content-filter', raw: 'RECITATION' })).toBe('RECITATION');
    expect(toGeminiFinishReason({ unified: 'other', raw: 'MALFORMED_FUNCTION_CALL' })).toBe('MALFORMED_FUNCTION_CALL');
    expect(toGeminiFinishReason({ unified: 'stop', raw: 'SAFETY' })).toBe('STOP');
    expect(toGeminiFinishReason({ unified: 'length', raw: 'length' })).toBe('MAX_TOKENS');
    expect(toGeminiFinishReason({ unified: 'refusal', raw: 'refusal' })).toBe('SAFETY');
    expect(toGeminiFinishReason({ unified: 'other' })).toBe('OTHER');
    expect(toGeminiFinishReason(undefined)).toBe('STOP');
  });

  it('answers failed and cancelled terminals with Google error envelopes', () => {
    const limited = encodeGeminiResponse({ status: 'failed', failure: { code: 'rate-limited', retryable: true, retryAfterMs: 1500 } }, context);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('2');
    expect(json(limited.body)).toEqual({
      error: {
        code: 429,
        message: 'Rate limit exceeded.',
        status: 'RESOURCE_EXHAUSTED',
        details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1.500s' }],
      },
    });
    const cancelled = encodeGeminiResponse({ status: 'cancelled' }, context);
    expect([cancelled.status, (json(cancelled.body) as { error: { status: string } }).error.status]).toEqual([499, 'CANCELLED']);
  });

  it('refuses to invent arguments a Gemini client cannot receive', () => {
    const bad = encodeGeminiResponse(
      {
        status: 'completed',
        result: { kind: 'chat', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 't', argumentsText: '[1,2]' }] },
        finishReason: { unified: 'tool-calls' },
      },
      context,
    );
    expect(bad.status).toBe(500);
    expect(json(bad.body)).toMatchObject({ error: { status: 'INTERNAL' } });
  });
});

describe('encodeGeminiError', () => {
  it.each([
    [{ source: 'provider', failure: { code: 'quota-exceeded', retryable: false } }, 402, 'RESOURCE_EXHAUSTED'],
    [{ source: 'provider', failure: { code: 'overloaded', retryable: true } }, 503, 'UNAVAILABLE'],
    [{ source: 'provider', failure: { code: 'timeout', retryable: true } }, 504, 'DEADLINE_EXCEEDED'],
    [{ source: 'provider', failure: { code: 'not-found', retryable: false } }, 404, 'NOT_FOUND'],
    [{ source: 'provider', failure: { code: 'authentication', retryable: false } }, 502, 'INTERNAL'],
    [{ source: 'provider', failure: { code: 'permission-denied', retryable: false } }, 502, 'INTERNAL'],
    [{ source: 'ingress', code: 'body-too-large' }, 413, 'INVALID_ARGUMENT'],
    [{ source: 'provider', failure: { code: 'truncated-stream', retryable: true } }, 500, 'INTERNAL'],
    [{ source: 'ingress', code: 'malformed-json' }, 400, 'INVALID_ARGUMENT'],
    [{ source: 'engine', code: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED' }, 400, 'INVALID_ARGUMENT'],
    [{ source: 'engine', code: 'PROTOCOL_ENGINE_ADAPTER_FAILED' }, 500, 'INTERNAL'],
  ] as const)('maps %j to %i %s', (failure, httpStatus, status) => {
    const response = encodeGeminiError(failure);
    expect(response.status).toBe(httpStatus);
    expect(json(response.body)).toMatchObject({ error: { code: httpStatus, status } });
    expect(response.headers).not.toHaveProperty('retry-after');
  });
});

describe('createGeminiStreamEncoder', () => {
  const events: NormalizedStreamEventV1[] = [
    { type: 'reasoning-start', index: 0 },
    { type: 'reasoning-delta', index: 0, delta: 'Plan ' },
    { type: 'reasoning-delta', index: 0, delta: 'it.' },
    { type: 'reasoning-end', index: 0, signature: 'U0lH' },
    { type: 'text-start', index: 1 },
    { type: 'text-delta', index: 1, delta: 'Hel' },
    { type: 'usage', usage: { inputTokens: 5 } },
    { type: 'text-delta', index: 1, delta: 'lo' },
    { type: 'text-end', index: 1 },
    { type: 'tool-call-start', index: 2, toolCallId: 'call_1', toolName: 'f' },
    { type: 'tool-call-delta', index: 2, delta: '{"a":' },
    { type: 'tool-call-delta', index: 2, delta: '1}' },
    { type: 'tool-call-end', index: 2, argumentsText: '{"a":1}', signature: 'VFM=' },
    { type: 'usage', usage: { inputTokens: 5, outputTokens: 9, totalTokens: 14 } },
  ];
  const terminal: AdapterTerminalOutcome = {
    status: 'completed',
    result: {
      kind: 'chat',
      content: [
        { type: 'reasoning', text: 'Plan it.', signature: 'U0lH' },
        { type: 'text', text: 'Hello' },
        { type: 'tool-call', toolCallId: 'call_1', toolName: 'f', argumentsText: '{"a":1}', signature: 'VFM=' },
      ],
    },
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage: { inputTokens: 5, outputTokens: 9, totalTokens: 14 },
  };

  function encodeAll(): string {
    const encoder = createGeminiStreamEncoder(context);
    expect(encoder.contentType).toBe('text/event-stream');
    return [...events.map((event) => encoder.encodeEvent(event)), encoder.encodeTerminal(terminal)].map((bytes) => decoder.decode(bytes)).join('');
  }

  it('writes one data event per fragment and puts finish reason and usage on the last', () => {
    const text = encodeAll();
    const payloads = text
      .split('\n\n')
      .filter((frame) => frame.length > 0)
      .map((frame) => JSON.parse(frame.replace(/^data: /, '')) as Record<string, unknown>);
    expect(payloads.map((payload) => (payload.candidates as [{ content: { parts: unknown[] } }])[0].content.parts)).toEqual([
      [{ text: 'Plan ', thought: true }],
      [{ text: 'it.', thought: true }],
      [{ text: '', thought: true, thoughtSignature: 'U0lH' }],
      [{ text: 'Hel' }],
      [{ text: 'lo' }],
      [{ functionCall: { name: 'f', args: { a: 1 }, id: 'call_1' }, thoughtSignature: 'VFM=' }],
      [{ text: '' }],
    ]);
    expect(payloads.at(-1)).toEqual({
      candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 9, totalTokenCount: 14 },
      modelVersion: 'gemini-client-label',
      responseId: 'resp-host-1',
    });
    expect(payloads.slice(0, -1).every((payload) => !('usageMetadata' in payload) && payload.responseId === 'resp-host-1')).toBe(true);
  });

  it('round-trips through this family’s own stream decoder', () => {
    const parser = createSseParser({ bareJson: true });
    const items = [...parser.push(new TextEncoder().encode(encodeAll())), ...parser.finish()];
    const run = runMachine(items);
    expect(run.terminal).toEqual({
      status: 'completed',
      result: {
        kind: 'chat',
        content: [
          { type: 'reasoning', text: 'Plan it.', signature: 'U0lH' },
          { type: 'text', text: 'Hello' },
          { type: 'tool-call', toolCallId: 'call_1', toolName: 'f', argumentsText: '{"a":1}', signature: 'VFM=' },
        ],
      },
      finishReason: { unified: 'tool-calls', raw: 'STOP' },
      usage: { inputTokens: 5, outputTokens: 9, totalTokens: 14 },
    });
  });

  it('writes a failed terminal as an SSE event holding the error object, which the decoder reads back', () => {
    const encoder = createGeminiStreamEncoder(context);
    const bytes = [
      encoder.encodeEvent({ type: 'text-start', index: 0 }),
      encoder.encodeEvent({ type: 'text-delta', index: 0, delta: 'x' }),
      encoder.encodeTerminal({ status: 'failed', failure: { code: 'rate-limited', retryable: true, retryAfterMs: 2000 } }),
    ];
    const last = decoder.decode(bytes[2]);
    expect(last.startsWith('data: {"error":')).toBe(true);
    expect(last.endsWith('\n\n')).toBe(true);
    expect(JSON.parse(last.slice('data: '.length))).toEqual({
      error: {
        code: 429,
        message: 'Rate limit exceeded.',
        status: 'RESOURCE_EXHAUSTED',
        details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '2s' }],
      },
    });
    const parser = createSseParser({ bareJson: true });
    const items = bytes.flatMap((chunk) => [...parser.push(chunk)]).concat([...parser.finish()]);
    expect(runMachine(items).terminal).toEqual({
      status: 'failed',
      failure: { code: 'rate-limited', retryable: true, retryAfterMs: 2000, providerCode: 'RESOURCE_EXHAUSTED' },
    });
  });

  it('writes a blocked prompt as promptFeedback on the final chunk', () => {
    const encoder = createGeminiStreamEncoder(context);
    const text = decoder.decode(
      encoder.encodeTerminal({ status: 'completed', result: { kind: 'chat', content: [] }, finishReason: { unified: 'content-filter', raw: 'blockReason:OTHER' } }),
    );
    expect(JSON.parse(text.replace(/^data: /, ''))).toEqual({ promptFeedback: { blockReason: 'OTHER' }, modelVersion: 'gemini-client-label', responseId: 'resp-host-1' });
  });

  it('ends with an INTERNAL error instead of a finish reason when a call cannot be expressed', () => {
    const encoder = createGeminiStreamEncoder(context);
    expect(encoder.encodeEvent({ type: 'tool-call-start', index: 0, toolCallId: 'c', toolName: 't' }).byteLength).toBe(0);
    expect(encoder.encodeEvent({ type: 'tool-call-end', index: 0, argumentsText: '"text"' }).byteLength).toBe(0);
    const last = decoder.decode(
      encoder.encodeTerminal({
        status: 'completed',
        result: { kind: 'chat', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 't', argumentsText: '"text"' }] },
        finishReason: { unified: 'tool-calls' },
      }),
    );
    expect(JSON.parse(last.replace(/^data: /, ''))).toMatchObject({ error: { code: 500, status: 'INTERNAL' } });
  });
});

describe('createGeminiStreamEncoder: the JSON-array framing (streamGenerateContent without alt=sse)', () => {
  const textEvents: NormalizedStreamEventV1[] = [
    { type: 'text-start', index: 0 },
    { type: 'text-delta', index: 0, delta: 'Hel' },
    { type: 'text-delta', index: 0, delta: 'lo' },
    { type: 'text-end', index: 0 },
  ];

  it('writes each response as an array element as it comes, and closes the array with the last one', () => {
    const encoder = createGeminiGenerateContentEgressCodec({ streamFraming: 'json-array' }).createStreamEncoder?.(context);
    if (encoder === undefined) throw new Error('no stream encoder');
    expect(encoder.contentType).toBe('application/json; charset=utf-8');
    const pieces = textEvents.map((event) => decoder.decode(encoder.encodeEvent(event)));
    expect(pieces[0]).toBe('');
    expect(pieces[1]?.startsWith('[{')).toBe(true);
    expect(pieces[2]?.startsWith(',\r\n{')).toBe(true);
    const tail = decoder.decode(
      encoder.encodeTerminal({ status: 'completed', result: { kind: 'chat', content: [{ type: 'text', text: 'Hello' }] }, finishReason: { unified: 'stop' }, usage: { inputTokens: 2, outputTokens: 2 } }),
    );
    expect(tail.endsWith('}]')).toBe(true);
    const responses = JSON.parse(pieces.join('') + tail) as { candidates: [{ content: { parts: [{ text: string }] }; finishReason?: string }]; usageMetadata?: unknown }[];
    expect(responses.map((response) => response.candidates[0].content.parts[0].text).join('')).toBe('Hello');
    expect(responses.at(-1)).toMatchObject({ candidates: [{ finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 2, candidatesTokenCount: 2, totalTokenCount: 4 } });
  });

  it('ends a failed stream with an error element, keeping the body one JSON array', () => {
    const encoder = createGeminiStreamEncoder(context, 'json-array');
    const body = [
      ...textEvents.slice(0, 2).map((event) => decoder.decode(encoder.encodeEvent(event))),
      decoder.decode(encoder.encodeTerminal({ status: 'failed', failure: { code: 'overloaded', retryable: true } })),
    ].join('');
    const responses = JSON.parse(body) as unknown[];
    expect(responses).toHaveLength(2);
    expect(responses[1]).toEqual({ error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } });
  });

  it('writes a whole array even when the first thing to write is the end', () => {
    const encoder = createGeminiStreamEncoder(context, 'json-array');
    const body = decoder.decode(encoder.encodeTerminal({ status: 'completed', result: { kind: 'chat', content: [] }, finishReason: { unified: 'stop' } }));
    expect(JSON.parse(body)).toEqual([{ candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }], modelVersion: 'gemini-client-label', responseId: 'resp-host-1' }]);
  });
});

describe('Gemini egress: usage details', () => {
  it('writes promptTokensDetails and candidatesTokensDetails from the tokens by modality', () => {
    const outcome = {
      status: 'completed',
      result: { kind: 'chat', content: [{ type: 'text', text: 'ok' }] },
      finishReason: { unified: 'stop' },
      usage: { inputTokens: 30, outputTokens: 8, reasoningOutputTokens: 3, inputTokensByModality: { text: 10, audio: 20 }, outputTokensByModality: { text: 5 }, serviceTier: 'flex' },
    } as AdapterTerminalOutcome;
    expect(json(encodeGeminiResponse(outcome, context).body)).toMatchObject({
      usageMetadata: {
        promptTokenCount: 30,
        candidatesTokenCount: 5,
        thoughtsTokenCount: 3,
        totalTokenCount: 38,
        promptTokensDetails: [{ modality: 'TEXT', tokenCount: 10 }, { modality: 'AUDIO', tokenCount: 20 }],
        candidatesTokensDetails: [{ modality: 'TEXT', tokenCount: 5 }],
      },
    });
  });
});

