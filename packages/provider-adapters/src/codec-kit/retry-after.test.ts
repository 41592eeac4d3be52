import { describe, expect, it } from 'vitest';
import { MAX_RETRY_AFTER_MS, parseRetryAfterMs, parseRetryAfterMsHint, readRetryAfterMs } from './retry-after.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

describe('parseRetryAfterMs', () => {
  it('reads delta-seconds, rounding fractions up to the millisecond', () => {
    expect(parseRetryAfterMs('30', NOW)).toBe(30_000);
    expect(parseRetryAfterMs(' 0 ', NOW)).toBe(0);
    expect(parseRetryAfterMs('1.5', NOW)).toBe(1500);
    expect(parseRetryAfterMs('0.0001', NOW)).toBe(1);
  });

  it('reads the three HTTP-date forms relative to now', () => {
    expect(parseRetryAfterMs('Thu, 15 Jan 2026 12:00:42 GMT', NOW)).toBe(42_000);
    expect(parseRetryAfterMs('Thursday, 15-Jan-26 12:01:00 GMT', NOW)).toBe(60_000);
    expect(parseRetryAfterMs('Thu Jan 15 12:00:05 2026', NOW)).toBe(5_000);
    expect(parseRetryAfterMs('Thu Jan  1 12:00:05 2026', Date.UTC(2026, 0, 1, 12, 0, 0))).toBe(5_000);
  });

  it('reads a date in the past as 0 and caps long waits at one day', () => {
    expect(parseRetryAfterMs('Wed, 14 Jan 2026 12:00:00 GMT', NOW)).toBe(0);
    expect(parseRetryAfterMs('999999999', NOW)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfterMs('Fri, 15 Jan 2027 12:00:00 GMT', NOW)).toBe(MAX_RETRY_AFTER_MS);
  });

  it.each([undefined, '', '-5', '+5', '5s', 'soon', '1e3', 'NaN', 'Infinity', '2026-01-15T12:00:42Z', 'Thu, 15 Jan 2026 12:00:42 PST', '1'.repeat(80)])(
    'returns undefined for %j',
    (value) => {
      expect(parseRetryAfterMs(value, NOW)).toBeUndefined();
    },
  );
});

describe('parseRetryAfterMsHint', () => {
  it('reads milliseconds, bounded, and nothing else', () => {
    expect(parseRetryAfterMsHint('250')).toBe(250);
    expect(parseRetryAfterMsHint('12.2')).toBe(13);
    expect(parseRetryAfterMsHint('900000000')).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfterMsHint('-1')).toBeUndefined();
    expect(parseRetryAfterMsHint('abc')).toBeUndefined();
    expect(parseRetryAfterMsHint(undefined)).toBeUndefined();
  });
});

describe('readRetryAfterMs', () => {
  it('prefers a readable millisecond hint, then falls back to retry-after', () => {
    expect(readRetryAfterMs({ 'retry-after-ms': '1200', 'retry-after': '2' }, NOW)).toBe(1200);
    expect(readRetryAfterMs({ 'retry-after-ms': 'bad', 'retry-after': '2' }, NOW)).toBe(2000);
    expect(readRetryAfterMs({ 'x-wait-ms': '7' }, NOW, ['x-wait-ms'])).toBe(7);
    expect(readRetryAfterMs({}, NOW)).toBeUndefined();
  });
});
