import type { UsageV1 } from '@tokenforge/model-protocol';

/** The usage object of an egress Message, `message_start` or `message_delta`. */
export interface AnthropicEgressUsage {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cache_creation_input_tokens: number | null;
  readonly cache_read_input_tokens: number | null;
}

/**
 * The reverse of `convertAnthropicUsage`, for egress: `input_tokens = inputTokens - cacheReadInputTokens -
 * cacheWriteInputTokens` (Anthropic's input excludes cache traffic; never below 0), the cache figures as they
 * are, `output_tokens = outputTokens`. Anthropic clients require `input_tokens` and `output_tokens`, so an
 * unreported total is written as 0 there; an unreported cache figure is `null`, as the API itself writes it.
 */
export function encodeAnthropicWireUsage(usage: UsageV1 | undefined): AnthropicEgressUsage {
  const cacheRead = usage?.cacheReadInputTokens;
  const cacheWrite = usage?.cacheWriteInputTokens;
  const input = usage?.inputTokens;
  return {
    input_tokens: input === undefined ? 0 : Math.max(0, input - (cacheRead ?? 0) - (cacheWrite ?? 0)),
    output_tokens: usage?.outputTokens ?? 0,
    cache_creation_input_tokens: cacheWrite ?? null,
    cache_read_input_tokens: cacheRead ?? null,
  };
}
