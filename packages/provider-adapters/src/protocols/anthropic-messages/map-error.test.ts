import { describe, expect, it } from 'vitest';
import { mapAnthropicError } from './map-error.js';
import { readAnthropicErrorEnvelope } from './wire-readers.js';

function map(status: number, body: unknown) {
  return mapAnthropicError({ status, headers: {}, error: readAnthropicErrorEnvelope(body), nowMs: 0 });
}

describe('mapAnthropicError: context overflow', () => {
  it('reads Anthropic\'s "prompt is too long" refusal as context-length-exceeded (anthropics/claude-code#12186, real body)', () => {
    const body = { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 208310 tokens > 200000 maximum' }, request_id: 'req_1' };
    expect(map(400, body)).toEqual({ code: 'context-length-exceeded', retryable: false, providerCode: 'invalid_request_error' });
    expect(map(413, { type: 'error', error: { type: 'request_too_large', message: 'Prompt is too long' } })).toMatchObject({ code: 'context-length-exceeded' });
  });

  it('keeps every other invalid request invalid-request', () => {
    const body = { type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: 100000 > 64000, which is the maximum allowed number of output tokens' } };
    expect(map(400, body)).toEqual({ code: 'invalid-request', retryable: false, providerCode: 'invalid_request_error' });
  });
});
