import { providerRateLimitsV3Schema } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { mapAnthropicRateLimits } from '../protocols/anthropic-messages/map-rate-limits.js';
import { mapOpenAiRateLimits } from '../protocols/openai-common/map-rate-limits.js';
import { parseRateLimitResetMs } from './rate-limit-headers.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');

describe('rate-limit headers', () => {
  it('reads OpenAI figures and duration resets (as in the documented example)', () => {
    const limits = mapOpenAiRateLimits(
      {
        'x-ratelimit-limit-requests': '5000',
        'x-ratelimit-remaining-requests': '4999',
        'x-ratelimit-reset-requests': '12ms',
        'x-ratelimit-limit-tokens': '160000',
        'x-ratelimit-remaining-tokens': '159976',
        'x-ratelimit-reset-tokens': '6m0s',
        'retry-after-ms': '250',
      },
      NOW,
    );
    expect(limits).toEqual({
      requests: { limit: 5000, remaining: 4999, resetMs: 12 },
      tokens: { limit: 160000, remaining: 159976, resetMs: 360_000 },
      retryAfterMs: 250,
    });
    expect(providerRateLimitsV3Schema.safeParse(limits).success).toBe(true);
  });

  it('reads Anthropic windows with RFC 3339 resets relative to the response time', () => {
    expect(
      mapAnthropicRateLimits(
        {
          'anthropic-ratelimit-requests-limit': '50',
          'anthropic-ratelimit-requests-remaining': '49',
          'anthropic-ratelimit-requests-reset': '2026-01-01T00:00:01Z',
          'anthropic-ratelimit-input-tokens-limit': '40000',
          'anthropic-ratelimit-input-tokens-remaining': '39000',
          'anthropic-ratelimit-input-tokens-reset': '2026-01-01T00:00:02.500Z',
          'anthropic-ratelimit-output-tokens-remaining': '8000',
        },
        NOW,
      ),
    ).toEqual({
      requests: { limit: 50, remaining: 49, resetMs: 1000 },
      inputTokens: { limit: 40000, remaining: 39000, resetMs: 2500 },
      outputTokens: { remaining: 8000 },
    });
  });

  it('leaves out what it cannot read (Azure -1, garbage, past dates are 0) and answers undefined for none', () => {
    expect(mapOpenAiRateLimits({ 'x-ratelimit-limit-tokens': '-1', 'x-ratelimit-remaining-tokens': 'lots', 'x-ratelimit-reset-tokens': '0' }, NOW)).toEqual({
      tokens: { resetMs: 0 },
    });
    expect(mapOpenAiRateLimits({ 'content-type': 'application/json' }, NOW)).toBeUndefined();
    expect(parseRateLimitResetMs('2025-12-31T23:59:00Z', 'timestamp', NOW)).toBe(0);
    expect(parseRateLimitResetMs('1h2m3.5s', 'duration', NOW)).toBe(3_723_500);
    expect(parseRateLimitResetMs('soon', 'duration', NOW)).toBeUndefined();
    expect(parseRateLimitResetMs('9999999h', 'duration', NOW)).toBe(604_800_000);
  });
});
