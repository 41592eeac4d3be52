import { normalizedProviderFailureV1Schema } from '@tokenforge/model-protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundProviderCode, createHttpFailure, mapHttpStatusToFailure } from './http-failure.js';

describe('mapHttpStatusToFailure', () => {
  it.each([
    [400, 'invalid-request', false],
    [401, 'authentication', false],
    [402, 'quota-exceeded', false],
    [403, 'permission-denied', false],
    [404, 'not-found', false],
    [408, 'timeout', true],
    [409, 'conflict', false],
    [413, 'invalid-request', false],
    [422, 'invalid-request', false],
    [429, 'rate-limited', true],
    [500, 'provider-error', true],
    [502, 'provider-error', true],
    [503, 'overloaded', true],
    [504, 'timeout', true],
    [529, 'overloaded', true],
    [418, 'invalid-request', false],
    [499, 'invalid-request', false],
    [501, 'provider-error', true],
    [599, 'provider-error', true],
    [200, 'provider-error', false],
    [302, 'provider-error', false],
    [600, 'provider-error', false],
    [Number.NaN, 'provider-error', false],
  ] as const)('maps %d to %s (retryable %s)', (status, code, retryable) => {
    expect(mapHttpStatusToFailure(status)).toEqual({ code, retryable });
  });
});

describe('boundProviderCode', () => {
  it('keeps short codes of the allowed characters, numbers as text', () => {
    expect(boundProviderCode('rate_limit_error')).toBe('rate_limit_error');
    expect(boundProviderCode('RESOURCE_EXHAUSTED')).toBe('RESOURCE_EXHAUSTED');
    expect(boundProviderCode('a.b:c-d')).toBe('a.b:c-d');
    expect(boundProviderCode('x'.repeat(64))).toBe('x'.repeat(64));
    expect(boundProviderCode(429)).toBe('429');
  });

  it.each([['x'.repeat(65)], [''], ['has space'], ['quota exceeded for key sk-123'], ['código'], ['a\nb'], [null], [undefined], [{}], [1.5], [true]])(
    'drops %j',
    (value) => {
      expect(boundProviderCode(value)).toBeUndefined();
    },
  );

  it('only ever returns values the normalized failure schema accepts', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.integer(), fc.anything()), (value) => {
        const code = boundProviderCode(value);
        if (code !== undefined) {
          expect(normalizedProviderFailureV1Schema.safeParse({ code: 'network', retryable: true, providerCode: code }).success).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('createHttpFailure', () => {
  it('combines the status default, the retry hint and a bounded provider code', () => {
    const failure = createHttpFailure({ status: 429, headers: { 'retry-after': '3' }, nowMs: 0, providerCode: 'rate_limit_exceeded' });
    expect(failure).toEqual({ code: 'rate-limited', retryable: true, retryAfterMs: 3000, providerCode: 'rate_limit_exceeded' });
    expect(normalizedProviderFailureV1Schema.parse(failure)).toEqual(failure);
  });

  it('lets the family override the status default and leaves out what it does not know', () => {
    expect(
      createHttpFailure({ status: 400, nowMs: 0, providerCode: 'a message, not a code', override: { code: 'context-length-exceeded', retryable: false } }),
    ).toEqual({ code: 'context-length-exceeded', retryable: false });
  });
});
