import type { UsageV1 } from '@tokenforge/model-protocol';

/** `usage` as this family writes it for clients. */
export interface OpenAiResponsesEgressUsage {
  readonly input_tokens: number;
  readonly input_tokens_details?: { readonly cached_tokens?: number; readonly cache_write_tokens?: number };
  readonly output_tokens: number;
  readonly output_tokens_details?: { readonly reasoning_tokens: number };
  readonly total_tokens: number;
}

/**
 * Writes normalized usage in Responses arithmetic (the same as {@link UsageV1}'s: input includes cached and
 * cache-write tokens, output includes reasoning). `total_tokens` is the reported total, else input plus output.
 * Without both input and output counts the answer carries `usage: null`: missing counts are never invented as zeros,
 * and a detail the provider did not report is left out.
 */
export function encodeOpenAiResponsesEgressUsage(usage: UsageV1 | undefined): OpenAiResponsesEgressUsage | null {
  if (usage === undefined || usage.inputTokens === undefined || usage.outputTokens === undefined) return null;
  const inputDetails = {
    ...(usage.cacheReadInputTokens === undefined ? {} : { cached_tokens: usage.cacheReadInputTokens }),
    ...(usage.cacheWriteInputTokens === undefined ? {} : { cache_write_tokens: usage.cacheWriteInputTokens }),
  };
  return {
    input_tokens: usage.inputTokens,
    ...(Object.keys(inputDetails).length === 0 ? {} : { input_tokens_details: inputDetails }),
    output_tokens: usage.outputTokens,
    ...(usage.reasoningOutputTokens === undefined ? {} : { output_tokens_details: { reasoning_tokens: usage.reasoningOutputTokens } }),
    total_tokens: usage.totalTokens ?? usage.inputTokens + usage.outputTokens,
  };
}
