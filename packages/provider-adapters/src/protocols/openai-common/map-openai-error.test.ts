import { describe, expect, it } from 'vitest';
import { mapOpenAiHttpError, mapOpenAiInBandError, type OpenAiErrorMeanings } from './map-openai-error.js';

const MEANINGS: OpenAiErrorMeanings = new Map([
  ['only_in_this_table', { code: 'content-filtered', retryable: false }],
  ['by_type', { code: 'quota-exceeded', retryable: false }],
]);

const nowMs = Date.parse('2026-01-01T00:00:00Z');

describe('mapOpenAiHttpError', () => {
  it('refines the status default with the dialect table, by code first, then by type', () => {
    expect(mapOpenAiHttpError(MEANINGS, { status: 400, headers: {}, error: { code: 'only_in_this_table', type: 'by_type' }, nowMs })).toEqual({
      code: 'content-filtered',
      retryable: false,
      providerCode: 'only_in_this_table',
    });
    expect(mapOpenAiHttpError(MEANINGS, { status: 400, headers: {}, error: { code: 'unknown', type: 'by_type' }, nowMs }).code).toBe('quota-exceeded');
    expect(mapOpenAiHttpError(new Map(), { status: 400, headers: {}, error: { code: 'only_in_this_table' }, nowMs }).code).toBe('invalid-request');
  });

  it('lets x-should-retry override retryable and reads retry-after-ms', () => {
    const failure = mapOpenAiHttpError(MEANINGS, { status: 503, headers: { 'x-should-retry': 'false', 'retry-after-ms': '250' }, error: undefined, nowMs });
    expect(failure).toEqual({ code: 'overloaded', retryable: false, retryAfterMs: 250 });
  });
});

describe('mapOpenAiInBandError', () => {
  it('uses the dialect table, then a numeric HTTP code, then a non-retryable provider-error', () => {
    expect(mapOpenAiInBandError(MEANINGS, { type: 'by_type' })).toEqual({ code: 'quota-exceeded', retryable: false, providerCode: 'by_type' });
    expect(mapOpenAiInBandError(MEANINGS, { code: 429 })).toEqual({ code: 'rate-limited', retryable: true, providerCode: '429' });
    expect(mapOpenAiInBandError(MEANINGS, { code: 'other' })).toEqual({ code: 'provider-error', retryable: false, providerCode: 'other' });
    expect(mapOpenAiInBandError(MEANINGS, undefined)).toEqual({ code: 'provider-error', retryable: false });
  });
});
