import type { EgressFailureV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { createOpenAiErrorEnvelope, type OpenAiErrorDialectCodes } from './openai-error-envelope.js';

const CODES: OpenAiErrorDialectCodes = {
  overloaded: 'c-overloaded',
  timeout: 'c-timeout',
  unreachable: 'c-unreachable',
  upstreamError: 'c-upstream',
  streamTruncated: 'c-truncated',
  protocolViolation: 'c-violation',
  internal: 'c-internal',
};

const envelope = createOpenAiErrorEnvelope(CODES);

function provider(code: string, retryable = false, retryAfterMs?: number): EgressFailureV1 {
  return { source: 'provider', failure: { code, retryable, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) } } as EgressFailureV1;
}

describe('createOpenAiErrorEnvelope', () => {
  it.each([
    [provider('overloaded'), 503, 'c-overloaded'],
    [provider('timeout'), 504, 'c-timeout'],
    [provider('network'), 502, 'c-unreachable'],
    [provider('provider-error'), 502, 'c-upstream'],
    [provider('truncated-stream'), 502, 'c-truncated'],
    [provider('protocol-violation'), 502, 'c-violation'],
    [{ source: 'engine', code: 'PROTOCOL_ENGINE_TRANSPORT_FAILED' } as EgressFailureV1, 502, 'c-unreachable'],
    [{ source: 'engine', code: 'PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID' } as EgressFailureV1, 502, 'c-violation'],
    [{ source: 'engine', code: 'not-a-known-code' } as unknown as EgressFailureV1, 500, 'c-internal'],
  ])('writes the dialect code for %j', (failure, status, code) => {
    const described = envelope.describe(failure);
    expect(described.status).toBe(status);
    expect(described.error.code).toBe(code);
    expect(described.error.param).toBeNull();
  });

  it('keeps the shared codes whatever the dialect', () => {
    expect(envelope.describe(provider('rate-limited')).error).toEqual({
      message: 'The upstream rate limit was reached.',
      type: 'rate_limit_error',
      code: 'rate_limit_exceeded',
      param: null,
    });
    expect(envelope.describe(provider('authentication')).status).toBe(502);
    expect(envelope.describe({ source: 'ingress', code: 'body-too-large' } as EgressFailureV1)).toEqual({
      status: 413,
      error: { message: 'The request could not be accepted (body-too-large).', type: 'invalid_request_error', code: 'body_too_large', param: null },
    });
    expect(envelope.describe({ source: 'engine', code: 'PROTOCOL_ENGINE_ABORTED' } as EgressFailureV1).status).toBe(499);
  });

  it('encodes the envelope with retry headers for provider failures only', () => {
    const response = envelope.encode(provider('rate-limited', true, 1500));
    expect(response.status).toBe(429);
    expect(response.headers).toEqual({ 'content-type': 'application/json', 'x-should-retry': 'true', 'retry-after': '2', 'retry-after-ms': '1500' });
    expect(JSON.parse(new TextDecoder().decode(response.body))).toEqual({ error: envelope.describe(provider('rate-limited')).error });
    expect(envelope.encode({ source: 'engine', code: 'PROTOCOL_ENGINE_INPUT_INVALID' } as EgressFailureV1).headers).toEqual({
      'content-type': 'application/json',
    });
  });

  it('names the refused field of an ingress refusal in param, and nothing else', () => {
    expect(envelope.describe({ source: 'ingress', code: 'unsupported-feature', param: 'n' }).error.param).toBe('n');
    expect(envelope.describe({ source: 'ingress', code: 'invalid-request', param: 'messages.3.content.0' }).error.param).toBe('messages.3.content.0');
    expect(envelope.describe({ source: 'ingress', code: 'invalid-request', param: 'x'.repeat(257) }).error.param).toBeNull();
    expect(envelope.describe({ source: 'ingress', code: 'invalid-request', param: '' }).error.param).toBeNull();
    expect(envelope.describe(provider('invalid-request')).error.param).toBeNull();
  });
});
