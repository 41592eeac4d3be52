/**
 * The example of OpenAI's rate-limit guide, as response headers and as the facts they normalize to (resets are
 * durations from the response head: `1s` and `6m0s`). Shared by the adapter tests of the OpenAI-dialect families.
 */
export const OPENAI_RATE_LIMIT_EXAMPLE_HEADERS: Readonly<Record<string, string>> = {
  'x-ratelimit-limit-requests': '60',
  'x-ratelimit-remaining-requests': '59',
  'x-ratelimit-reset-requests': '1s',
  'x-ratelimit-limit-tokens': '150000',
  'x-ratelimit-remaining-tokens': '149984',
  'x-ratelimit-reset-tokens': '6m0s',
};

/** What {@link OPENAI_RATE_LIMIT_EXAMPLE_HEADERS} normalize to. */
export const OPENAI_RATE_LIMIT_EXAMPLE_FACTS = {
  requests: { limit: 60, remaining: 59, resetMs: 1000 },
  tokens: { limit: 150000, remaining: 149984, resetMs: 360_000 },
} as const;
