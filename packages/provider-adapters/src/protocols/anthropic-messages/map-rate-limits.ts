import type { ProviderRateLimitsV3 } from '@tokenforge/model-protocol';
import { rateLimitWindowHeaders, readRateLimitHeaders, type RateLimitHeaderDialectV1 } from '../../codec-kit/rate-limit-headers.js';

/** `anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-{limit,remaining,reset}`, resets in RFC 3339. */
export const ANTHROPIC_RATE_LIMIT_HEADERS: RateLimitHeaderDialectV1 = Object.freeze({
  requests: rateLimitWindowHeaders((part) => `anthropic-ratelimit-requests-${part}`),
  tokens: rateLimitWindowHeaders((part) => `anthropic-ratelimit-tokens-${part}`),
  inputTokens: rateLimitWindowHeaders((part) => `anthropic-ratelimit-input-tokens-${part}`),
  outputTokens: rateLimitWindowHeaders((part) => `anthropic-ratelimit-output-tokens-${part}`),
  reset: 'timestamp',
});

/** The rate-limit facts of a Messages response head, or `undefined` when it carries none. */
export function mapAnthropicRateLimits(headers: Readonly<Record<string, string>>, nowMs: number): ProviderRateLimitsV3 | undefined {
  return readRateLimitHeaders(headers, ANTHROPIC_RATE_LIMIT_HEADERS, nowMs);
}
