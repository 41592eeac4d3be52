import type { UsageV3 } from '@tokenforge/model-protocol';

/** `usage` as this family writes it for clients. */
export interface OpenAiResponsesEgressUsage {
  readonly input_tokens: number;
  readonly input_tokens_details?: { readonly cached_tokens?: number; readonly cache_write_tokens?: number };
  readonly output_tokens: number;
  readonly output_tokens_details?: { readonly reasoning_tokens: number };
  readonly total_tokens: number;
}

/**
 * Writes normalized usage in Responses arithmetic (the same as {@link UsageV3}'s: input includes cached and
 * cache-write tokens, output includes reasoning). `total_tokens` is the reported total, else input plus output.
 * Without both input and output counts the answer carries `usage: null`: missing counts are never invented as zeros,
 * and a detail the provider did not report is left out.
 */
export function encodeOpenAiResponsesEgressUsage(usage: UsageV3 | undefined): OpenAiResponsesEgressUsage | null {
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

/** The service tiers OpenAI clients know (the Response's `service_tier`); another dialect's tier is not written. */
const OPENAI_SERVICE_TIERS: ReadonlySet<string> = new Set(['auto', 'default', 'flex', 'scale', 'priority']);

/** The Response's `service_tier` for `usage`, when it has an OpenAI tier (`{}` otherwise). */
export function encodeOpenAiResponsesServiceTier(usage: UsageV3 | undefined): { readonly service_tier?: string } {
  const tier = usage?.serviceTier;
  return tier !== undefined && OPENAI_SERVICE_TIERS.has(tier) ? { service_tier: tier } : {};
}
