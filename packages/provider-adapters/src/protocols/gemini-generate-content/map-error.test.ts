import { describe, expect, it } from 'vitest';
import { mapGeminiHttpError, mapGeminiStreamError } from './map-error.js';
import { readGeminiError } from './wire-readers.js';

// Google's refusal of an over-long prompt: 400 INVALID_ARGUMENT, "The input token count (N) exceeds the maximum number
// of tokens allowed (M)." (Gemini API troubleshooting guide, 400 INVALID_ARGUMENT; the wording pi-mono and opencode
// match with /input token count.*exceeds the maximum/).
const OVERFLOW = { error: { code: 400, message: 'The input token count (1048577) exceeds the maximum number of tokens allowed (1048576).', status: 'INVALID_ARGUMENT' } };

describe('mapGeminiHttpError: context overflow', () => {
  it('reads the input-token-count refusal as context-length-exceeded, over HTTP and in a stream', () => {
    expect(mapGeminiHttpError({ status: 400, headers: {}, body: OVERFLOW, nowMs: 0 })).toEqual({ code: 'context-length-exceeded', retryable: false, providerCode: 'INVALID_ARGUMENT' });
    expect(mapGeminiStreamError(readGeminiError(OVERFLOW.error))).toMatchObject({ code: 'context-length-exceeded', retryable: false });
  });

  it('keeps every other INVALID_ARGUMENT invalid-request', () => {
    const other = { error: { code: 400, message: 'Request contains an invalid argument.', status: 'INVALID_ARGUMENT' } };
    expect(mapGeminiHttpError({ status: 400, headers: {}, body: other, nowMs: 0 })).toMatchObject({ code: 'invalid-request' });
  });
});
