import type { UsageV1 } from '@tokenforge/model-protocol';

/** `usage` as this family writes it for clients. */
export interface OpenAiChatEgressUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
  readonly prompt_tokens_details?: { readonly cached_tokens?: number; readonly cache_write_tokens?: number };
  readonly completion_tokens_details?: { readonly reasoning_tokens: number };
}

/**
 * Writes normalized usage in OpenAI's arithmetic (the same as {@link UsageV1}'s: prompt includes cached and
 * cache-write tokens, completion includes reasoning). `total_tokens` is the reported total, else input plus
 * output. Without both input and output counts nothing is written: the dialect has no partial usage, and
 * missing counts are never invented as zeros.
 */
export function encodeOpenAiChatEgressUsage(usage: UsageV1 | undefined): OpenAiChatEgressUsage | undefined {
  if (usage === undefined || usage.inputTokens === undefined || usage.outputTokens === undefined) return undefined;
  const promptDetails = {
    ...(usage.cacheReadInputTokens === undefined ? {} : { cached_tokens: usage.cacheReadInputTokens }),
    ...(usage.cacheWriteInputTokens === undefined ? {} : { cache_write_tokens: usage.cacheWriteInputTokens }),
  };
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.totalTokens ?? usage.inputTokens + usage.outputTokens,
    ...(Object.keys(promptDetails).length === 0 ? {} : { prompt_tokens_details: promptDetails }),
    ...(usage.reasoningOutputTokens === undefined ? {} : { completion_tokens_details: { reasoning_tokens: usage.reasoningOutputTokens } }),
  };
}
