import type { SimulatorSurface } from './auth.js';

/** The request budget the simulator reports per surface and minute (its figures are made up, the form is real). */
export const SIMULATOR_REQUESTS_PER_MINUTE = 500;
/** The token budget the simulator reports per surface and minute. */
export const SIMULATOR_TOKENS_PER_MINUTE = 200_000;

/**
 * The rate-limit headers a real provider of `surface` sends on every answer, so clients see realistic facts:
 * OpenAI's `x-ratelimit-{limit,remaining,reset}-{requests,tokens}` with duration resets (`1s`, `6m0s`), and
 * Anthropic's `anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-{limit,remaining,reset}` with
 * RFC 3339 resets. `served` is how many requests this surface answered before this one (the remaining request
 * budget goes down with it); `nowMs` is the simulator's clock. Other surfaces document no such headers: none.
 */
export function simulatorRateLimitHeaders(surface: SimulatorSurface, served: number, nowMs: number): Record<string, string> {
  const remainingRequests = String(Math.max(0, SIMULATOR_REQUESTS_PER_MINUTE - 1 - (served % SIMULATOR_REQUESTS_PER_MINUTE)));
  switch (surface) {
    case 'openai':
      return {
        'x-ratelimit-limit-requests': String(SIMULATOR_REQUESTS_PER_MINUTE),
        'x-ratelimit-remaining-requests': remainingRequests,
        'x-ratelimit-reset-requests': '120ms',
        'x-ratelimit-limit-tokens': String(SIMULATOR_TOKENS_PER_MINUTE),
        'x-ratelimit-remaining-tokens': String(SIMULATOR_TOKENS_PER_MINUTE - 24),
        'x-ratelimit-reset-tokens': '7ms',
      };
    case 'anthropic': {
      // Anthropic resets are whole-second RFC 3339 times; the token bucket refills within the next second.
      const nextSecond = new Date(Math.floor(nowMs / 1000) * 1000 + 1000).toISOString().replace('.000Z', 'Z');
      const nextMinute = new Date(Math.floor(nowMs / 60_000) * 60_000 + 60_000).toISOString().replace('.000Z', 'Z');
      return {
        'anthropic-ratelimit-requests-limit': String(SIMULATOR_REQUESTS_PER_MINUTE),
        'anthropic-ratelimit-requests-remaining': remainingRequests,
        'anthropic-ratelimit-requests-reset': nextMinute,
        'anthropic-ratelimit-tokens-limit': String(SIMULATOR_TOKENS_PER_MINUTE),
        'anthropic-ratelimit-tokens-remaining': String(SIMULATOR_TOKENS_PER_MINUTE - 24),
        'anthropic-ratelimit-tokens-reset': nextSecond,
        'anthropic-ratelimit-input-tokens-limit': String(SIMULATOR_TOKENS_PER_MINUTE / 2),
        'anthropic-ratelimit-input-tokens-remaining': String(SIMULATOR_TOKENS_PER_MINUTE / 2 - 16),
        'anthropic-ratelimit-input-tokens-reset': nextSecond,
        'anthropic-ratelimit-output-tokens-limit': String(SIMULATOR_TOKENS_PER_MINUTE / 10),
        'anthropic-ratelimit-output-tokens-remaining': String(SIMULATOR_TOKENS_PER_MINUTE / 10 - 8),
        'anthropic-ratelimit-output-tokens-reset': nextSecond,
      };
    }
    case 'gemini':
    case 'cohere':
    case 'dashscope':
    case 'kling':
      return {};
    default: {
      const unknown: never = surface;
      return unknown;
    }
  }
}
