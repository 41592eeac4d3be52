import type { ProviderRateLimitsV3 } from '@tokenforge/model-protocol';
import { rateLimitWindowHeaders, readRateLimitHeaders, type RateLimitHeaderDialectV1 } from '../../codec-kit/rate-limit-headers.js';

/**
 * OpenAI's `x-ratelimit-{limit,remaining,reset}-{requests,tokens}`, resets as Go-style durations (`6m0s`, `20ms`);
 * many OpenAI-compatible servers send the same.
 */
export const OPENAI_RATE_LIMIT_HEADERS: RateLimitHeaderDialectV1 = Object.freeze({
  requests: rateLimitWindowHeaders((part) => `x-ratelimit-${part}-requests`),
  tokens: rateLimitWindowHeaders((part) => `x-ratelimit-${part}-tokens`),
  reset: 'duration',
});

/** The rate-limit facts of an OpenAI-dialect response head, or `undefined` when it carries none. */
export function mapOpenAiRateLimits(headers: Readonly<Record<string, string>>, nowMs: number): ProviderRateLimitsV3 | undefined {
  return readRateLimitHeaders(headers, OPENAI_RATE_LIMIT_HEADERS, nowMs);
}
