import { describe, expect, it } from 'vitest';
import { mapOpenAiChatFinishReasonFailure, mapOpenAiChatHttpError, mapOpenAiChatInBandError } from './map-error.js';

const nowMs = Date.parse('2026-01-01T00:00:00Z');

describe('mapOpenAiChatHttpError', () => {
  it.each([
    [400, { type: 'invalid_request_error', code: 'unsupported_parameter', param: 'max_tokens' }, { code: 'invalid-request', retryable: false, providerCode: 'unsupported_parameter' }],
    [400, { type: 'invalid_request_error', code: 'context_length_exceeded' }, { code: 'context-length-exceeded', retryable: false, providerCode: 'context_length_exceeded' }],
    [429, { type: 'insufficient_quota', code: 'insufficient_quota' }, { code: 'quota-exceeded', retryable: false, providerCode: 'insufficient_quota' }],
    [429, { type: 'requests', code: 'rate_limit_exceeded' }, { code: 'rate-limited', retryable: true, providerCode: 'rate_limit_exceeded' }],
    [401, { type: 'invalid_request_error', code: 'invalid_api_key' }, { code: 'authentication', retryable: false, providerCode: 'invalid_api_key' }],
    [404, { type: 'invalid_request_error', code: 'model_not_found' }, { code: 'not-found', retryable: false, providerCode: 'model_not_found' }],
    [500, { type: 'server_error' }, { code: 'provider-error', retryable: true, providerCode: 'server_error' }],
    [503, undefined, { code: 'overloaded', retryable: true }],
    [402, { code: 402, message: 'credits' }, { code: 'quota-exceeded', retryable: false, providerCode: '402' }],
    [400, { type: 'has a space' }, { code: 'invalid-request', retryable: false }],
  ] as const)('maps %i %j', (status, error, expected) => {
    expect(mapOpenAiChatHttpError({ status, headers: {}, error, nowMs })).toEqual(expected);
  });

  it('reads retry-after-ms before retry-after, and HTTP dates from the injected clock', () => {
    expect(mapOpenAiChatHttpError({ status: 429, headers: { 'retry-after-ms': '1500', 'retry-after': '9' }, error: undefined, nowMs }).retryAfterMs).toBe(1500);
    expect(mapOpenAiChatHttpError({ status: 429, headers: { 'retry-after': '2' }, error: undefined, nowMs }).retryAfterMs).toBe(2000);
    expect(
      mapOpenAiChatHttpError({ status: 503, headers: { 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }, error: undefined, nowMs }).retryAfterMs,
    ).toBe(30_000);
    expect(mapOpenAiChatHttpError({ status: 429, headers: { 'x-ratelimit-reset-requests': '6m0s' }, error: undefined, nowMs })).not.toHaveProperty(
      'retryAfterMs',
    );
  });

  it('lets x-should-retry override retryable', () => {
    expect(mapOpenAiChatHttpError({ status: 500, headers: { 'x-should-retry': 'false' }, error: undefined, nowMs }).retryable).toBe(false);
    expect(mapOpenAiChatHttpError({ status: 400, headers: { 'x-should-retry': 'true' }, error: undefined, nowMs }).retryable).toBe(true);
    expect(mapOpenAiChatHttpError({ status: 400, headers: { 'x-should-retry': 'maybe' }, error: undefined, nowMs }).retryable).toBe(false);
  });

  it('never keeps the message', () => {
    const failure = mapOpenAiChatHttpError({ status: 400, headers: {}, error: { message: 'secret prompt text', type: 'invalid_request_error' }, nowMs });
    expect(JSON.stringify(failure)).not.toContain('secret');
  });
});

describe('mapOpenAiChatHttpError: context overflow from compatible servers', () => {
  it.each([
    ['OpenAI (code)', { code: 'context_length_exceeded', type: 'invalid_request_error', message: 'Your input exceeds the context window of this model.' }],
    ['vLLM / DeepSeek / OpenRouter (no code)', { type: 'BadRequestError', message: "This model's maximum context length is 32768 tokens. However, you requested 40000 tokens." }],
    ['a server that sends only OpenAI\'s sentence', { message: 'Your input exceeds the context window of this model. Please adjust your input and try again.' }],
  ])('reads %s as context-length-exceeded', (_label, error) => {
    expect(mapOpenAiChatHttpError({ status: 400, headers: {}, error, nowMs: 0 })).toMatchObject({ code: 'context-length-exceeded', retryable: false });
  });

  it('keeps another 400 invalid-request', () => {
    expect(mapOpenAiChatHttpError({ status: 400, headers: {}, error: { message: "'messages' must contain at least one message" }, nowMs: 0 })).toMatchObject({ code: 'invalid-request' });
  });
});

describe('mapOpenAiChatInBandError', () => {
  it('maps known types, numeric HTTP codes, and defaults to a non-retryable provider error', () => {
    expect(mapOpenAiChatInBandError({ message: 'x', type: 'server_error' })).toEqual({ code: 'provider-error', retryable: true, providerCode: 'server_error' });
    expect(mapOpenAiChatInBandError({ code: 429, message: 'slow down' })).toEqual({ code: 'rate-limited', retryable: true, providerCode: '429' });
    expect(mapOpenAiChatInBandError({ code: 'insufficient_system_resource' })).toEqual({
      code: 'overloaded',
      retryable: true,
      providerCode: 'insufficient_system_resource',
    });
    expect(mapOpenAiChatInBandError({ message: 'odd' })).toEqual({ code: 'provider-error', retryable: false });
  });
});

describe('mapOpenAiChatFinishReasonFailure', () => {
  it('recognizes failure finish reasons only', () => {
    expect(mapOpenAiChatFinishReasonFailure('insufficient_system_resource')).toEqual({
      code: 'overloaded',
      retryable: true,
      providerCode: 'insufficient_system_resource',
    });
    expect(mapOpenAiChatFinishReasonFailure('error')?.code).toBe('provider-error');
    expect(mapOpenAiChatFinishReasonFailure('stop')).toBeUndefined();
    expect(mapOpenAiChatFinishReasonFailure(undefined)).toBeUndefined();
  });
});
