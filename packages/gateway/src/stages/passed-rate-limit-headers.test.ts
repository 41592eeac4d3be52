import type { ProtocolFamily } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import type { RuntimeTarget } from '../runtime/resolve-catalogue.js';
import { passedRateLimitHeaders, type PassedRateLimitHeadersInput } from './passed-rate-limit-headers.js';

const DURATION_NAMES = { reset: 'duration', requests: { limit: 'x-ratelimit-limit-requests', remaining: 'x-ratelimit-remaining-requests', reset: 'x-ratelimit-reset-requests' } } as const;
const TIMESTAMP_NAMES = { reset: 'timestamp', requests: { limit: 'r-limit', remaining: 'r-remaining', reset: 'r-reset' } } as const;
const suite = {
  entries: [
    { protocolFamily: 'openai-chat/v1', execution: 'sync', rateLimitHeaders: DURATION_NAMES },
    { protocolFamily: 'openai-responses/v1', execution: 'sync', rateLimitHeaders: DURATION_NAMES },
    { protocolFamily: 'anthropic-messages/v1', execution: 'sync', rateLimitHeaders: TIMESTAMP_NAMES },
  ],
} as unknown as PassedRateLimitHeadersInput['suite'];
const target = (family: string, passRateLimitHeaders = true): RuntimeTarget => ({ family, passRateLimitHeaders }) as unknown as RuntimeTarget;
const input = (overrides: Partial<PassedRateLimitHeadersInput> = {}): PassedRateLimitHeadersInput => ({
  suite,
  clientFamily: 'openai-chat/v1' as ProtocolFamily,
  target: target('openai-responses/v1'),
  targetIndex: 0,
  rateLimits: { requests: { limit: 100, remaining: 99, resetMs: 1000 } },
  now: () => 0,
  ...overrides,
});

describe('passedRateLimitHeaders', () => {
  it('passes the first opted-in target’s rate limits to a client whose dialect writes them the same way', () => {
    expect(passedRateLimitHeaders(input())).toEqual({ 'x-ratelimit-limit-requests': '100', 'x-ratelimit-remaining-requests': '99', 'x-ratelimit-reset-requests': '1s' });
  });

  it('passes nothing after a fallback, without the opt-in, without facts, or across header dialects', () => {
    expect(passedRateLimitHeaders(input({ targetIndex: 1 }))).toEqual({});
    expect(passedRateLimitHeaders(input({ target: target('openai-responses/v1', false) }))).toEqual({});
    expect(passedRateLimitHeaders(input({ rateLimits: undefined }))).toEqual({});
    expect(passedRateLimitHeaders(input({ target: target('anthropic-messages/v1') }))).toEqual({});
    expect(passedRateLimitHeaders(input({ target: target('cohere-rerank/v1') }))).toEqual({});
  });
});
